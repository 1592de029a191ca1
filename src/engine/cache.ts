/**
 * The result cache (on by default in the CLI): each file's per-file outcome, keyed by its path and
 * kind, checked by the SHA-1 of its content (and, for SKILL.md, the names of the markdown files next
 * to it), stamped with the loopkit version and the format. Never stale: a changed file misses;
 * another loopkit version, a foreign or corrupt file, or a different format is ignored (and
 * rewritten). The per-file phase depends on nothing else — not on the configuration — so a config
 * change keeps the cache valid.
 *
 * Stat first, as git does: an entry also keeps the size, times and inode of the file it was read
 * from, so an unchanged file is neither read nor hashed. A file whose times are within RACY_MS of
 * the moment it was read may change again within the file system's clock tick without its times
 * changing: its entry is trusted only by content, until a later run finds the times old enough.
 *
 * On disk: the cache file (the index: stamp, project root and configuration) and SHARDS shard files
 * next to it (`<file>.s00` …), each holding the entries whose key hashes to it. A run reads a shard
 * only when it looks up a file of it and writes only the shards that changed, so a large project's
 * cache is never held as one string, and one changed file rewrites a sixteenth of it. Every file is
 * written to a temporary file and renamed, so two processes at once never see half of one; a cache
 * that cannot be read or written is warned about once and the check goes on without it.
 *
 * Where (cacheLocation): by default the user's cache directory (XDG on Linux), one folder per
 * project named after a hash of its absolute root, never inside the checked tree; the folders of the
 * projects used longest ago are removed once the directory holds more than its bound.
 *
 * It also keeps the validated configuration, keyed by the SHA-1 of `.loopkit.yaml` (a valid one
 * only: a broken config is reported every time), so an unchanged project is checked without
 * loading the YAML parser or the schema.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type * as WorkerThreads from 'node:worker_threads';
import { VERSION } from '../version.js';
import { cacheDirectory, cacheOffByEnv, userCacheDir } from './cache-dir.js';
import { nodeModule } from '../util/node-module.js';
import type { LoadedConfig } from '../config/load.js';
import type { ConfigSource } from '../config/read.js';
import type { FileJob, FileOutcome } from './file-phase.js';

/** This thread's id (worker_threads is loaded only when the cache writes, not on every run). */
const threadId = (): number => nodeModule<typeof WorkerThreads>('node:worker_threads').threadId;

/** Bumped whenever the shape of FileOutcome or the extraction changes without a version change. */
const FORMAT = 30;

/** Set by the build (scripts/bundle.mjs): a hash of the sources it was built from. */
declare const LOOPKIT_BUILD: string | undefined;
/**
 * Which build wrote a cache file: two builds of one version (a checkout between commits, a test
 * build) never read each other's entries or configuration, whether or not FORMAT was bumped. Run
 * from the sources (the tests), it is 'source' and FORMAT alone tells shapes apart.
 */
const BUILD = typeof LOOPKIT_BUILD === 'string' ? LOOPKIT_BUILD : 'source';
const MAGIC = 'loopkit-cache';

/** How close to the moment a file was read its times may be for its entry to be trusted by them (see the top). */
export const RACY_MS = 2000;

interface CacheEntry {
  /** content hash */
  h: string;
  /** SKILL.md: the markdown files next to it, joined by NUL */
  sb?: string;
  /** the file's size, times and inode when it was read (fileStamp) */
  s?: string;
  /** those times were older than the read by RACY_MS: the stamp alone proves the file unchanged */
  r?: boolean;
  /** the outcome */
  o: FileOutcome;
}

/** What the file system says of a file, for the stat-first lookup. */
export interface FileStamp {
  /** size, modification and change times, inode */
  sig: string;
  /** the times are older than RACY_MS before now */
  settled: boolean;
}

/** A file's stamp from its stat, taken just before it is read. */
export function fileStamp(st: Stats, now = Date.now()): FileStamp {
  return { sig: `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`, settled: Math.max(st.mtimeMs, st.ctimeMs) < now - RACY_MS };
}

