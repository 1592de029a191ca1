// The runtime benchmark: `loopkit trace` on recorded runs of 10,000 to 1,000,000 steps of the
// loop-controller example (the loop's implement → test → verify cycle, as JSON Lines), each checked
// as a whole process, median of a few runs next to `node -e 0`: wall time, CPU, peak memory and time
// per step — linear time shows as a flat time per step, bounded memory as a flat peak.
//
// Usage: npm run bench:trace -- [--steps 10000,100000,1000000] [--runs 3]
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMeasure, median } from './measure.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const sizes = opt('--steps', '10000,100000,1000000').split(',').map(Number);
const runs = Number(opt('--runs', '3'));
const bin = fileURLToPath(new URL('../bin/loopkit.js', import.meta.url));
const project = fileURLToPath(new URL('../examples/loop-controller', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'loopkit-bench-trace-'));
const measure = createMeasure(work);

/** A valid run of `steps` steps: boot, then the implement → test → verify cycle. */
function writeTrace(file, steps) {
  const fd = openSync(file, 'w');
  let batch = '{"state": "loop-init", "iteration": 0}\n{"state": "loop-scaffold", "iteration": 1}\n';
  const agents = [
    ['loop-implement', 'implement'],
    ['loop-test', 'test-generation'],
    ['loop-verify', 'code-verification'],
  ];
  for (let i = 2; i < steps; i++) {
    const [state, agent] = agents[i % 3];
    batch += `{"state": "${state}", "skill": "controlling-loops", "agent": "${agent}", "iteration": ${i}}\n`;
    if (batch.length > 1 << 20) {
      writeSync(fd, batch);
      batch = '';
    }
  }
  writeSync(fd, batch);
  closeSync(fd);
}

console.log(`loopkit trace benchmark · node ${process.version} · median of ${runs} whole-process runs`);
console.log('| steps | wall (median) | CPU | peak memory | per step | × `node -e 0` |');
console.log('|---:|---:|---:|---:|---:|---:|');
for (const steps of sizes) {
  const file = join(work, `trace-${steps}.jsonl`);
  writeTrace(file, steps);
  const argv = [bin, 'trace', file, '--project', project];
  measure(argv);
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const a = measure(argv);
    const b = measure(['-e', '0']);
    samples.push({ ...a, ratio: a.wall / b.wall });
  }
  const wall = median(samples.map((s) => s.wall));
  console.log(
    `| ${steps.toLocaleString('en')} | ${wall.toFixed(3)} s | ${median(samples.map((s) => s.cpu)).toFixed(3)} s | ` +
      `${Math.max(...samples.map((s) => s.rss)).toFixed(0)} MiB | ${((wall / steps) * 1e6).toFixed(2)} µs | ${median(samples.map((s) => s.ratio)).toFixed(1)} |`,
  );
  rmSync(file, { force: true });
}
rmSync(work, { recursive: true, force: true });
