// Builds the published package into dist/: loopkit as bundled ESM programs (no module resolution
// through node_modules at run time), laid out so that each run loads only what it needs:
//   dist/cli.js      the command line with the engine, the rules and the reporters
//   dist/worker.js   a worker thread of the per-file phase
//   dist/chunks/     code loaded on demand: the markdown parser (only when a file must be parsed,
//                    i.e. is not in the cache), the YAML parser and the schema of .loopkit.yaml
//                    (only when the configuration is not in the cache), the WebAssembly Graphviz (only
//                    for `graph --format svg|html`), and what cli and worker share
//   dist/version.js  the version alone (`loopkit --version` loads nothing else)
//   dist/cli.cjs     the command line again as one CommonJS program, which bin/loopkit.js runs with
//                    V8's code cache (dist/boot.cjs, src/boot.ts): Node 20 keeps no compiled code of
//                    ES modules between runs. The server libraries and the Graphviz stay outside it
//                    (required from node_modules when `lsp`, `mcp`, `watch` or a picture needs them;
//                    the command runs those from dist/cli.js)
//   dist/index.js    the library API, one file (the WebAssembly Graphviz of the SVG/HTML pictures is
//                    not in it: it is imported from the @viz-js/viz package when a picture is drawn)
// Type declarations come from tsc (dist/**/*.d.ts). `--metafile` writes dist/meta.json, the size
// of every module in every output file (e.g. for https://esbuild.github.io/analyze/).
import { build } from 'esbuild';
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist`;
rmSync(outdir, { recursive: true, force: true });

const common = {
  absWorkingDir: root,
  outdir,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: !process.argv.includes('--no-minify'),
  sourcemap: 'linked',
  legalComments: 'linked',
  metafile: true,
  logLevel: 'warning',
  // CommonJS dependencies (fast-glob) call require() for Node's own modules
  banner: { js: "import { createRequire as __loopkitRequire } from 'node:module'; const require = __loopkitRequire(import.meta.url);" },
};

const program = await build({
  ...common,
  entryPoints: { cli: 'src/cli.ts', worker: 'src/engine/worker.ts' },
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
});
const library = await build({ ...common, entryPoints: { index: 'src/index.ts' }, external: ['@viz-js/viz'] });
await build({ ...common, entryPoints: { version: 'src/version.ts' }, banner: {}, sourcemap: false });
await build({
  ...common,
  entryPoints: { boot: 'src/boot.ts' },
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  banner: {},
  sourcemap: false,
});
await build({
  ...common,
  entryPoints: { cli: 'src/cli.ts' },
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  // import() of @viz-js/viz as require(): a script compiled from V8's code cache has no dynamic import
  supported: { 'dynamic-import': false },
  external: ['@viz-js/viz', '@modelcontextprotocol/sdk', 'vscode-languageserver', 'vscode-languageserver-textdocument', 'chokidar'].flatMap(
    (p) => [p, `${p}/*`],
  ),
  // the program's own place, where the ES modules read import.meta.url
  define: { 'import.meta.url': '__loopkitUrl' },
  banner: { js: "var __loopkitUrl = require('node:url').pathToFileURL(__filename).href;" },
});

if (process.argv.includes('--metafile')) {
  const outputs = { ...program.metafile.outputs, ...library.metafile.outputs };
  writeFileSync(`${outdir}/meta.json`, JSON.stringify({ inputs: { ...program.metafile.inputs, ...library.metafile.inputs }, outputs }));
}