/** A LoadedConfig as JSON (its maps as entry lists). */
interface CachedConfig {
  h: string;
  config: LoadedConfig['config'];
  positions: [string, { line: number; column: number }][];
  valuePositions: [string, { line: number; column: number }][];
  file: string | null;
  warnings: LoadedConfig['warnings'];
}

interface Stamp {
  magic: typeof MAGIC;
  version: string;
  format: number;
  /** BUILD */
  build: string;
}

interface IndexDocument extends Stamp {
  shards: number;
  /** the project's absolute root (two roots whose names hash alike never share a cache) */
  root?: string;
  /** CacheOptions.rules */
  rules?: string;
  config?: CachedConfig;
  /** facts read from files outside the per-file phase (agent files), by key, with the hash of the text they were read from */
  read?: Record<string, CachedRead>;
}

/** Facts read from one file's text (CachedRead.h: its contentHash). */
interface CachedRead {
  h: string;
  facts: unknown;
}

interface ShardDocument extends Stamp {
  shard: number;
  entries: Record<string, CacheEntry>;
}

const SHARDS = 16;

function stamped(doc: Partial<Stamp> | null | undefined): boolean {
  return (
    doc != null && typeof doc === 'object' && doc.magic === MAGIC && doc.version === VERSION && doc.format === FORMAT && doc.build === BUILD
  );
}

/** The shard of a key: a stable spread of the keys over SHARDS files. */
function shardOf(key: string): number {
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  return (h >>> 0) % SHARDS;
}

interface Shard {
  /** entries as read from disk */
  entries: Record<string, CacheEntry>;
  stored: number;
  /** entries this run used or computed: what is written back */
  used: Map<string, CacheEntry>;
  dirty: boolean;
  /** some entry needs the replacer's marks (needsMarks): the shard is written with it */
  odd: boolean;
}

const configKey = (source: ConfigSource) => (source.text === null ? '-' : contentHash(source.text));

type Env = Readonly<Record<string, string | undefined>>;

export { cacheOffByEnv, userCacheDir };

/** The bound of a cache directory when LOOPKIT_CACHE_MAX_MB does not set one. */
export const DEFAULT_CACHE_MAX_MB = 512;

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Where a project's cache is: its index file and, in a directory of projects' caches, that directory and its bound. */
export interface CacheLocation {
  file: string;
  /** the directory of many projects' folders, swept down to maxBytes (the folders used longest ago go first) */
  sweep?: { dir: string; maxBytes: number };
}

/** What a runner is told of a project's cache (see RunnerOptions): its file, the directory to sweep, the project. */
export interface CacheSettings {
  cacheFile: string;
  cacheSweep?: CacheLocation['sweep'];
  projectRoot: string;
}

/**
 * The cache settings of a command that reads a project (check, graph, lsp): on unless `--no-cache`
 * (`flag` false) or LOOPKIT_NO_CACHE turns it off — `--cache` (`flag` true) wins over the variable.
 */
export function cacheSettings(
  projectRoot: string,
  flag: boolean | undefined,
  location: string | undefined,
  env: Env,
): CacheSettings | null {
  if (flag === false || (flag === undefined && cacheOffByEnv(env))) return null;
  const where = cacheLocation(projectRoot, location, env);
  return { cacheFile: where.file, ...(where.sweep ? { cacheSweep: where.sweep } : {}), projectRoot };
}

/** The folder name of a project in a directory of caches: a hash of its absolute root. */
export function projectId(projectRoot: string): string {
  return createHash('sha1').update(projectRoot).digest('hex').slice(0, 16);
}

/**
 * The cache of a project. `location` (from --cache-location) is a file, or a directory when it
 * exists as one or ends with a separator; by default LOOPKIT_CACHE_DIR, else the user's cache
 * directory (userCacheDir). In a directory,
 * each project has a folder of its own (projectId) holding `cache.json` and its shards.
 */
