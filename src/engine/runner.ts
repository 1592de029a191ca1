/**
 * How the per-file phase runs: from the cache when a file is unchanged (its size and times, before
 * it is even read) or its content was seen before, else parsed — on this thread, or on worker
 * threads when the machine has the cores for it and there is enough text to parse for them to pay
 * (this thread then reads files and hands out batches).
 *
 * Files stream through: the project reader adds them one by one as it reads them, and they are
 * parsed in batches as the batches fill, so only a few batches of text are held at a time however
 * large the project; what stays is the outcomes.
 */
import { availableParallelism } from 'node:os';
import type * as V8 from 'node:v8';
import { intern } from '../util/intern.js';
import type { LoadedConfig } from '../config/load.js';
import type { ConfigSource } from '../config/read.js';
import { contentHash, ResultCache, type CacheLocation, type FileStamp, type JobKey } from './cache.js';
import type { FileJob, FileOutcome } from './file-phase.js';
import { WorkerPool } from './pool.js';
import { nodeModule } from '../util/node-module.js';
import { ruleOrigins, type Rule } from './rule.js';

export interface RunnerOptions {
  /** keep per-file outcomes in this cache file (see engine/cache.ts); no cache when absent */
  cacheFile?: string;
  /** the cache file is in a directory of projects' caches: sweep it down to its bound (see CacheLocation) */
  cacheSweep?: CacheLocation['sweep'];
  /** the project's absolute root, kept in the cache's index (a cache of another root is not used) */
  projectRoot?: string;
  /** told once when the cache cannot be read or written: the run goes on without it */
  warn?: (message: string) => void;
  /**
   * Threads that parse: 'auto' (this thread; worker threads on a machine with PARALLEL_MIN_CORES
   * cores once PARALLEL_MIN_CHARS of text is to be parsed), a number of worker threads (this
   * thread then only reads and hands out files), or 'off' (this thread).
   */
  concurrency?: number | 'auto' | 'off';
  /**
   * the worker entry module, which runs the same rules as the run it serves (api/worker.ts: the core
   * rules); without it the per-file phase runs on this thread
   */
  workerScript?: URL | string;
  /** handed to each worker thread it starts (api/worker.ts: the plugins whose rules it runs besides the core rules) */
  workerData?: unknown;
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
  /** … of which were not even read: their size and times had not changed (stat first) */
  unread: number;
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
  /**
   * Stat first: when the file is known unchanged by its stamp (size, times, inode), `done` receives
   * its outcome now and the answer is true — the file need not be read; else false.
   */
  unchanged?(job: JobKey, stamp: FileStamp, done: (outcome: FileOutcome) => void): boolean;
  /** the per-file phase of one file (its stamp taken before it was read); `done` receives its outcome (now, or once its batch is parsed) */
  add(job: FileJob, done: (outcome: FileOutcome) => void, stamp?: FileStamp): Promise<void>;
  /** finish every file added so far */
  flush(): Promise<void>;
  /** how many skills the project has, told before the first file is added */
  expect?(skills: number): void;
  /**
   * What `read` makes of the text of a file the project phase reads itself (an agent file; `key`: the
   * file and how it is read): from the cache when that text was read so before.
   */
  readFacts?<T>(key: string, text: string, read: () => T): T;
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
  stamp: FileStamp | undefined;
  done: (outcome: FileOutcome) => void;
}

export function createRunner(options: RunnerOptions, rules: readonly Rule[]): Runner {
  return new PerFileRunner(options, rules);
}

/**
 * The runner, in its phases: the cache (`unchanged`, `add`'s lookup, `config`), the queue of files
 * to parse in batches (`enqueue`, `take`), and the parsing of a batch here (`parseHere`) or on the
 * worker threads (`startWorkers`, `dispatch`); every parsed outcome goes through `finish`.
 */
