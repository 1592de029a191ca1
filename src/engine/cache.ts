/**
 * The result cache (`--cache`): each file's per-file outcome, keyed by its path, its kind and the
 * SHA-1 of its content, stamped with the loopkit version and the format. Never stale: a changed
 * file misses; another loopkit version, a foreign or corrupt file, or a different format is ignored
 * (and rewritten). The per-file phase depends on nothing else — not on the configuration — so a
 * config change keeps the cache valid.
 *
 * On disk: the cache file (the index: stamp and configuration) and SHARDS shard files next to it
 * (`<file>.s00` …), each holding the entries whose key hashes to it. A run reads a shard only when
 * it looks up a file of it and writes only the shards that changed, so a large project's cache is
 * never held as one string, and one changed file rewrites a sixteenth of it.
 *
 * It also keeps the validated configuration, keyed by the SHA-1 of `.loopkit.yaml` (a valid one
 * only: a broken config is reported every time), so an unchanged project is checked without
 * loading the YAML parser or the schema.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { VERSION } from '../version.js';
import type { LoadedConfig } from '../config/load.js';
import type { ConfigSource } from '../config/read.js';
import type { FileJob, FileOutcome } from './file-phase.js';

/** Bumped whenever the shape of FileOutcome or the extraction changes without a version change. */
const FORMAT = 23;
const MAGIC = 'loopkit-cache';

interface CacheEntry {
  /** content hash */
  h: string;
  /** the outcome */
  o: FileOutcome;
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
}

interface IndexDocument extends Stamp {
  shards: number;
  config?: CachedConfig;
}

interface ShardDocument extends Stamp {
  shard: number;
  entries: Record<string, CacheEntry>;
}

const SHARDS = 16;

function stamped(doc: Partial<Stamp> | null | undefined): boolean {
  return doc != null && typeof doc === 'object' && doc.magic === MAGIC && doc.version === VERSION && doc.format === FORMAT;
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
  odd: boolean;
}

const configKey = (source: ConfigSource) => (source.text === null ? '-' : contentHash(source.text));

/** The user's cache directory for loopkit (XDG on Linux, Library/Caches on macOS, LOCALAPPDATA on Windows). */
export function userCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (platform() === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'loopkit', 'Cache');
  if (platform() === 'darwin') return join(homedir(), 'Library', 'Caches', 'loopkit');
  return join(env.XDG_CACHE_HOME && env.XDG_CACHE_HOME !== '' ? env.XDG_CACHE_HOME : join(homedir(), '.cache'), 'loopkit');
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The cache file of a project. `location` (from --cache-location) is a file, or a directory when
 * it exists as one or ends with a separator; the default directory is
 * `<project>/node_modules/.cache/loopkit` when the project has node_modules, else the user's cache
 * directory. In a directory, each project has its own file, named after its absolute root.
 */
export function cacheFilePath(
  projectRoot: string,
  location: string | undefined,
  env?: Readonly<Record<string, string | undefined>>,
): string {
  let dir: string;
  if (location !== undefined && location !== '') {
    if (!/[\\/]$/u.test(location) && !isDir(location)) return location;
    dir = location;
  } else {
    const modules = join(projectRoot, 'node_modules');
    dir = isDir(modules) ? join(modules, '.cache', 'loopkit') : userCacheDir(env);
  }
  const id = createHash('sha1').update(projectRoot).digest('hex').slice(0, 16);
  return join(dir, `cache-${id}.json`);
}

export function contentHash(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}

const keyOf = (job: FileJob) => `${job.kind}:${job.path}`;

/** Reading infinity and NaN back (JSON has no such numbers; YAML frontmatter does). */
function replacer(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) return { $num: String(value) };
  return value;
}

function reviver(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && '$num' in value && Object.keys(value).length === 1) {
    return Number((value as { $num: string }).$num);
  }
  return value;
}

/** Does a value hold a number JSON cannot write (only YAML frontmatter values can)? */
function hasOddNumber(value: unknown, depth = 0): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (value === null || typeof value !== 'object' || depth > 64) return false;
  for (const v of Array.isArray(value) ? value : Object.values(value)) if (hasOddNumber(v, depth + 1)) return true;
  return false;
}

export class ResultCache {
  private readonly shards = new Map<number, Shard>();
  private configEntry: CachedConfig | undefined;
  private indexOk = false;
  private indexDirty = false;
  private loaded = false;

  constructor(readonly file: string) {}

  private readJson(path: string): unknown {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return undefined; // none yet
    }
    try {
      return JSON.parse(text, text.includes('"$num"') ? reviver : undefined);
    } catch {
      return undefined; // corrupt: ignored, rewritten on save
    }
  }

  private load(): void {
    this.loaded = true;
    const doc = this.readJson(this.file) as Partial<IndexDocument> | undefined;
    this.indexOk = stamped(doc) && doc!.shards === SHARDS;
    if (this.indexOk) this.configEntry = doc!.config;
    else this.indexDirty = true;
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
        odd = hasOddNumber(Object.values(entries).map((e) => e?.o?.facts?.skill?.frontmatter?.entries));
      }
    }
    shard = { entries, stored: Object.keys(entries).length, used: new Map(), dirty: false, odd };
    this.shards.set(n, shard);
    return shard;
  }

  private shardFile(n: number): string {
    return `${this.file}.s${String(n).padStart(2, '0')}`;
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

  /** The cached outcome of a job with this content hash, if any. */
  get(job: FileJob, hash: string): FileOutcome | undefined {
    const key = keyOf(job);
    const shard = this.shard(shardOf(key));
    const e = shard.entries[key];
    if (e && e.h === hash && e.o && typeof e.o === 'object' && Array.isArray(e.o.diagnostics) && e.o.facts?.file) {
      shard.used.set(key, e);
      return e.o;
    }
    return undefined;
  }

  set(job: FileJob, hash: string, outcome: FileOutcome): void {
    const key = keyOf(job);
    const shard = this.shard(shardOf(key));
    shard.used.set(key, { h: hash, o: outcome });
    const fm = outcome.facts.skill?.frontmatter;
    if (fm && (hasOddNumber(fm.entries) || hasOddNumber(fm.nested))) shard.odd = true;
    shard.dirty = true;
  }

  /**
   * Write what changed: the index when the stamp or the configuration did, each shard whose entries
   * changed, holding the entries this run used (so the cache holds the project as it is, not every
   * version of it ever seen); a shard no file of the project maps to any more is removed. Each file
   * is written to a temporary file and renamed, so a reader never sees half of one. A cache that
   * cannot be written is not an error.
   */
  save(): void {
    if (!this.loaded) return;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      for (let n = 0; n < SHARDS; n++) {
        const shard = this.shards.get(n);
        if (!shard) {
          // no file of the project maps here: nothing to keep
          if (!this.indexOk || existsSync(this.shardFile(n))) rmSync(this.shardFile(n), { force: true });
          continue;
        }
        if (this.indexOk && !shard.dirty && shard.used.size === shard.stored) continue;
        const doc: ShardDocument = { magic: MAGIC, version: VERSION, format: FORMAT, shard: n, entries: Object.fromEntries(shard.used) };
        writeAtomically(this.shardFile(n), shard.odd ? JSON.stringify(doc, replacer) : JSON.stringify(doc));
      }
      if (this.indexDirty) {
        const index: IndexDocument = { magic: MAGIC, version: VERSION, format: FORMAT, shards: SHARDS };
        if (this.configEntry) index.config = this.configEntry;
        writeAtomically(this.file, JSON.stringify(index));
      }
    } catch {
      // a read-only or full disk: the next run computes again
    }
  }
}

function writeAtomically(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