export function cacheLocation(projectRoot: string, location: string | undefined, env: Env = process.env): CacheLocation {
  let dir: string;
  if (location !== undefined && location !== '') {
    if (!/[\\/]$/u.test(location) && !isDir(location)) return { file: location };
    dir = location;
  } else dir = cacheDirectory(env);
  const mb = Number(env.LOOPKIT_CACHE_MAX_MB);
  const maxBytes = (Number.isFinite(mb) && mb > 0 ? mb : DEFAULT_CACHE_MAX_MB) * 1024 * 1024;
  return { file: join(dir, projectId(projectRoot), 'cache.json'), sweep: { dir, maxBytes } };
}

export function contentHash(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}

/**
 * Reading infinity and NaN back (JSON has no such numbers; YAML frontmatter does): such a number is
 * written as `{"$num": "Infinity"}`. A key of the values themselves that looks like that mark
 * (`$num`, `$$num` …: YAML may hold any key) is written with one `$` more, and read back without it,
 * so that a frontmatter's own `$num` is never taken for the mark.
 */
const MARK_LIKE = /^\$+num$/u;

function replacer(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) return { $num: String(value) };
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).some((k) => MARK_LIKE.test(k))) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [MARK_LIKE.test(k) ? `$${k}` : k, v]));
  }
  return value;
}

function reviver(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === '$num') return Number((value as { $num: string }).$num);
  if (!keys.some((k) => MARK_LIKE.test(k))) return value;
  return Object.fromEntries(keys.map((k) => [MARK_LIKE.test(k) ? k.slice(1) : k, (value as Record<string, unknown>)[k]]));
}

/** Is a text written with the replacer's marks (read it with the reviver)? */
const marked = (text: string) => text.includes('$num"');

/**
 * Does a value need the replacer: a number JSON cannot write, or a key that looks like its mark (only
 * YAML frontmatter has either)? Below 64 levels it is not looked at: the replacer is used (it writes
 * any value right; this only spares it to the shards that need none).
 */
function needsMarks(value: unknown, depth = 0): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (value === null || typeof value !== 'object') return false;
  if (depth > 64) return true;
  if (!Array.isArray(value) && Object.keys(value).some((k) => MARK_LIKE.test(k))) return true;
  for (const v of Array.isArray(value) ? value : Object.values(value)) if (needsMarks(v, depth + 1)) return true;
  return false;
}

/** What a ResultCache is told besides its file. */
export interface CacheOptions {
  /** the project's absolute root, kept in the index: a cache of another root is not used */
  root?: string;
  /** sweep this directory of projects' caches down to its bound after writing (see CacheLocation) */
  sweep?: CacheLocation['sweep'];
  /** told once when the cache cannot be read or written (the check goes on without it) */
  warn?: (message: string) => void;
  /**
   * What rules beyond the build's own the outcomes come from (the plugins' names, versions and module
   * hashes: Rule.origin), kept in the index: a cache of another rule set is not used
   */
  rules?: string;
}

/** How often a directory of caches is swept when no project was added to it (ms). */
const SWEEP_EVERY_MS = 24 * 60 * 60 * 1000;
/** A temporary file older than this is a writer's that died (ms). */
const STALE_TMP_MS = 60 * 60 * 1000;
/** Error codes of a cache that is not there yet: no warning. */
const ABSENT = new Set(['ENOENT', 'ENOTDIR']);

export class ResultCache {
  private readonly shards = new Map<number, Shard>();
  private configEntry: CachedConfig | undefined;
  /** facts read outside the per-file phase: as loaded, and those this run used (what is saved) */
  private readEntries: Record<string, CachedRead> = {};
  private readonly readUsed = new Map<string, CachedRead>();
  private indexOk = false;
  private indexDirty = false;
  private loaded = false;
  /** reading or writing failed: warned, and nothing more is written */
  private broken = false;

  constructor(
    readonly file: string,
    private readonly options: CacheOptions = {},
  ) {}

