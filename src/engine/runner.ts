/**
 * How the per-file phase runs: from the cache when a file's content was seen before, else parsed —
 * on this thread, or on worker threads when the machine has the cores for it and there is enough
 * text to parse for them to pay (this thread then reads files and hands out batches).
 *
 * Files stream through: the project reader adds them one by one as it reads them, and they are
 * parsed in batches as the batches fill, so only a few batches of text are held at a time however
 * large the project; what stays is the outcomes.
 */
import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { intern } from '../util/intern.js';
import type { LoadedConfig } from '../config/load.js';
import type { ConfigSource } from '../config/read.js';
import { contentHash, ResultCache } from './cache.js';
import type { FileJob, FileOutcome } from './file-phase.js';
import { WorkerPool } from './pool.js';
import type { Rule } from './rule.js';

export interface RunnerOptions {
  /** keep per-file outcomes in this cache file (see engine/cache.ts); no cache when absent */
  cacheFile?: string;
  /**
   * Threads that parse: 'auto' (this thread; worker threads on a machine with PARALLEL_MIN_CORES
   * cores once PARALLEL_MIN_CHARS of text is to be parsed), a number of worker threads (this
   * thread then only reads and hands out files), or 'off' (this thread).
   */
  concurrency?: number | 'auto' | 'off';
  /** the worker entry module; without it the per-file phase runs on this thread */
  workerScript?: URL | string;
  /**
   * Worker threads to use for every file to parse, kept by the caller across runs (a server, a
   * test): the run neither starts nor stops threads of its own.
   */
  pool?: WorkerPool;
  /**
   * The process is loopkit's own (the CLI): when a project is so large that parsing it on this
   * thread would let the heap grow far beyond the model (see BOUNDED_HEAP_CHARS), V8 is told to
   * grow the heap more slowly. Not for a library caller: the setting is the whole process's.
   */
  ownProcess?: boolean;
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
  /** CPU milliseconds of each rule's file part */
  byRule: Record<string, number>;
}

/** Runs the per-file phase of the files a project reader adds. */
export interface FileRunner {
  /** the per-file phase of one file; `done` receives its outcome (now, or once its batch is parsed) */
  add(job: FileJob, done: (outcome: FileOutcome) => void): Promise<void>;
  /** finish every file added so far */
  flush(): Promise<void>;
  /** how many skills the project has, told before the first file is added */
  expect?(skills: number): void;
}

export interface Runner extends FileRunner {
  /** the validated configuration of this config file: from the cache, else loaded (and cached) */
  config(source: ConfigSource): Promise<LoadedConfig>;
  stats(): RunnerStats;
  /** save the cache and stop the worker threads */
  close(): Promise<void>;
}

/** Text per batch of files parsed together (on this thread or sent to a worker). */
const BATCH_CHARS = 64 * 1024;
/**
 * 'auto' parses on worker threads only on a machine with at least this many cores. Measured with
 * `npm run bench` on 2 cores (docs/performance.md): V8's own garbage-collector and compiler
 * threads already keep the second core busy, a worker parses about a fifth slower than the main
 * thread, and two parsing threads finish later than one.
 */
export const PARALLEL_MIN_CORES = 4;
/** …and only once this much text is to be parsed: a worker must load and warm up the parser. */
export const PARALLEL_MIN_CHARS = 1024 * 1024;

/**
 * Text parsed or taken from the cache on this thread after which (in loopkit's own process) the heap grows by at most 30 %
 * over what survives a collection instead of V8's default of up to 4 ×: parsing makes garbage at a
 * high rate, and V8, seeing free memory, collects it late. Measured on 2,400 skills (16 MB of
 * text): peak memory 170 MiB instead of 260 MiB, for about 6–10 % more time; on 9,600 skills the
 * difference decides whether the run stays under 300 MiB (docs/performance.md).
 */
export const BOUNDED_HEAP_CHARS = 8 * 1024 * 1024;

/**
 * Skills from which the heap is bounded before the first file is read: V8 sets the next collection's
 * threshold at each full collection, and a cached run of a large project makes its first two early,
 * before BOUNDED_HEAP_CHARS of text is read — the bound would come too late to apply (9,600 cached
 * skills: 250–277 MiB instead of 272–302 MiB, docs/performance.md).
 */
export const BOUNDED_HEAP_SKILLS = 1000;

/** The worker threads 'auto' starts on a machine with `cores` cores (0: none). */
export function autoWorkers(cores = availableParallelism()): number {
  return cores >= PARALLEL_MIN_CORES ? Math.min(cores - 1, 8) : 0;
}

interface Pending {
  job: FileJob;
  hash: string | null;
  done: (outcome: FileOutcome) => void;
}

