/**
 * The result cache (`--cache`): each file's per-file outcome, keyed by its path, its kind and the
 * SHA-1 of its content, in one JSON file per project, stamped with the loopkit version and the
 * format. Never stale: a changed file misses; another loopkit version, a foreign or corrupt file,
 * or a different format is ignored (and rewritten). The per-file phase depends on nothing else —
 * not on the configuration — so a config change keeps the cache valid.
 *
 * It also keeps the validated configuration, keyed by the SHA-1 of `.loopkit.yaml` (a valid one
 * only: a broken config is reported every time), so an unchanged project is checked without
 * loading the YAML parser or the schema.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { VERSION } from '../version.js';
import type { LoadedConfig } from '../config/load.js';
import type { ConfigSource } from '../config/read.js';
import type { FileJob, FileOutcome } from './file-phase.js';

/** Bumped whenever the shape of FileOutcome or the extraction changes without a version change. */
const FORMAT = 1;
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

interface CacheDocument {
  magic: typeof MAGIC;
  version: string;
  format: number;
  config?: CachedConfig;
  entries: Record<string, CacheEntry>;
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
  private entries: Record<string, CacheEntry> = {};
  private configEntry: CachedConfig | undefined;
  private oddNumbers = false;
  private readonly used = new Map<string, CacheEntry>();
  private dirty = false;
  private loaded = false;
  hits = 0;
  misses = 0;

  constructor(readonly file: string) {}

  private load(): void {
    this.loaded = true;
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return; // no cache yet
    }
    try {
      const doc = JSON.parse(text, text.includes('"$num"') ? reviver : undefined) as Partial<CacheDocument>;
      if (doc.magic === MAGIC && doc.version === VERSION && doc.format === FORMAT && doc.entries && typeof doc.entries === 'object') {
        this.entries = doc.entries;
        this.configEntry = doc.config;
        this.oddNumbers = text.includes('"$num"');
        return;
      }
    } catch {
      // corrupt: ignored, rewritten below
    }
    this.dirty = true;
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
    this.dirty = true;
  }

  /** The cached outcome of a job with this content hash, if any. */
  get(job: FileJob, hash: string): FileOutcome | undefined {
    if (!this.loaded) this.load();
    const key = keyOf(job);
    const e = this.entries[key];
    if (e && e.h === hash && e.o && typeof e.o === 'object' && Array.isArray(e.o.diagnostics)) {
      this.used.set(key, e);
      this.hits++;
      return e.o;
    }
    this.misses++;
    return undefined;
  }

  set(job: FileJob, hash: string, outcome: FileOutcome): void {
    this.used.set(keyOf(job), { h: hash, o: outcome });
    const fm = outcome.facts.skill?.frontmatter;
    if (fm && (hasOddNumber(fm.entries) || hasOddNumber(fm.nested))) this.oddNumbers = true;
    this.dirty = true;
  }

  /**
   * Write the cache when something changed: the entries this run used (so the file holds the
   * project as it is, not every version of it ever seen). Written to a temporary file and renamed,
   * so a reader never sees half a file. A cache that cannot be written is not an error.
   */
  save(): void {
    if (!this.loaded) return;
    if (!this.dirty && this.used.size === Object.keys(this.entries).length) return;
    const doc: CacheDocument = { magic: MAGIC, version: VERSION, format: FORMAT, entries: Object.fromEntries(this.used) };
    if (this.configEntry) doc.config = this.configEntry;
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      writeFileSync(tmp, this.oddNumbers ? JSON.stringify(doc, replacer) : JSON.stringify(doc));
      renameSync(tmp, this.file);
    } catch {
      rmSync(tmp, { force: true });
    }
  }
}
