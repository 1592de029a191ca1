/**
 * The command's start-up (bin/loopkit.js): the command line as one CommonJS program
 * (dist/cli.cjs), compiled with V8's code cache. Node 20 keeps no compiled code between runs of an
 * ES module (module.enableCompileCache came with Node 22), and compiling loopkit's modules — and,
 * as they first run, their functions — is a good part of a short run: with the code V8 made in an
 * earlier run (the bytecode of every function that ran, kept in loopkit's cache directory, code/),
 * a cached check starts about 35 ms sooner (docs/performance.md). The cache is written after a
 * run that had none (or whose was refused: another Node, another build), atomically; it is not used
 * when LOOPKIT_NO_CACHE turns loopkit's caches off, and any failure only means a slower start.
 */
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import type * as WorkerThreads from 'node:worker_threads';
import type * as CliExports from './cli.js';
import { cacheDirectory, cacheOffByEnv } from './engine/cache-dir.js';
import { installImporter } from './util/import-module.js';

type Env = Readonly<Record<string, string | undefined>>;

/** What dist/cli.cjs exports (src/cli.ts). */
export type CliModule = typeof CliExports;

export interface LoadedCli {
  cli: CliModule;
  /** write the code cache when this run had none: call once the command is done */
  save(): void;
}

/**
 * The code cache's file for a build of the program, this Node and its V8 flags (V8 refuses code
 * made with other flags: each set has its own file, so that runs with and without NODE_OPTIONS do
 * not rewrite one another's).
 */
function codeCacheFile(program: string, env: Env): string | null {
  if (cacheOffByEnv(env)) return null;
  const st = statSync(program);
  const flags = [...process.execArgv, env.NODE_OPTIONS ?? ''].join(' ').trim();
  const tag = flags === '' ? '' : `-${createHash('sha1').update(flags).digest('hex').slice(0, 8)}`;
  return join(cacheDirectory(env), 'code', `cli-${process.version}${tag}-${st.size}-${Math.floor(st.mtimeMs)}.bin`);
}

/** Load the CommonJS program `program` (dist/cli.cjs) with the code cache. */
export function loadCli(program: string, env: Env): LoadedCli {
  // the build writes the program in ASCII (scripts/bundle.mjs): read as Latin-1, a plain copy into a
  // one-byte string, where UTF-8 decoding would make a two-byte one of a file with any other character
  const bytes = readFileSync(program);
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  let file: string | null = null;
  let cachedData: Buffer | undefined;
  try {
    file = codeCacheFile(program, env);
    if (file !== null) cachedData = readFileSync(file);
  } catch {
    // none yet
  }
  const wrapper = `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
  const script = new Script(wrapper, {
    filename: program,
    ...(cachedData ? { cachedData } : {}),
  });
  // the program's `import()` of a project's plugins: code of the script cannot import (util/import-module.ts)
  installImporter();
  const module = { exports: {} as CliModule };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(program), module, program, dirname(program));
  const needed = file !== null && (cachedData === undefined || script.cachedDataRejected === true);
  return {
    cli: module.exports,
    save() {
      if (!needed || file === null) return;
      try {
        const dir = dirname(file);
        mkdirSync(dir, { recursive: true });
        // worker_threads loaded only here, when the cache is written
        const { threadId } = createRequire(program)('node:worker_threads') as typeof WorkerThreads;
        const tmp = `${file}.${process.pid}.${threadId}.tmp`;
        writeFileSync(tmp, script.createCachedData());
        renameSync(tmp, file);
        // the caches of other builds are of no more use (those of other Nodes and flags may be)
        const name = file.slice(dir.length + 1);
        const build = name.slice(name.lastIndexOf('-', name.lastIndexOf('-') - 1));
        for (const f of readdirSync(dir))
          if (f !== name && f.startsWith('cli-') && !f.endsWith(build)) rmSync(join(dir, f), { force: true });
      } catch {
        // a read-only or full disk: the next run compiles again
      }
    },
  };
}