export function createRunner(options: RunnerOptions, rules: readonly Rule[]): Runner {
  const cache = options.cacheFile ? new ResultCache(options.cacheFile) : null;
  const concurrency = options.concurrency ?? 'auto';
  const workers =
    !options.workerScript || concurrency === 'off' ? 0 : concurrency === 'auto' ? autoWorkers() : Math.max(0, Math.floor(concurrency));
  const minChars = concurrency === 'auto' ? PARALLEL_MIN_CHARS : 0;
  const stats: RunnerStats = { cached: 0, parsed: 0, threads: 1, parseMs: 0, extractMs: 0, fileRulesMs: 0, byRule: {} };
  let processFile: ((job: FileJob, rules: readonly Rule[]) => FileOutcome) | null = null;
  let pool: WorkerPool | null = options.pool ?? null;
  const queue: Pending[] = [];
  let queuedChars = 0;
  let missChars = 0;
  const inFlight = new Set<Promise<void>>();
  let failure: Error | null = null;

  // outcomes live for the whole run: one instance of each repeated string (see util/intern.ts)
  const strings = new Map<string, string>();
  const finish = (p: Pending, outcome: FileOutcome) => {
    intern(outcome, strings);
    stats.parsed++;
    stats.parseMs += outcome.ms?.parse ?? 0;
    stats.extractMs += outcome.ms?.extract ?? 0;
    stats.fileRulesMs += outcome.ms?.rules ?? 0;
    for (const [code, ms] of Object.entries(outcome.ms?.byRule ?? {})) stats.byRule[code] = (stats.byRule[code] ?? 0) + ms;
    delete outcome.ms;
    if (cache && p.hash !== null) cache.set(p.job, p.hash, outcome);
    p.done(outcome);
  };

  /** The next batch from the queue: files in the order they were added, about BATCH_CHARS of text. */
  const take = (): Pending[] => {
    const batch: Pending[] = [];
    let chars = 0;
    while (queue.length > 0 && (batch.length === 0 || chars < BATCH_CHARS)) {
      const p = queue.shift()!;
      chars += p.job.text.length;
      batch.push(p);
    }
    queuedChars -= chars;
    return batch;
  };

  let handledHere = 0;
  let heapBounded = false;
  const boundHeap = () => {
    if (!options.ownProcess || heapBounded) return;
    heapBounded = true;
    setFlagsFromString('--heap-growing-percent=30');
  };
  /** Count text parsed or taken from the cache on this thread; bound the heap's growth past BOUNDED_HEAP_CHARS. */
  const handled = (chars: number) => {
    handledHere += chars;
    if (handledHere >= BOUNDED_HEAP_CHARS) boundHeap();
  };
  /** Parse a batch on this thread (the parser is loaded the first time a file has to be parsed). */
  const parseHere = async (batch: Pending[]) => {
    processFile ??= (await import('./file-phase.js')).processFile;
    for (const p of batch) handled(p.job.text.length);
    for (const p of batch) finish(p, processFile(p.job, rules));
  };

  /** Hand batches to idle workers: full ones, or (when `all`) whatever is left. */
  const dispatch = (all: boolean) => {
    if (!pool) return;
    while (queue.length > 0 && pool.idle() > 0 && (all || queuedChars >= BATCH_CHARS)) {
      const batch = take();
      const sent: Promise<void> = pool
        .run(batch.map((p) => p.job))
        .then((outcomes) => outcomes.forEach((o, k) => finish(batch[k]!, o)))
        .catch((e: Error) => {
          failure ??= e;
        })
        .finally(() => {
          inFlight.delete(sent);
          dispatch(all);
        });
      inFlight.add(sent);
    }
  };

  if (options.pool) stats.threads = options.pool.size;
  const startWorkers = () => {
    if (pool || workers === 0 || missChars < minChars) return;
    pool = new WorkerPool(options.workerScript!, workers);
    stats.threads = workers;
  };

  /** Let worker messages in (they are events: this thread only sees them when it yields). */
  const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

  const check = () => {
    if (failure) throw failure;
  };

  return {
    async config(source) {
      const hit = cache?.getConfig(source);
      if (hit) return hit;
      // the YAML parser and the schema are loaded only when the config must be read
      const loaded = (await import('../config/load.js')).configFromSource(source);
      cache?.setConfig(source, loaded);
      return loaded;
    },

    expect(skills) {
      if (skills >= BOUNDED_HEAP_SKILLS) boundHeap();
    },

    async add(job, done) {
      check();
      const hash = cache ? contentHash(job.siblings ? `${job.text}\u0000${job.siblings.join('\u0000')}` : job.text) : null;
      if (cache && hash !== null) {
        const hit = cache.get(job, hash);
        if (hit) {
          // reading the cache makes garbage too (hashing, decoding shards), at a lower rate
          handled(job.text.length);
          stats.cached++;
          done(intern(hit, strings));
          return;
        }
      }
      queue.push({ job, hash, done });
      queuedChars += job.text.length;
      missChars += job.text.length;
      startWorkers();
      if (!pool) {
        if (queuedChars >= BATCH_CHARS) await parseHere(take());
        return;
      }
      dispatch(false);
      // every worker busy and a batch waiting for each: wait for one (reading no further ahead)
      while (queuedChars >= BATCH_CHARS * (pool.size + 1) && inFlight.size > 0) {
        await Promise.race(inFlight);
        check();
      }
      await breathe();
    },

    async flush() {
      for (;;) {
        check();
        if (!pool) {
          if (queue.length === 0) break;
          await parseHere(take());
          continue;
        }
        dispatch(true);
        if (inFlight.size === 0 && queue.length === 0) break;
        if (inFlight.size > 0) await Promise.race(inFlight);
      }
      check();
    },

    stats: () => ({ ...stats, byRule: { ...stats.byRule } }),

    async close() {
      cache?.save();
      const p = pool as WorkerPool | null;
      pool = null;
      if (p !== options.pool) await p?.close();
    },
  };
}
