// Builds the committed programs of the GitHub Action and the pre-commit hook into action/dist/
// (a JavaScript action's code is committed with it: the runner and pre-commit run it from a checkout,
// with nothing installed). Run it after changing anything under src/ and commit the result:
// test/action.test.ts fails while the committed files differ from what this builds.
//   action/dist/index.cjs      the Action's entry (action.yml `main`): src/action/main.ts
//   action/dist/loopkit.cjs    loopkit's command line (src/action/program.ts), executable: the
//                              pre-commit hook's entry, and what index.cjs runs
//   action/dist/worker.js      the worker thread of the per-file phase (large projects on 4+ cores)
//   action/dist/vendor/cl100k_base.cjs   the tokenizer's encoding, loaded when a count matters
//   action/dist/THIRD-PARTY-NOTICES.txt  the licences of the bundled packages
// `check` needs nothing else: the pictures (`graph --format svg`), the file watcher and the servers
// are left out (loopkit.cjs says so if asked for them); the npm package has them.
//
//   node scripts/build-action.mjs [--out <dir>]     (default: action/dist)
import { build } from 'esbuild';
import { chmodSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildCjsCli, buildEsm, buildVendor, root, writeNotices } from './bundle.mjs';

const args = process.argv.slice(2);
const outdir = resolve(args.includes('--out') ? args[args.indexOf('--out') + 1] : join(root, 'action', 'dist'));
const options = { minify: true, sourcemap: false };

rmSync(outdir, { recursive: true, force: true });
const metafiles = [
  await buildCjsCli(outdir, 'loopkit', options, { shebang: true, entry: 'src/action/program.ts' }),
  await buildEsm(outdir, { worker: 'src/api/worker.ts' }, options, { splitting: false }),
  ...(await buildVendor(outdir, ['tokenizer'], options)),
];
chmodSync(join(outdir, 'loopkit.cjs'), 0o755);

// the Action's entry: everything but loopkit's command line, which it requires from ./loopkit.cjs
const entry = await build({
  absWorkingDir: root,
  entryPoints: { index: 'src/action/main.ts' },
  outdir,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'loopkit-program',
      setup(b) {
        b.onResolve({ filter: /^\.\/program\.js$/ }, () => ({ path: './loopkit.cjs', external: true }));
      },
    },
  ],
});
metafiles.push(entry.metafile);
writeNotices(outdir, metafiles);
