/**
 * `node scripts/accuracy.mjs <args>` run by its `main` in the test's own process (what the mutation
 * run's per-test coverage sees), and the files its tests write.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../scripts/accuracy.mjs';
import { cleanEnv, type Run } from './cli.js';

/** Write a file, its folders made on the way. */
export function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

/**
 * The script's run in `cwd` (default: this process's directory) with the test's environment (and
 * `env`). An exception escaping main is what a process would print on a crash: its stack on stderr
 * and exit 1.
 */
export function accuracy(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Run {
  const out: string[] = [];
  const err: string[] = [];
  const io = {
    stdout: (s: string) => void out.push(s),
    stderr: (s: string) => void err.push(s),
    env: cleanEnv(options.env),
    cwd: options.cwd ?? process.cwd(),
  };
  try {
    const status = main(args, io);
    return { status, stdout: out.join(''), stderr: err.join('') };
  } catch (e) {
    return { status: 1, stdout: out.join(''), stderr: `${err.join('')}${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n` };
  }
}
