// Builds the published package into dist/: loopkit as bundled programs with every dependency inside
// (the package has no runtime dependencies; scripts/bundle.mjs says how), laid out so that each run
// loads only what it needs:
//   dist/cli.cjs     the command line as one CommonJS program, which bin/loopkit.js runs with V8's
//                    code cache (dist/boot.cjs, src/boot.ts): Node 20 keeps no compiled code of ES
//                    modules between runs
//   dist/cli.js      the command line as an ES module with its chunks (dist/*-<hash>.js: the markdown
//                    parser, the YAML parser and the schema of .loopkit.yaml, the servers, … each loaded
//                    when needed): bin/loopkit.js runs `lsp`, `mcp` and `watch` from it
//   dist/worker.js   a worker thread of the per-file phase
//   dist/index.js    the library API (sharing the chunks)
//   dist/testing.js  the rule tester for plugin authors (`loopkit/testing`)
//   dist/version.js  the version alone (`loopkit --version` loads nothing else)
//   dist/vendor/     the tokenizer's encoding, the WebAssembly Graphviz and the file watcher, each
//                    loaded only when used
//   dist/THIRD-PARTY-NOTICES.txt   the licences of the bundled packages
// Type declarations come from tsc (dist/**/*.d.ts). No source maps unless `--sourcemap` (a debugging
// build; the package ships none). `--metafile` writes dist/meta.json, the size of every module in
// every output file (e.g. for https://esbuild.github.io/analyze/). `--if-stale` builds only when a
// source file the last build read (or the build itself, or the lockfile) changed since: the check
// script of a checkout (`npm run check`) uses it.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCjsCli, buildEsm, buildSmall, buildVendor, root, writeNotices } from './bundle.mjs';

const outdir = join(root, 'dist');
// what the last build read, kept outside dist/ (which is packed)
const stamp = join(root, 'node_modules', '.cache', 'loopkit-build.json');
const options = { minify: !process.argv.includes('--no-minify'), sourcemap: process.argv.includes('--sourcemap') };

/** Did anything the last build read change since it ran? */
function stale() {
  if (!existsSync(stamp) || !existsSync(join(outdir, 'cli.cjs'))) return true;
  const { built, inputs } = JSON.parse(readFileSync(stamp, 'utf8'));
  const changed = (f) => !existsSync(join(root, f)) || statSync(join(root, f)).mtimeMs > built;
  return [...inputs, 'scripts/build.mjs', 'scripts/bundle.mjs', 'package-lock.json'].some(changed);
}

if (process.argv.includes('--if-stale') && !stale()) process.exit(0);

const started = Date.now();
rmSync(outdir, { recursive: true, force: true });
const metafiles = [
  await buildEsm(outdir, { cli: 'src/cli.ts', worker: 'src/api/worker.ts', index: 'src/index.ts', testing: 'src/testing.ts' }, options),
  await buildCjsCli(outdir, 'cli', options),
  await buildSmall(outdir, 'version', 'src/version.ts', 'esm', { ...options, sourcemap: false }),
  await buildSmall(outdir, 'boot', 'src/boot.ts', 'cjs', { ...options, sourcemap: false }),
  ...(await buildVendor(outdir, ['tokenizer', '@viz-js/viz', 'chokidar'], { ...options, sourcemap: false })),
];
writeNotices(outdir, metafiles);
const inputs = [...new Set(metafiles.flatMap((m) => Object.keys(m.inputs)))].filter((f) => !/[:<]/u.test(f)).sort();
mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
writeFileSync(stamp, `${JSON.stringify({ built: started, inputs })}\n`);

if (process.argv.includes('--metafile')) {
  const merged = { inputs: {}, outputs: {} };
  for (const m of metafiles) {
    Object.assign(merged.inputs, m.inputs);
    Object.assign(merged.outputs, m.outputs);
  }
  writeFileSync(join(outdir, 'meta.json'), JSON.stringify(merged));
}