class PerFileRunner implements Runner {
  private readonly cache: ResultCache | null;
  private readonly workers: number;
  private readonly minChars: number;
  private readonly statistics: RunnerStats = {
    cached: 0,
    unread: 0,
    parsed: 0,
    threads: 1,
    parseMs: 0,
    extractMs: 0,
    fileRulesMs: 0,
    byRule: {},
  };
  private processFile: ((job: FileJob, rules: readonly Rule[]) => FileOutcome) | null = null;
  private pool: WorkerPool | null;
  private readonly queue: Pending[] = [];
  private queuedChars = 0;
  private missChars = 0;
  private readonly inFlight = new Set<Promise<void>>();
  private failure: Error | null = null;
  /** outcomes live for the whole run: one instance of each repeated string (see util/intern.ts) */
  private readonly strings = new Map<string, string>();
  private handledHere = 0;
  private heapBounded = false;

  constructor(
    private readonly options: RunnerOptions,
    private readonly rules: readonly Rule[],
  ) {
    const origins = ruleOrigins(rules);
    this.cache = options.cacheFile
      ? new ResultCache(options.cacheFile, {
          ...(options.projectRoot !== undefined ? { root: options.projectRoot } : {}),
          ...(options.cacheSweep ? { sweep: options.cacheSweep } : {}),
          ...(options.warn ? { warn: options.warn } : {}),
          ...(origins !== '' ? { rules: origins } : {}),
        })
      : null;
    const concurrency = options.concurrency ?? 'auto';
    this.workers =
      !options.workerScript || concurrency === 'off' ? 0 : concurrency === 'auto' ? autoWorkers() : Math.max(0, Math.floor(concurrency));
    this.minChars = concurrency === 'auto' ? PARALLEL_MIN_CHARS : 0;
    this.pool = options.pool ?? null;
    if (options.pool) this.statistics.threads = options.pool.size;
  }

  // — the cache —

  async config(source: ConfigSource): Promise<LoadedConfig> {
    const hit = this.cache?.getConfig(source);
    if (hit) return hit;
    // the YAML parser and the schema are loaded only when the config must be read
    const loaded = (await import('../config/load.js')).configFromSource(source);
    this.cache?.setConfig(source, loaded);
    return loaded;
  }

  readFacts<T>(key: string, text: string, read: () => T): T {
    return this.cache ? this.cache.readFacts(key, text, read) : read();
  }

  unchanged(job: JobKey, stamp: FileStamp, done: (outcome: FileOutcome) => void): boolean {
    const hit = this.cache?.unchanged(job, stamp);
    if (!hit) return false;
    this.statistics.unread++;
    this.served(hit, 0, done);
    return true;
  }

  /** An outcome from the cache, handed on. */
  private served(hit: FileOutcome, chars: number, done: (outcome: FileOutcome) => void): void {
    // reading the cache makes garbage too (decoding shards), at a lower rate than parsing
    this.handled(chars);
    this.statistics.cached++;
    done(intern(hit, this.strings));
  }

  async add(job: FileJob, done: (outcome: FileOutcome) => void, stamp?: FileStamp): Promise<void> {
    this.check();
    const hash = this.cache ? contentHash(job.text) : null;
    const hit = hash !== null ? this.cache!.get(job, hash, stamp) : undefined;
    if (hit) {
      this.served(hit, job.text.length, done);
      return;
    }
    await this.enqueue({ job, hash, stamp, done });
  }

  // — the queue —

  private async enqueue(p: Pending): Promise<void> {
    this.queue.push(p);
    this.queuedChars += p.job.text.length;
    this.missChars += p.job.text.length;
    this.startWorkers();
    const pool = this.pool;
    if (!pool) {
      if (this.queuedChars >= BATCH_CHARS) await this.parseHere(this.take());
      return;
    }
    this.dispatch(false);
    // every worker busy and a batch waiting for each: wait for one (reading no further ahead)
    while (this.queuedChars >= BATCH_CHARS * (pool.size + 1) && this.inFlight.size > 0) {
      await Promise.race(this.inFlight);
      this.check();
    }
    await breathe();
  }

