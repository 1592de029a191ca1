/**
 * How the per-file phase runs: from the cache when a file's content was seen before, else on this
 * thread, or — when there is enough text to parse for it to pay — on worker threads.
 */
import { availableParallelism } from 'node:os';
import type { LoadedConfig } from '../config/load.js';
import type { ConfigSource } from '../config/read.js';
import type { Rule } from './rule.js';
import { contentHash, ResultCache } from './cache.js';
import type { FileJob, FileOutcome } from './file-phase.js';
import type { FileRunner } from './project.js';
import { WorkerPool } from './pool.js';

export interface RunnerOptions {
  /** keep per-file outcomes in this cache file (see engine/cache.ts); no cache when absent */
  cacheFile?: string;
  /** threads for the per-file phase: a number, 'auto' (by the amount of text to parse) or 'off' (this thread) */
  concurrency?: number | 'auto' | 'off';
  /** the worker entry module; without it the per-file phase runs on this thread */
  workerScript?: URL | string;
}

export interface RunnerStats {
  /** files whose outcome came from the cache */
  cached: number;
  /** files parsed in this run */
  parsed: number;
  /** threads that parsed them (1: this thread) */
  threads: number;
  /** CPU milliseconds of the parsed files, summed over the threads: parsing, extraction, file rules */
  parseMs: number;
  extractMs: number;
  fileRulesMs: number;
}

export interface Runner extends FileRunner {
  /** the validated configuration of this config file: from the cache, else loaded (and cached) */
  config(source: ConfigSource): Promise<LoadedConfig>;
  stats(): RunnerStats;
  /** save the cache and stop the worker threads */
  close(): Promise<void>;
}

/**
 * Text to parse per extra thread before 'auto' starts one: below it, starting a thread (and
 * compiling the parser in it) costs more than it saves. Measured with `npm run bench` on 2 cores
 * (docs/performance.md).
 */
export const CHARS_PER_THREAD = 512 * 1024;

export function threadsFor(chars: number, concurrency: RunnerOptions['concurrency'], cores = availableParallelism()): number {
  if (concurrency === 'off' || concurrency === undefined) return 1;
  if (typeof concurrency === 'number') return Math.max(1, Math.floor(concurrency));
  return Math.max(1, Math.min(cores, Math.floor(chars / CHARS_PER_THREAD)));
}

export function createRunner(options: RunnerOptions, rules: readonly Rule[]): Runner {
  const cache = options.cacheFile ? new ResultCache(options.cacheFile) : null;
  let pool: WorkerPool | null = null;
  let inline: ((job: FileJob, rules: readonly Rule[]) => FileOutcome) | null = null;
  const stats: RunnerStats = { cached: 0, parsed: 0, threads: 1, parseMs: 0, extractMs: 0, fileRulesMs: 0 };
  const count = (outcomes: FileOutcome[]) => {
    for (const o of outcomes) {
      stats.parseMs += o.ms?.parse ?? 0;
      stats.extractMs += o.ms?.extract ?? 0;
      stats.fileRulesMs += o.ms?.rules ?? 0;
    }
    return outcomes;
  };

  async function compute(jobs: readonly FileJob[]): Promise<FileOutcome[]> {
    if (jobs.length === 0) return [];
    stats.parsed += jobs.length;
    const chars = jobs.reduce((n, j) => n + j.text.length, 0);
    const threads = options.workerScript ? threadsFor(chars, options.concurrency ?? 'auto') : 1;
    if (threads > 1) {
      pool ??= new WorkerPool(options.workerScript!, threads);
      stats.threads = Math.max(stats.threads, pool.size);
      return count(await pool.run(jobs));
    }
    // the parser is loaded only when a file has to be parsed
    inline ??= (await import('./file-phase.js')).processFile;
    return count(jobs.map((job) => inline!(job, rules)));
  }

  return {
    async config(source) {
      const hit = cache?.getConfig(source);
      if (hit) return hit;
      // the YAML parser and the schema are loaded only when the config must be read
      const loaded = (await import('../config/load.js')).configFromSource(source);
      cache?.setConfig(source, loaded);
      return loaded;
    },
    async run(jobs) {
      if (!cache) return compute(jobs);
      const out = new Array<FileOutcome>(jobs.length);
      const hashes = jobs.map((j) => contentHash(j.text));
      const missing: number[] = [];
      jobs.forEach((job, i) => {
        const hit = cache.get(job, hashes[i]!);
        if (hit) out[i] = hit;
        else missing.push(i);
      });
      stats.cached += jobs.length - missing.length;
      const computed = await compute(missing.map((i) => jobs[i]!));
      missing.forEach((i, k) => {
        out[i] = computed[k]!;
        cache.set(jobs[i]!, hashes[i]!, computed[k]!);
      });
      return out;
    },
    stats: () => ({ ...stats }),
    async close() {
      cache?.save();
      await pool?.close();
      pool = null;
    },
  };
}
