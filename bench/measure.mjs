// Whole-process measurement shared by the benchmarks: wall time, CPU time of all threads and peak
// resident memory of one run, each process reporting its own resource usage at exit.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A measure(argv) function that runs `node ...argv` and keeps its helper files in `work`. */
export function createMeasure(work) {
  const hook = join(work, 'rusage.cjs');
  writeFileSync(
    hook,
    "process.on('exit', () => { const u = process.resourceUsage(); require('fs').writeFileSync(process.env.LOOPKIT_BENCH_RUSAGE, JSON.stringify({ cpu: (u.userCPUTime + u.systemCPUTime) / 1e6, rss: u.maxRSS / 1024 })); });\n",
  );
  const usageFile = join(work, 'usage.json');
  /** One whole-process run (more environment in `env`): wall seconds, CPU seconds, peak MiB, its stderr (exit 0 or 1 expected). */
  return function measure(argv, env = {}) {
    rmSync(usageFile, { force: true });
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, ['--require', hook, ...argv], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...env, LOOPKIT_BENCH_RUSAGE: usageFile, NO_COLOR: '1' },
      maxBuffer: 64 * 1024 * 1024,
    });
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    if (r.status !== 0 && r.status !== 1) throw new Error(`run failed (${r.status}): ${argv.join(' ')}\n${r.stderr}`);
    const u = JSON.parse(readFileSync(usageFile, 'utf8'));
    return { wall, cpu: u.cpu, rss: u.rss, stderr: r.stderr.toString() };
  };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