  /** The next batch from the queue: files in the order they were added, about BATCH_CHARS of text. */
  private take(): Pending[] {
    const batch: Pending[] = [];
    let chars = 0;
    while (this.queue.length > 0 && (batch.length === 0 || chars < BATCH_CHARS)) {
      const p = this.queue.shift()!;
      chars += p.job.text.length;
      batch.push(p);
    }
    this.queuedChars -= chars;
    return batch;
  }

  async flush(): Promise<void> {
    for (;;) {
      this.check();
      if (!this.pool) {
        if (this.queue.length === 0) break;
        await this.parseHere(this.take());
        continue;
      }
      this.dispatch(true);
      if (this.inFlight.size === 0 && this.queue.length === 0) break;
      if (this.inFlight.size > 0) await Promise.race(this.inFlight);
    }
    this.check();
  }

  // — parsing —

  /** Parse a batch on this thread (the parser is loaded the first time a file has to be parsed). */
  private async parseHere(batch: Pending[]): Promise<void> {
    this.processFile ??= (await import('./file-phase.js')).processFile;
    for (const p of batch) this.handled(p.job.text.length);
    for (const p of batch) this.finish(p, this.processFile(p.job, this.rules));
  }

  private startWorkers(): void {
    if (this.pool || this.workers === 0 || this.missChars < this.minChars) return;
    this.pool = new WorkerPool(this.options.workerScript!, this.workers, this.options.workerData);
    this.statistics.threads = this.workers;
  }

  /** Hand batches to idle workers: full ones, or (when `all`) whatever is left. */
  private dispatch(all: boolean): void {
    const pool = this.pool;
    if (!pool) return;
    while (this.queue.length > 0 && pool.idle() > 0 && (all || this.queuedChars >= BATCH_CHARS)) {
      const batch = this.take();
      const sent: Promise<void> = pool
        .run(batch.map((p) => p.job))
        .then((outcomes) => outcomes.forEach((o, k) => this.finish(batch[k]!, o)))
        .catch((e: Error) => {
          this.failure ??= e;
        })
        .finally(() => {
          this.inFlight.delete(sent);
          this.dispatch(all);
        });
      this.inFlight.add(sent);
    }
  }

  /** A parsed file's outcome: counted, kept in the cache, handed on. */
  private finish(p: Pending, outcome: FileOutcome): void {
    const stats = this.statistics;
    intern(outcome, this.strings);
    stats.parsed++;
    stats.parseMs += outcome.ms?.parse ?? 0;
    stats.extractMs += outcome.ms?.extract ?? 0;
    stats.fileRulesMs += outcome.ms?.rules ?? 0;
    for (const [code, ms] of Object.entries(outcome.ms?.byRule ?? {})) stats.byRule[code] = (stats.byRule[code] ?? 0) + ms;
    delete outcome.ms;
    if (this.cache && p.hash !== null) this.cache.set(p.job, p.hash, outcome, p.stamp);
    p.done(outcome);
  }

  private check(): void {
    if (this.failure) throw this.failure;
  }

  // — memory —

  expect(skills: number): void {
    if (skills >= BOUNDED_HEAP_SKILLS) this.boundHeap();
  }

  private boundHeap(): void {
    if (!this.options.ownProcess || this.heapBounded) return;
    this.heapBounded = true;
    nodeModule<typeof V8>('node:v8').setFlagsFromString('--heap-growing-percent=30');
  }

  /** Count text parsed or taken from the cache on this thread; bound the heap's growth past BOUNDED_HEAP_CHARS. */
  private handled(chars: number): void {
    this.handledHere += chars;
    if (this.handledHere >= BOUNDED_HEAP_CHARS) this.boundHeap();
  }

  stats(): RunnerStats {
    return { ...this.statistics, byRule: { ...this.statistics.byRule } };
  }

  async close(): Promise<void> {
    this.cache?.save();
    const p = this.pool;
    this.pool = null;
    if (p !== this.options.pool) await p?.close();
  }
}

/** Let worker messages in (they are events: this thread only sees them when it yields). */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));
