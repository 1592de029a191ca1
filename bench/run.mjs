// Benchmark: `loopkit check` on generated projects of growing size, in child processes.
// Prints the median wall time of repeated runs, time per skill, the ratio to the smallest size
// (linear scaling keeps the ratio near the size ratio) and the peak resident memory.
// Usage: node bench/run.mjs [--sizes 50,200,800] [--runs 5]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const sizes = opt('--sizes', '50,200,800').split(',').map(Number);
const runs = Number(opt('--runs', '5'));
const bin = new URL('../bin/loopkit.js', import.meta.url).pathname;

function generate(n) {
  const root = mkdtempSync(join(tmpdir(), `loopkit-bench-${n}-`));
  writeFileSync(join(root, '.loopkit.yaml'), 'loop_state_files: []\nenforced_states:\n  - name: done\n');
  for (let i = 0; i < n; i++) {
    const name = `running-step-${i}`;
    const dir = join(root, 'skills', name);
    mkdirSync(dir, { recursive: true });
    const from = `in-step-${i}`;
    const to = i === n - 1 ? 'done' : `in-step-${i + 1}`;
    const next = i === n - 1 ? 'done' : `running-step-${i + 1}`;
    writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: Runs step ${i} of the generated pipeline. Use when benchmarking loopkit.\n---\n## Description\n\nStep ${i}; the contract is in [LOOP.md](LOOP.md).\n\n## Rules\n\n1. Keep going.\n\n## State Model\n\nMoves from \`${from}\` to \`${to}\` or \`halted-stall\`.\n` + `\nFiller paragraph with some words to parse. `.repeat(40) + '\n');
    writeFileSync(join(dir, 'LOOP.md'), `## Entry Conditions\n\nReady.\n\n## Loop State Schema\n\n| field | type |\n|---|---|\n| story | str |\n\n## Single Iteration Step\n\n1. Call the tool.\n2. Wait for the result.\n3. Complete the step.\n\n## Proof of Progress\n\nA result.\n\n## State Transition Rule\n\ntransition ${from} → ${to}\ntrigger the step is complete\nhandoff ${next} to agent-${i}\n\ntransition ${from} → halted-stall\nhalt stall after 10 iterations\n\n## Halt Conditions\n\nhalt stall after 10 iterations\n\n## Handoff Target\n\nhandoff ${next} to agent-${i}\n`);
  }
  return root;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

const rows = [];
for (const n of sizes) {
  const root = generate(n);
  const times = [];
  const rss = [];
  for (let r = 0; r < runs; r++) {
    const t0 = process.hrtime.bigint();
    const res = spawnSync(process.execPath, ['--input-type=module', '-e', `
      const { main } = await import(${JSON.stringify(new URL('../dist/cli.js', import.meta.url).href)});
      let out = '';
      const code = await main([${JSON.stringify(root)}, '--json'], { stdout: (s) => { out += s; }, stderr: () => {}, env: {}, isTTY: false });
      const doc = JSON.parse(out);
      process.stdout.write(JSON.stringify({ code, skills: doc.skills_checked, rss: process.resourceUsage().maxRSS }));
    `], { encoding: 'utf8', input: '' });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (res.status !== 0) throw new Error(`bench run failed: ${res.stderr}`);
    const info = JSON.parse(res.stdout);
    if (info.skills !== n) throw new Error(`expected ${n} skills, got ${info.skills}`);
    times.push(ms);
    rss.push(info.rss / 1024);
  }
  rmSync(root, { recursive: true, force: true });
  rows.push({ n, ms: median(times), rss: median(rss) });
}

const base = rows[0];
console.log('skills  median ms  ms/skill  time ratio  size ratio  peak RSS MiB');
for (const r of rows) {
  console.log(
    `${String(r.n).padStart(6)}  ${r.ms.toFixed(0).padStart(9)}  ${(r.ms / r.n).toFixed(2).padStart(8)}  ${(r.ms / base.ms).toFixed(2).padStart(10)}  ${(r.n / base.n).toFixed(2).padStart(10)}  ${r.rss.toFixed(0).padStart(12)}`,
  );
}
