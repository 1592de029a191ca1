// The language server opening a project (issue 28's editor targets), on the real project's copies
// (bench/forge.mjs; generated projects when ../shared/corpus/forge is absent): `loopkit lsp --stdio`
// in its own process, driven as an editor drives it, timed from the `initialized` notification.
//   cold   no cache (`--no-cache`): the first publication of a file's diagnostics, and the last
//   warm   the cache filled by a `loopkit check` of the same project just before (the cache in a
//          folder of its own, LOOPKIT_CACHE_DIR): the last publication
// The server answers a workspace/symbol request only once it has read the project: every publication
// of the start comes before that answer. Each mode runs --runs times (default 3); medians are quoted,
// with `node -e 0` timed alongside.
//
// Usage: npm run bench:lsp-start -- [--sizes 24,240,2400] [--runs N] [--shape forge|real]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { forgePresent, forgeProject } from './forge.mjs';
import { generateProject } from './generate.mjs';
import { createMeasure, median } from './measure.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const shape = opt('--shape', forgePresent() ? 'forge' : 'real');
const sizes = opt('--sizes', '24,240,2400').split(',').map(Number);
const runs = Number(opt('--runs', '3'));
const bin = fileURLToPath(new URL('../bin/loopkit.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'loopkit-bench-lsp-start-'));
const measure = createMeasure(work);
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;

/** One start of the server on `root`: ms from `initialized` to the first and the last publication, files published. */
async function start(root, flags, env) {
  const child = spawn(process.execPath, [bin, 'lsp', '--stdio', ...flags], { stdio: ['pipe', 'pipe', 'inherit'], env });
  const conn = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const published = [];
  conn.onNotification('textDocument/publishDiagnostics', (p) => published.push({ at: performance.now(), uri: p.uri }));
  conn.onRequest('client/registerCapability', () => null);
  conn.listen();
  await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(root).href,
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'bench' }],
    capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } },
  });
  const t0 = performance.now();
  await conn.sendNotification('initialized', {});
  await conn.sendRequest('workspace/symbol', { query: '\u0000settled' });
  const answered = performance.now() - t0;
  await conn.sendRequest('shutdown');
  await conn.sendNotification('exit');
  conn.dispose();
  await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
  if (published.length === 0) return { first: answered, last: answered, files: 0 };
  return { first: published[0].at - t0, last: published[published.length - 1].at - t0, files: new Set(published.map((p) => p.uri)).size };
}

console.log(`loopkit lsp start benchmark · ${shape} · node ${process.version} · ${cpus().length} cores (${cpus()[0]?.model ?? '?'})`);
const rows = [];
try {
  for (const n of sizes) {
    const root = join(work, `p${n}`);
    mkdirSync(root);
    if (shape === 'forge') forgeProject(root, n);
    else generateProject(root, n, shape);
    const cache = join(work, `cache${n}`);
    const env = { ...process.env, LOOPKIT_CACHE_DIR: cache };
    delete env.LOOPKIT_NO_CACHE;
    const cold = [];
    const warm = [];
    const node = [];
    for (let i = 0; i < runs; i++) {
      node.push(measure(['-e', '0']).wall * 1000);
      cold.push(await start(root, ['--no-cache'], env));
      rmSync(cache, { recursive: true, force: true });
      measure([bin, 'check', root], { LOOPKIT_CACHE_DIR: cache });
      warm.push(await start(root, [], env));
    }
    const row = {
      n,
      node: median(node),
      coldFirst: median(cold.map((r) => r.first)),
      coldLast: median(cold.map((r) => r.last)),
      warmFirst: median(warm.map((r) => r.first)),
      warmLast: median(warm.map((r) => r.last)),
      files: Math.max(...cold.map((r) => r.files)),
      warmFiles: Math.max(...warm.map((r) => r.files)),
    };
    rows.push(row);
    console.log(
      `${String(n).padStart(5)} skills: cold first ${s(row.coldFirst)}, last ${s(row.coldLast)} (${row.files} files) · ` +
        `warm first ${s(row.warmFirst)}, last ${s(row.warmLast)} (${row.warmFiles} files) · node -e 0 ${row.node.toFixed(0)} ms`,
    );
  }
} finally {
  if (!args.includes('--keep')) rmSync(work, { recursive: true, force: true });
  else console.log(`projects kept in ${work}`);
}

console.log(
  '\n| skills | cold: first file | cold: all published | warm cache: first file | warm cache: all published | files | `node -e 0` |',
);
console.log('|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows)
  console.log(
    `| ${r.n.toLocaleString('en')} | ${s(r.coldFirst)} | ${s(r.coldLast)} | ${s(r.warmFirst)} | ${s(r.warmLast)} | ${r.files} | ${r.node.toFixed(0)} ms |`,
  );
