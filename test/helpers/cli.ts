/**
 * Running loopkit's command line: in this process (`run`: `main` from the sources, in the project's
 * directory, with the run's environment) or as the real `bin/loopkit.js` in a child process
 * (`spawnCli`: built by `npm test` before vitest runs), for what only a process shows — the bundle,
 * its boot and threads, the stack it has, signals, standard input.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, type Dirent } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { expect } from 'vitest';
import { main } from '../../src/cli.js';

export const ROOT = join(import.meta.dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'loopkit.js');
export const PROJECTS = join(ROOT, 'fixtures', 'projects');

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** What changes loopkit's output and is never taken from the test's own environment. */
const OUTPUT_ENV = ['NO_COLOR', 'FORCE_COLOR', 'CI', 'GITHUB_ACTIONS'];

/** The environment of a run: the test's own, without what changes loopkit's output. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !OUTPUT_ENV.includes(k)) base[k] = v;
  }
  return { ...base, ...extra };
}

export interface RunOptions {
  env?: Record<string, string>;
  cwd?: string;
}

/** The runs in this process, one at a time: each takes the process's directory and environment. */
let running: Promise<unknown> = Promise.resolve();

/**
 * `loopkit <args>` run by `main` in this process, as bin/loopkit.js runs it (not a terminal, no
 * question asked), in `cwd` (default: the repository) with the test's environment and `env`. What a
 * process would print on a crash (an exception escaping main) is its stack on stderr and exit 1.
 * Needs a pool whose workers may change directory (vitest's `forks`); in a worker thread, where a
 * directory cannot be changed (the mutation run's vitest runner uses threads), the run is the real
 * bin/loopkit.js in a child process instead.
 */
export function run(args: string[], options: RunOptions = {}): Promise<Run> {
  if (!isMainThread) return Promise.resolve(spawnCli(args, options));
  const result = running.then(() => runHere(args, options));
  running = result.catch(() => undefined);
  return result;
}

async function runHere(args: string[], options: RunOptions): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const cwd = process.cwd();
  const saved = { ...process.env };
  const env = cleanEnv(options.env);
  for (const k of Object.keys(process.env)) if (!(k in env)) delete process.env[k];
  Object.assign(process.env, env);
  try {
    process.chdir(options.cwd ?? ROOT);
    const status = await main(args, {
      stdout: (s) => void out.push(s),
      stderr: (s) => void err.push(s),
      env: process.env,
      isTTY: false,
    });
    return { status, stdout: out.join(''), stderr: err.join('') };
  } catch (e) {
    return { status: 1, stdout: out.join(''), stderr: `${err.join('')}${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n` };
  } finally {
    process.chdir(cwd);
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

/** `loopkit <args>` run by the real bin/loopkit.js in a child process. */
export function spawnCli(args: string[], options: RunOptions & { input?: string } = {}): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: cleanEnv(options.env),
    encoding: 'utf8',
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function noStack(r: Run): void {
  expect(r.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(r.stdout).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
}

/** Temporary directories, removed by `cleanup()` (call it in afterAll). */
export class Temps {
  private readonly dirs: string[] = [];
  dir(prefix = 'loopkit-test-'): string {
    const d = mkdtempSync(join(tmpdir(), prefix));
    this.dirs.push(d);
    return d;
  }
  /** a new project of these files (project-relative path → text) */
  project(files: Record<string, string>, prefix?: string): string {
    const root = this.dir(prefix);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  }
  /** a copy of fixtures/projects/<name> */
  copy(project: string): string {
    const d = this.dir();
    cpSync(join(PROJECTS, project), d, { recursive: true });
    return d;
  }
  /** a copy of a project directory (`examples/loop-controller` …), without the entries named in `drop` */
  copyOf(project: string, ...drop: string[]): string {
    const d = this.dir();
    cpSync(project, d, { recursive: true });
    for (const entry of drop) rmSync(join(d, entry), { recursive: true, force: true });
    return d;
  }
  /** loopkit's own example team (skills/ and .loopkit.yaml of the repository), with a README of this text when given */
  team(prefix: string, readme?: string): string {
    const d = this.dir(prefix);
    cpSync(join(ROOT, 'skills'), join(d, 'skills'), { recursive: true });
    cpSync(join(ROOT, '.loopkit.yaml'), join(d, '.loopkit.yaml'));
    if (readme !== undefined) writeFileSync(join(d, 'README.md'), readme);
    return d;
  }
  cleanup(): void {
    for (const d of this.dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  }
}

/** Every file below a directory (paths relative to it, `/`-separated, sorted). */
export function filesOf(root: string): string[] {
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as Dirent[])
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}