  /** Warn once that the cache cannot be used, and go on without writing it. */
  private fail(doing: 'read' | 'write', e: unknown): void {
    if (this.broken) return;
    this.broken = true;
    const err = e as NodeJS.ErrnoException;
    const why = err.code ? `${err.code}: ${err.message.replace(/^\w+: /u, '')}` : err.message;
    this.options.warn?.(`cannot ${doing} the cache in ${dirname(this.file)} (${why}); checking without it`);
  }

  private readJson(path: string): unknown {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      if (!ABSENT.has((e as NodeJS.ErrnoException).code ?? '')) this.fail('read', e);
      return undefined; // none yet
    }
    try {
      return JSON.parse(text, marked(text) ? reviver : undefined);
    } catch {
      return undefined; // corrupt: ignored, rewritten on save
    }
  }

  private load(): void {
    this.loaded = true;
    const doc = this.readJson(this.file) as Partial<IndexDocument> | undefined;
    this.indexOk =
      stamped(doc) &&
      doc!.shards === SHARDS &&
      (this.options.root === undefined || doc!.root === this.options.root) &&
      (doc!.rules ?? '') === (this.options.rules ?? '');
    if (this.indexOk) {
      this.configEntry = doc!.config;
      if (doc!.read && typeof doc!.read === 'object') this.readEntries = doc!.read;
    } else this.indexDirty = true;
  }

  private shard(n: number): Shard {
    let shard = this.shards.get(n);
    if (shard) return shard;
    if (!this.loaded) this.load();
    let entries: Record<string, CacheEntry> = {};
    let odd = false;
    if (this.indexOk) {
      const doc = this.readJson(this.shardFile(n)) as Partial<ShardDocument> | undefined;
      if (stamped(doc) && doc!.shard === n && doc!.entries && typeof doc!.entries === 'object') {
        entries = doc!.entries;
        odd = needsMarks(
          Object.values(entries).map((e) => [e?.o?.facts?.skill?.frontmatter?.entries, e?.o?.facts?.skill?.frontmatter?.nested]),
        );
      }
    }
    shard = { entries, stored: Object.keys(entries).length, used: new Map(), dirty: false, odd };
    this.shards.set(n, shard);
    return shard;
  }

  private shardFile(n: number): string {
    return `${this.file}.s${String(n).padStart(2, '0')}`;
  }

  /**
   * What `read` makes of a file's text (`key`: the file and how it is read), from the cache when
   * that text was read so before; else read now and kept. For files the project phase reads itself
   * (agent files): their facts come from a parse (YAML) a cached run need not pay.
   */
  readFacts<T>(key: string, text: string, read: () => T): T {
    if (!this.loaded) this.load();
    const h = contentHash(text);
    const hit = this.readEntries[key];
    if (hit && hit.h === h && hit.facts !== undefined) {
      this.readUsed.set(key, hit);
      return hit.facts as T;
    }
    const facts = read();
    // a copy as a later run reads it back (what cannot be written as JSON is not kept)
    const entry = { h, facts: JSON.parse(JSON.stringify(facts, replacer), reviver) as unknown };
    this.readUsed.set(key, entry);
    this.indexDirty = true;
    return facts;
  }

  /** The validated configuration of this config file, when it was seen before. */
  getConfig(source: ConfigSource): LoadedConfig | undefined {
    if (!this.loaded) this.load();
    const c = this.configEntry;
    if (!c || c.h !== configKey(source) || !c.config || !Array.isArray(c.positions) || !Array.isArray(c.valuePositions)) return undefined;
    return {
      config: c.config,
      positions: new Map(c.positions),
      valuePositions: new Map(c.valuePositions),
      file: c.file,
      warnings: c.warnings,
    };
  }

  setConfig(source: ConfigSource, loaded: LoadedConfig): void {
    if (!this.loaded) this.load();
    this.configEntry = {
      h: configKey(source),
      config: loaded.config,
      positions: [...loaded.positions],
      valuePositions: [...loaded.valuePositions],
      file: loaded.file,
      warnings: loaded.warnings,
    };
    this.indexDirty = true;
  }

  /** The usable entry of a job's key (whatever its content), and its shard. */
  private entry(job: JobKey): { key: string; shard: Shard; e: CacheEntry | undefined } {
    const key = keyOf(job);
    const shard = this.shard(shardOf(key));
    const e = shard.entries[key];
    const ok = e && e.o && typeof e.o === 'object' && Array.isArray(e.o.diagnostics) && e.o.facts?.file && (e.sb ?? '') === siblingsOf(job);
    return { key, shard, e: ok ? e : undefined };
  }

  /**
   * Stat first: the cached outcome of a file whose size, times and inode are those it had when it
   * was read (and were settled then), without reading it; else undefined (read and hash it).
   */
  unchanged(job: JobKey, stamp: FileStamp): FileOutcome | undefined {
    const { key, shard, e } = this.entry(job);
    if (!e || e.r !== true || e.s !== stamp.sig) return undefined;
    shard.used.set(key, e);
    return e.o;
  }

  /** The cached outcome of a job with this content hash, if any (its stamp, when given, is remembered). */
  get(job: JobKey, hash: string, stamp?: FileStamp): FileOutcome | undefined {
    const { key, shard, e } = this.entry(job);
    if (!e || e.h !== hash) return undefined;
    if (stamp && (e.s !== stamp.sig || e.r !== stamp.settled)) {
      shard.used.set(key, { ...e, s: stamp.sig, r: stamp.settled });
      shard.dirty = true;
    } else shard.used.set(key, e);
    return e.o;
  }

  set(job: JobKey, hash: string, outcome: FileOutcome, stamp?: FileStamp): void {
    const key = keyOf(job);
    const shard = this.shard(shardOf(key));
    const entry: CacheEntry = { h: hash, o: outcome };
    const sb = siblingsOf(job);
    if (sb !== '') entry.sb = sb;
    if (stamp) Object.assign(entry, { s: stamp.sig, r: stamp.settled });
    shard.used.set(key, entry);
    const fm = outcome.facts.skill?.frontmatter;
    if (fm && (needsMarks(fm.entries) || needsMarks(fm.nested))) shard.odd = true;
    shard.dirty = true;
  }

  /**
   * Write what changed: the index when the stamp or the configuration did, each shard whose entries
   * changed, holding the entries this run used (so the cache holds the project as it is, not every
   * version of it ever seen); a shard no file of the project maps to any more is removed. In a
   * directory of projects' caches, a run that wrote nothing marks the project as used (the index's
   * time), and one that added a project sweeps the directory down to its bound. A cache that
   * cannot be written is warned about once, never an error.
   */
  save(): void {
    if (!this.loaded || this.broken) return;
    // files read outside the per-file phase that are gone (or read otherwise): the index holds what this run read
    if (this.readUsed.size > 0 && this.readUsed.size !== Object.keys(this.readEntries).length) this.indexDirty = true;
    let wrote = false;
    let created: string | undefined;
    try {
      created = mkdirSync(dirname(this.file), { recursive: true });
      for (let n = 0; n < SHARDS; n++) {
        const shard = this.shards.get(n);
        if (!shard) {
          // no file of the project maps here: nothing to keep
          if (!this.indexOk || existsSync(this.shardFile(n))) rmSync(this.shardFile(n), { force: true });
          continue;
        }
        if (this.indexOk && !shard.dirty && shard.used.size === shard.stored) continue;
        const doc: ShardDocument = {
          magic: MAGIC,
          version: VERSION,
          format: FORMAT,
          build: BUILD,
          shard: n,
          entries: Object.fromEntries(shard.used),
        };
        writeAtomically(this.shardFile(n), shard.odd ? JSON.stringify(doc, replacer) : JSON.stringify(doc));
        wrote = true;
      }
      if (this.indexDirty) {
        const index: IndexDocument = { magic: MAGIC, version: VERSION, format: FORMAT, build: BUILD, shards: SHARDS };
        if (this.options.root !== undefined) index.root = this.options.root;
        if (this.options.rules) index.rules = this.options.rules;
        if (this.configEntry) index.config = this.configEntry;
        if (this.readUsed.size > 0) index.read = Object.fromEntries(this.readUsed);
        writeAtomically(this.file, JSON.stringify(index, replacer));
        wrote = true;
      } else if (!wrote && this.options.sweep) {
        const now = new Date();
        utimesSync(this.file, now, now);
      }
    } catch (e) {
      // a project's folder removed by another process's sweep meanwhile is no failure of this disk
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') this.fail('write', e);
      return;
    }
    const sweep = this.options.sweep;
    if (sweep && wrote && (created !== undefined || sweepDue(sweep.dir))) {
      try {
        sweepCaches(sweep.dir, sweep.maxBytes, dirname(this.file));
      } catch (e) {
        this.fail('write', e);
      }
    }
  }
}

