// The language server's benchmark: `loopkit lsp --stdio` in its own process, driven as an editor
// drives it (vscode-jsonrpc over stdio), on generated projects (bench/generate.mjs). For each size:
//   start    initialize → every diagnostic of the project published (the server answers a
//            workspace/symbol request only once it has read the project: its publications come
//            first), next to a cold `loopkit check` of the same project
//   edit     a LOOP.md in the middle of the pipeline is edited back and forth: its transition to the
//            next step's state is sent elsewhere, then restored. Each didChange is timed to the
//            publication of the changed file's diagnostics, and to the last publication of the
//            update (every file whose diagnostics the change created or cleared: the changed LOOP.md,
//            the next skill's SKILL.md and LOOP.md …)
//   memory   the server's resident set after the edits, and its peak (VmRSS, VmHWM)
//
// Usage: npm run bench:lsp -- [--sizes 24,240,2400] [--edits N] [--keep]
//   --edits N   timed edits per size (default 40 up to 240 skills, 20 above), after 4 untimed ones
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { generateProject } from './generate.mjs';
import { createMeasure, median } from './measure.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const sizes = opt('--sizes', '24,240,2400').split(',').map(Number);
const bin = fileURLToPath(new URL('../bin/loopkit.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'loopkit-bench-lsp-'));
const measure = createMeasure(work);

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const ms = (s) => `${s.toFixed(0)} ms`;

/** CPU seconds a process has used so far, all threads (Linux: /proc/<pid>/stat, in clock ticks of 1/100 s). */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /su, '')
      .split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** The server's resident set and its peak, MiB (Linux). */
function memory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'mu').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return { rss: NaN, peak: NaN };
  }
}

async function benchSize(n) {
  const root = join(work, `p${n}`);
  const { mkdirSync } = await import('node:fs');
  mkdirSync(root);
  generateProject(root, n);

  // a cold check of the same project, the start-up's yardstick (3 runs; 1 from 2,400 skills)
  const checks = [];
  const checkCpu = [];
  for (let i = 0; i < (n >= 2400 ? 1 : 3); i++) {
    const m = measure([bin, 'check', root, '--no-cache']);
    checks.push(m.wall * 1000);
    checkCpu.push(m.cpu * 1000);
  }

  // no cache: the start measured is a first start (the cache is on by default)
  const child = spawn(process.execPath, [bin, 'lsp', '--stdio', '--no-cache'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const published = [];
  conn.onNotification('textDocument/publishDiagnostics', (p) =>
    published.push({ at: performance.now(), uri: p.uri, count: p.diagnostics.length }),
  );
  conn.onRequest('client/registerCapability', () => null);
  conn.listen();

  const t0 = performance.now();
  await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(root).href,
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: `p${n}` }],
    capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } },
  });
  await conn.sendNotification('initialized', {});
  const settled = () => conn.sendRequest('workspace/symbol', { query: '\u0000settled' });
  await settled();
  const start = (published.length > 0 ? published[published.length - 1].at : performance.now()) - t0;
  const startFiles = new Set(published.map((p) => p.uri)).size;
  const startCpu = cpuSeconds(child.pid) * 1000;

  /** Edit a file back and forth (`edits` timed edits after 4 untimed ones): didChange → its publication, → the update's last. */
  const editing = async (abs, from, to) => {
    const uri = pathToFileURL(abs).href;
    if (from === to) throw new Error(`the generated ${abs} has not the expected text`);
    await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text: from } });
    await settled();
    const edits = Number(opt('--edits', n > 240 ? 20 : 40));
    const changed = [];
    const whole = [];
    const files = [];
    for (let i = 0; i < edits + 4; i++) {
      const before = published.length;
      const sent = performance.now();
      await conn.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: i + 2 },
        contentChanges: [{ text: i % 2 === 0 ? to : from }],
      });
      await settled();
      const round = published.slice(before);
      const own = round.find((p) => p.uri === uri);
      if (!own) throw new Error(`edit ${i} of ${abs}: its diagnostics were not published`);
      if (i < 4) continue;
      changed.push(own.at - sent);
      whole.push(round[round.length - 1].at - sent);
      files.push(new Set(round.map((p) => p.uri)).size);
    }
    await conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
    await settled();
    return {
      changed: { median: median(changed), p95: percentile(changed, 95) },
      whole: { median: median(whole), p95: percentile(whole, 95) },
      files: median(files),
      edits,
    };
  };
  const k = Math.floor(n / 2);
  // a LOOP.md in the middle of the pipeline sends its work to a state of its own instead of the next step's
  const loop = join(root, 'skills', `running-step-${k}`, 'LOOP.md');
  const loopText = readFileSync(loop, 'utf8');
  const transition = await editing(
    loop,
    loopText,
    loopText.replace(`transition in-step-${k} → in-step-${k + 1}`, `transition in-step-${k} → in-step-${k}-detour`),
  );
  // a SKILL.md changes its name: the previous skill's handoff to it breaks (another file)
  const skill = join(root, 'skills', `running-step-${k}`, 'SKILL.md');
  const skillText = readFileSync(skill, 'utf8');
  const renamed = await editing(skill, skillText, skillText.replace(`name: running-step-${k}\n`, `name: running-step-${k}-renamed\n`));
  const mem = memory(child.pid);
  await conn.sendRequest('shutdown');
  await conn.sendNotification('exit');
  conn.dispose();
  return {
    n,
    check: median(checks),
    checkCpu: median(checkCpu),
    start,
    startCpu,
    startFiles,
    transition,
    renamed,
    ...mem,
  };
}

console.log(`loopkit lsp benchmark · node ${process.version} · ${cpus().length} cores (${cpus()[0]?.model ?? '?'})`);
const rows = [];
const edit = (e) => `${ms(e.changed.median)} / ${ms(e.changed.p95)} | ${ms(e.whole.median)} / ${ms(e.whole.p95)} | ${e.files}`;
try {
  for (const n of sizes) {
    const r = await benchSize(n);
    rows.push(r);
    console.log(
      `${String(n).padStart(5)} skills: start ${ms(r.start)}, CPU ${ms(r.startCpu)} (cold check ${ms(r.check)}, CPU ${ms(r.checkCpu)}; ${r.startFiles} files published) · memory ${r.rss.toFixed(0)} MiB (peak ${r.peak.toFixed(0)} MiB)\n` +
        `        LOOP.md transition: changed file ${edit(r.transition)} files (median / p95 | whole update | files)\n` +
        `        SKILL.md name:      changed file ${edit(r.renamed)} files`,
    );
  }
} finally {
  if (!args.includes('--keep')) rmSync(work, { recursive: true, force: true });
  else console.log(`projects kept in ${work}`);
}

console.log(
  '\n| skills | start (all published): wall, CPU | cold `check`: wall, CPU | edit | changed file: median / p95 | whole update: median / p95 | files per update | memory (peak) |',
);
console.log('|---:|---:|---:|---|---:|---:|---:|---:|');
for (const r of rows) {
  const mem = `${r.rss.toFixed(0)} MiB (${r.peak.toFixed(0)} MiB)`;
  console.log(
    `| ${r.n.toLocaleString('en')} | ${ms(r.start)}, ${ms(r.startCpu)} | ${ms(r.check)}, ${ms(r.checkCpu)} | LOOP.md transition | ${edit(r.transition)} | ${mem} |`,
  );
  console.log(`| | | | SKILL.md name | ${edit(r.renamed)} | |`);
}