/** A file's place in the cache: its path, its kind, and (SKILL.md) the markdown files next to it. */
export type JobKey = Omit<FileJob, 'text'>;

const keyOf = (job: JobKey) => `${job.kind}:${job.path}`;
const siblingsOf = (job: JobKey) => (job.siblings ? job.siblings.join('\u0000') : '');

/** The stamp of a directory's last sweep. */
const sweptFile = (dir: string) => join(dir, '.swept');

function sweepDue(dir: string): boolean {
  try {
    return statSync(sweptFile(dir)).mtimeMs < Date.now() - SWEEP_EVERY_MS;
  } catch {
    return true;
  }
}

/**
 * Bound a directory of projects' caches: while its project folders hold more than maxBytes, remove
 * the one used longest ago (never `keep`, the folder of the project just checked). Also removes the
 * single-file caches of loopkit 0.4 (`cache-<id>.json*`) and temporary files left by writers that died.
 */
export function sweepCaches(dir: string, maxBytes: number, keep: string): void {
  const folders: { path: string; bytes: number; used: number }[] = [];
  let total = 0;
  const now = Date.now();
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, d.name);
    if (d.isFile() && (/^cache-[0-9a-f]{16}\.json(?:\.s\d\d)?$/u.test(d.name) || staleTmp(path, d.name, now))) {
      rmSync(path, { force: true });
      continue;
    }
    if (d.isDirectory() && d.name.endsWith('.gone') && staleTmp(path, d.name, now)) rmSync(path, { recursive: true, force: true });
    if (!d.isDirectory() || !/^[0-9a-f]{16}$/u.test(d.name)) continue;
    let bytes = 0;
    let used = 0;
    for (const f of readdirSync(path)) {
      try {
        const st = statSync(join(path, f));
        if (staleTmp(join(path, f), f, now, st.mtimeMs)) {
          rmSync(join(path, f), { force: true });
          continue;
        }
        bytes += st.size;
        if (f === 'cache.json') used = st.mtimeMs;
      } catch {
        // removed meanwhile
      }
    }
    folders.push({ path, bytes, used });
    total += bytes;
  }
  folders.sort((a, b) => a.used - b.used);
  for (const f of folders) {
    if (total <= maxBytes) break;
    if (f.path === keep) continue;
    // renamed first: a process using the folder meanwhile misses it whole rather than finding half of it
    const gone = `${f.path}.${process.pid}.${threadId()}.gone`;
    try {
      renameSync(f.path, gone);
      rmSync(gone, { recursive: true, force: true });
      total -= f.bytes;
    } catch {
      // another process removed or renamed it
    }
  }
  writeFileSync(sweptFile(dir), '');
}

function staleTmp(path: string, name: string, now: number, mtime?: number): boolean {
  if (!name.endsWith('.tmp') && !name.endsWith('.gone')) return false;
  try {
    return (mtime ?? statSync(path).mtimeMs) < now - STALE_TMP_MS;
  } catch {
    return false;
  }
}

let tmpCount = 0;

function writeAtomically(path: string, text: string): void {
  // unique per process, thread and write: two writers never share a temporary file
  const tmp = `${path}.${process.pid}.${threadId()}.${++tmpCount}.tmp`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
