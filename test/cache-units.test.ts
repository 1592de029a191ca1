/**
 * The result cache (src/engine/cache.ts) and where it is kept (src/engine/cache-dir.ts), driven
 * directly in the test process, for what the end-to-end tests (test/cache.test.ts,
 * test/modes.test.ts: the command line in child processes) cannot show the mutation run's per-test
 * coverage: the stamp of a file (its sig, the racy boundary), the index and the shards as they are
 * written (which files, their JSON, written only when they changed, removed when no file maps to
 * them), what makes a cache foreign (stamp, shard count, root, rules, shard number), the malformed
 * entries that are never used, the stat-first lookup and the stamp a hit refreshes, the numbers JSON
 * cannot write (infinity and NaN in frontmatter and in facts read outside the per-file phase), the
 * configuration kept by the hash of its text, the warnings of a cache that cannot be read or written,
 * the sweep of a directory of projects' caches (the leftovers of 0.4 and of writers that died, the
 * projects used longest ago, when a sweep is due), and the location and settings a command derives
 * from its flags and environment.
 *
 * Every test has a temporary directory of its own and looks at what a user finds: the files on disk
 * (the index `cache.json`, the shards `cache.json.s00` … `.s15`, their JSON) and what a second
 * ResultCache of the same file returns. Whether a file was written again is told by a marker field
 * added to its JSON (a stamped document with an extra field is still used; a rewrite drops it). No
 * test waits: files are aged with utimesSync.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { homedir, platform, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import type { LoadedConfig } from '../src/config/load.js';
import { cacheDirectory, cacheOffByEnv, userCacheDir } from '../src/engine/cache-dir.js';
import {
  cacheLocation,
  cacheSettings,
  contentHash,
  DEFAULT_CACHE_MAX_MB,
  fileStamp,
  projectId,
  RACY_MS,
  ResultCache,
  sweepCaches,
  type CacheOptions,
  type FileStamp,
  type JobKey,
} from '../src/engine/cache.js';
import type { FileOutcome } from '../src/engine/file-phase.js';
import type { FileKind, FrontmatterEntry } from '../src/model/types.js';
import { VERSION } from '../src/version.js';

const roots: string[] = [];
afterAll(() => {
  for (const d of roots.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'loopkit-cache-units-'));
  roots.push(d);
  return d;
}

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MIB = 1024 * 1024;

/** Set a file's (or folder's) times to `ms` ago. */
function age(path: string, ms: number): void {
  const t = new Date(Date.now() - ms);
  utimesSync(path, t, t);
}

const listing = (dir: string) => readdirSync(dir).sort();
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
const shardFile = (file: string, n: number) => `${file}.s${String(n).padStart(2, '0')}`;

/** Add a field to a JSON document on disk: still there after a run means the run did not write it again. */
function mark(path: string): void {
  writeFileSync(path, JSON.stringify({ ...readJson(path), marker: 1 }));
}
const marked = (path: string) => readJson(path).marker === 1;

/** Change a JSON document on disk. */
function edit(path: string, change: (doc: Record<string, unknown>) => unknown): void {
  const doc = readJson(path);
  const out = change(doc);
  writeFileSync(path, JSON.stringify(out === undefined ? doc : out));
}

/** The shard of a cache key (the cache's own spread, FNV-1a), pinned by a test against fixed keys. */
function shardOf(key: string): number {
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  return (h >>> 0) % 16;
}

/** `count` reference files whose keys fall in shard `n`. */
function pathsInShard(n: number, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) if (shardOf(`reference:r${i}.md`) === n) out.push(`r${i}.md`);
  return out;
}

const job = (path: string, kind: FileKind = 'reference', siblings?: string[]): JobKey =>
  siblings === undefined ? { path, kind } : { path, kind, siblings };

/** The smallest outcome the cache takes: facts of the file, no problems. */
function outcome(path: string, data: Record<string, unknown> = {}): FileOutcome {
  return {
    facts: { file: { path, lines: 2, lineCount: 1, suppressions: [], links: [], localLinks: [], anchors: [] } },
    diagnostics: [],
    data,
  };
}

/** A SKILL.md's outcome with these frontmatter entries (null: no frontmatter). */
function skillOutcome(path: string, entries: unknown[] | null, nested: unknown[] = []): FileOutcome {
  const base = outcome(path);
  base.facts.skill = {
    frontmatter:
      entries === null ? null : { line: 1, endLine: null, entries: entries as FrontmatterEntry[], nested: nested as FrontmatterEntry[] },
    namedPaths: [],
    sections: [],
    headings: [],
    codeSpans: [],
  };
  return base;
}

const fmEntry = (key: string, value: unknown) => ({ key, path: key.split('.'), value, line: 2, column: 1 });

const warnings = () => {
  const seen: string[] = [];
  return { seen, warn: (m: string) => void seen.push(m) };
};

/** A cache file in a fresh directory, and a ResultCache of it. */
function fresh(options: CacheOptions = {}) {
  const dir = tempDir();
  const file = join(dir, 'cache.json');
  return { dir, file, cache: new ResultCache(file, options) };
}

const A = job('a/ref.md');
const outA = outcome('a/ref.md');
const STAMP: FileStamp = { sig: '10:1000:1000:7', settled: true };

/** A cache written with one entry (A, hash 'hA', settled stamp), as `options` say. */
function writtenWithA(options: CacheOptions = {}) {
  const f = fresh(options);
  f.cache.set(A, 'hA', outA, STAMP);
  f.cache.save();
  return f;
}

describe('a file stamp, a content hash, a project id', () => {
  it('a stamp is size:mtime:ctime:inode, settled only when the later of the two times is more than RACY_MS (2 s) before now', () => {
    expect(RACY_MS).toBe(2000);
    const st = { size: 12, mtimeMs: 5000.5, ctimeMs: 3000.25, ino: 42 } as Stats;
    expect(fileStamp(st, 7000.5)).toEqual({ sig: '12:5000.5:3000.25:42', settled: false });
    expect(fileStamp(st, 7000.6)).toEqual({ sig: '12:5000.5:3000.25:42', settled: true });
    // the change time later than the modification time (a chmod, a rename): it counts
    const changed = { size: 1, mtimeMs: 1000, ctimeMs: 9000, ino: 3 } as Stats;
    expect(fileStamp(changed, 11000).settled).toBe(false);
    expect(fileStamp(changed, 11001).settled).toBe(true);
    // now, by default
    const old = Date.now() - 10 * RACY_MS;
    expect(fileStamp({ size: 0, mtimeMs: old, ctimeMs: old, ino: 1 } as Stats).settled).toBe(true);
    const dir = tempDir();
    writeFileSync(join(dir, 'f'), 'abc');
    const real = statSync(join(dir, 'f'));
    expect(fileStamp(real)).toEqual({ sig: `3:${real.mtimeMs}:${real.ctimeMs}:${real.ino}`, settled: false });
  });

  it('a content hash is the SHA-1 of the text in base64; a project id the first 16 hex digits of the SHA-1 of its root', () => {
    expect(contentHash('abc')).toBe('qZk+NkcGgWq6PiVxeFDCbJzQ2J0=');
    expect(contentHash('')).toBe('2jmj7l5rSw0yVb/vlWAYkK/YBwk=');
    expect(projectId('abc')).toBe('a9993e364706816a');
  });
});

describe('where the cache is (cacheLocation, cacheSettings, cache-dir)', () => {
  const root = '/work/some-project';
  const id = projectId(root);
  const bound = DEFAULT_CACHE_MAX_MB * MIB;

  it('--cache-location names a file, or a directory when it is one or ends with a separator', () => {
    expect(DEFAULT_CACHE_MAX_MB).toBe(512);
    const dir = tempDir();
    writeFileSync(join(dir, 'existing.json'), '');
    for (const file of [join(dir, 'existing.json'), join(dir, 'new.json'), join(dir, 'sub', 'new.json'), 'plain']) {
      expect(cacheLocation(root, file, {})).toStrictEqual({ file });
    }
    expect(cacheLocation(root, dir, {})).toStrictEqual({ file: join(dir, id, 'cache.json'), sweep: { dir, maxBytes: 512 * MIB } });
    for (const d of [`${join(dir, 'new')}/`, `${join(dir, 'other')}\\`]) {
      expect(cacheLocation(root, d, {})).toStrictEqual({ file: join(d, id, 'cache.json'), sweep: { dir: d, maxBytes: bound } });
    }
  });

  it('without a location (or an empty one): LOOPKIT_CACHE_DIR, else the user cache directory, one folder per project', () => {
    const env = { LOOPKIT_CACHE_DIR: '/caches/here' };
    const expected = { file: join('/caches/here', id, 'cache.json'), sweep: { dir: '/caches/here', maxBytes: bound } };
    expect(cacheLocation(root, undefined, env)).toStrictEqual(expected);
    expect(cacheLocation(root, '', env)).toStrictEqual(expected);
    const user = userCacheDir({});
    expect(cacheLocation(root, undefined, {})).toStrictEqual({ file: join(user, id, 'cache.json'), sweep: { dir: user, maxBytes: bound } });
    // the process's environment by default
    const own = cacheDirectory(process.env);
    expect(cacheLocation(root, undefined)).toStrictEqual({ file: join(own, id, 'cache.json'), sweep: { dir: own, maxBytes: bound } });
  });

  it('LOOPKIT_CACHE_MAX_MB bounds the directory; anything but a positive finite number is the default 512 MB', () => {
    const at = (v: string) => cacheLocation(root, '/c/', { LOOPKIT_CACHE_MAX_MB: v }).sweep!.maxBytes;
    expect(at('100')).toBe(100 * MIB);
    expect(at('0.5')).toBe(MIB / 2);
    for (const v of ['0', '-5', 'abc', '', 'Infinity', '1e400']) expect(at(v), v).toBe(512 * MIB);
  });

  it('cacheSettings: on by default; --no-cache or LOOPKIT_NO_CACHE turn it off; --cache wins over the variable', () => {
    const dir = tempDir();
    const env = { LOOPKIT_CACHE_DIR: dir };
    const on = { cacheFile: join(dir, id, 'cache.json'), cacheSweep: { dir, maxBytes: bound }, projectRoot: root };
    expect(cacheSettings(root, undefined, undefined, env)).toStrictEqual(on);
    expect(cacheSettings(root, false, undefined, env)).toBeNull();
    expect(cacheSettings(root, undefined, undefined, { ...env, LOOPKIT_NO_CACHE: '1' })).toBeNull();
    expect(cacheSettings(root, true, undefined, { ...env, LOOPKIT_NO_CACHE: '1' })).toStrictEqual(on);
    expect(cacheSettings(root, undefined, undefined, { ...env, LOOPKIT_NO_CACHE: '0' })).toStrictEqual(on);
    // a file: no directory to sweep
    const file = join(dir, 'mine.json');
    expect(cacheSettings(root, undefined, file, env)).toStrictEqual({ cacheFile: file, projectRoot: root });
  });

  it('LOOPKIT_NO_CACHE turns the cache off when set to anything but empty, 0 or false', () => {
    for (const v of [undefined, '', '  ', '0', 'false', ' FALSE ']) expect(cacheOffByEnv({ LOOPKIT_NO_CACHE: v }), String(v)).toBe(false);
    for (const v of ['1', 'true', 'yes', 'no', 'off']) expect(cacheOffByEnv({ LOOPKIT_NO_CACHE: v }), v).toBe(true);
  });

  it('the cache directory: LOOPKIT_CACHE_DIR when set and not empty, else the user cache directory', () => {
    expect(cacheDirectory({ LOOPKIT_CACHE_DIR: '/x/y', XDG_CACHE_HOME: '/xdg' })).toBe('/x/y');
    expect(cacheDirectory({ LOOPKIT_CACHE_DIR: '', XDG_CACHE_HOME: '/xdg' })).toBe(userCacheDir({ XDG_CACHE_HOME: '/xdg' }));
    expect(cacheDirectory({})).toBe(userCacheDir({}));
  });

  it.runIf(platform() === 'linux')('on Linux the user cache directory is $XDG_CACHE_HOME/loopkit, else ~/.cache/loopkit', () => {
    expect(userCacheDir({ XDG_CACHE_HOME: '/xdg' })).toBe('/xdg/loopkit');
    expect(userCacheDir({ XDG_CACHE_HOME: '' })).toBe(join(homedir(), '.cache', 'loopkit'));
    expect(userCacheDir({})).toBe(join(homedir(), '.cache', 'loopkit'));
  });
});

describe('entries: what is written and what a later run finds', () => {
  it('each key goes to its shard (a stable spread over 16 files), each entry as {h, sb, s, r, o}, beside a stamped index', () => {
    // the spread, pinned: a change of it would orphan every cache written before
    expect(['skill:a/SKILL.md', 'skill:b/SKILL.md', 'loop:a/LOOP.md', 'reference:a/ref.md'].map(shardOf)).toEqual([8, 15, 4, 4]);
    expect(new Set(Array.from({ length: 64 }, (_, i) => shardOf(`reference:r${i}.md`))).size).toBeGreaterThan(12);
    const { dir, file, cache } = fresh({ root: '/p' });
    const skill = skillOutcome('a/SKILL.md', null);
    cache.set(job('a/SKILL.md', 'skill', ['x.md', 'y/z.md']), 'h1', skill, { sig: '1:2:3:4', settled: true });
    cache.set(job('a/LOOP.md', 'loop'), 'h2', outcome('a/LOOP.md'));
    cache.set(A, 'h3', outA, { sig: 's', settled: false });
    cache.set(job('b/SKILL.md', 'skill', []), 'h4', outcome('b/SKILL.md'));
    cache.save();
    expect(listing(dir)).toEqual(['cache.json', 'cache.json.s04', 'cache.json.s08', 'cache.json.s15']);
    const stamp = { magic: 'loopkit-cache', version: VERSION, format: expect.any(Number), build: 'source' };
    expect(readJson(file)).toStrictEqual({ ...stamp, shards: 16, root: '/p' });
    expect(readJson(shardFile(file, 8))).toStrictEqual({
      ...stamp,
      shard: 8,
      entries: { 'skill:a/SKILL.md': { h: 'h1', o: skill, sb: 'x.md\u0000y/z.md', s: '1:2:3:4', r: true } },
    });
    expect(readJson(shardFile(file, 4))).toStrictEqual({
      ...stamp,
      shard: 4,
      entries: { 'loop:a/LOOP.md': { h: 'h2', o: outcome('a/LOOP.md') }, 'reference:a/ref.md': { h: 'h3', o: outA, s: 's', r: false } },
    });
    expect(readJson(shardFile(file, 15))).toStrictEqual({
      ...stamp,
      shard: 15,
      entries: { 'skill:b/SKILL.md': { h: 'h4', o: outcome('b/SKILL.md') } },
    });
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a later run finds an entry by its content hash, its kind and path, and (SKILL.md) the same markdown files next to it', () => {
    const { file, cache } = fresh();
    const skill = skillOutcome('a/SKILL.md', [fmEntry('name', 'a')]);
    cache.set(job('a/SKILL.md', 'skill', ['x.md', 'y/z.md']), 'h1', skill);
    cache.set(job('b/SKILL.md', 'skill'), 'h2', outcome('b/SKILL.md'));
    cache.set(A, 'hA', outA);
    cache.save();
    const later = new ResultCache(file);
    expect(later.get(job('a/SKILL.md', 'skill', ['x.md', 'y/z.md']), 'h1')).toEqual(skill);
    expect(later.get(job('a/SKILL.md', 'skill', ['x.md']), 'h1')).toBeUndefined();
    expect(later.get(job('a/SKILL.md', 'skill', ['y/z.md', 'x.md']), 'h1')).toBeUndefined();
    expect(later.get(job('a/SKILL.md', 'skill'), 'h1')).toBeUndefined();
    expect(later.get(job('a/SKILL.md', 'skill', ['x.md', 'y/z.md']), 'other')).toBeUndefined();
    expect(later.get(job('b/SKILL.md', 'skill', []), 'h2')).toEqual(outcome('b/SKILL.md'));
    expect(later.get(job('b/SKILL.md', 'skill', ['x.md']), 'h2')).toBeUndefined();
    expect(later.get(A, 'hA')).toEqual(outA);
    expect(later.get(job('a/ref.md', 'readme'), 'hA')).toBeUndefined();
    expect(later.get(job('b/ref.md'), 'hA')).toBeUndefined();
  });

  it('the entries a run did not use are dropped when it writes; a shard no file maps to any more is removed', () => {
    const { dir, file, cache } = fresh();
    const [p, q] = pathsInShard(3, 2) as [string, string];
    cache.set(job(p), 'hp', outcome(p));
    cache.set(job(q), 'hq', outcome(q));
    cache.set(job('b/SKILL.md', 'skill'), 'hb', outcome('b/SKILL.md'));
    cache.save();
    expect(listing(dir)).toEqual(['cache.json', 'cache.json.s03', 'cache.json.s15']);
    // not a shard (there are 16, s00 … s15): not the cache's to remove
    writeFileSync(`${file}.s16`, 'mine');
    const second = new ResultCache(file);
    expect(second.get(job(p), 'hp')).toEqual(outcome(p));
    expect(second.get(job(q), 'changed')).toBeUndefined();
    second.save();
    expect(listing(dir)).toEqual(['cache.json', 'cache.json.s03', 'cache.json.s16']);
    expect(Object.keys(readJson(shardFile(file, 3)).entries as object)).toEqual([`reference:${p}`]);
    const third = new ResultCache(file);
    expect(third.get(job(q), 'hq')).toBeUndefined();
    expect(third.get(job('b/SKILL.md', 'skill'), 'hb')).toBeUndefined();
    expect(third.get(job(p), 'hp')).toEqual(outcome(p));
  });

  it('a changed file: its new entry replaces the old one', () => {
    const { file } = writtenWithA();
    const changed = outcome('a/ref.md', { n: 2 });
    const second = new ResultCache(file);
    expect(second.get(A, 'hA2')).toBeUndefined();
    second.set(A, 'hA2', changed);
    second.save();
    const third = new ResultCache(file);
    expect(third.get(A, 'hA')).toBeUndefined();
    expect(third.get(A, 'hA2')).toEqual(changed);
  });

  it('a run that used every entry and changed none writes nothing', () => {
    const { dir, file } = writtenWithA();
    mark(file);
    mark(shardFile(file, 4));
    const second = new ResultCache(file);
    expect(second.get(A, 'hA')).toEqual(outA);
    second.save();
    expect(marked(file)).toBe(true);
    expect(marked(shardFile(file, 4))).toBe(true);
    expect(listing(dir)).toEqual(['cache.json', 'cache.json.s04']);
    // nor when looked up with the stamp it has
    const third = new ResultCache(file);
    expect(third.get(A, 'hA', STAMP)).toEqual(outA);
    third.save();
    expect(marked(shardFile(file, 4))).toBe(true);
  });

  it('a cache never used writes nothing, not even its folder', () => {
    const dir = tempDir();
    const cache = new ResultCache(join(dir, 'sub', 'cache.json'));
    cache.save();
    expect(listing(dir)).toEqual([]);
  });
});

describe('stat first: unchanged and the stamp a hit refreshes', () => {
  it('unchanged: the outcome of a file whose stamp is the one it had when read, and settled then; else nothing', () => {
    const { file, cache } = fresh();
    const [p, q] = pathsInShard(6, 2) as [string, string];
    cache.set(A, 'hA', outA, STAMP);
    cache.set(job(p), 'hp', outcome(p), { sig: 'p1', settled: false });
    cache.set(job(q), 'hq', outcome(q));
    cache.set(job('a/SKILL.md', 'skill', ['x.md']), 'hs', outcome('a/SKILL.md'), STAMP);
    cache.save();
    const later = new ResultCache(file);
    expect(later.unchanged(A, STAMP)).toEqual(outA);
    expect(later.unchanged(A, { sig: '11:1000:1000:7', settled: true })).toBeUndefined();
    expect(later.unchanged(job(p), { sig: 'p1', settled: true })).toBeUndefined();
    expect(later.unchanged(job(q), { sig: 'undefined', settled: true })).toBeUndefined();
    expect(later.unchanged(job('a/SKILL.md', 'skill', ['x.md']), STAMP)).toEqual(outcome('a/SKILL.md'));
    expect(later.unchanged(job('a/SKILL.md', 'skill', ['y.md']), STAMP)).toBeUndefined();
    expect(later.unchanged(job('zz.md'), STAMP)).toBeUndefined();
  });

  it('an entry found unchanged is kept: the shard is not written again and the next run finds it too', () => {
    const { file } = writtenWithA();
    mark(shardFile(file, 4));
    const second = new ResultCache(file);
    expect(second.unchanged(A, STAMP)).toEqual(outA);
    second.save();
    expect(marked(shardFile(file, 4))).toBe(true);
    expect(new ResultCache(file).unchanged(A, STAMP)).toEqual(outA);
  });

  it('only a stamp recorded as settled (r: true) proves a file unchanged', () => {
    const { file } = writtenWithA();
    edit(shardFile(file, 4), (doc) => void ((doc.entries as Record<string, { r: unknown }>)['reference:a/ref.md']!.r = 'yes'));
    expect(new ResultCache(file).unchanged(A, STAMP)).toBeUndefined();
    expect(new ResultCache(file).get(A, 'hA')).toEqual(outA);
  });

  it('a hit whose times have settled since is trusted by its stamp from then on (the refreshed entry is written)', () => {
    const { file, cache } = fresh();
    cache.set(A, 'hA', outA, { sig: 's1', settled: false });
    cache.save();
    const second = new ResultCache(file);
    expect(second.unchanged(A, { sig: 's1', settled: true })).toBeUndefined();
    expect(second.get(A, 'hA', { sig: 's1', settled: true })).toEqual(outA);
    second.save();
    expect((readJson(shardFile(file, 4)).entries as Record<string, unknown>)['reference:a/ref.md']).toEqual({
      h: 'hA',
      o: outA,
      s: 's1',
      r: true,
    });
    expect(new ResultCache(file).unchanged(A, { sig: 's1', settled: true })).toEqual(outA);
  });

  it('a hit with another stamp (the file touched, its content the same) keeps the new stamp', () => {
    const { file } = writtenWithA();
    const second = new ResultCache(file);
    expect(second.get(A, 'hA', { sig: 's2', settled: true })).toEqual(outA);
    second.save();
    const third = new ResultCache(file);
    expect(third.unchanged(A, STAMP)).toBeUndefined();
    expect(third.unchanged(A, { sig: 's2', settled: true })).toEqual(outA);
  });

  it('a hit without a stamp leaves the entry as it was, stamp and all', () => {
    const { file } = writtenWithA();
    mark(shardFile(file, 4));
    const second = new ResultCache(file);
    expect(second.get(A, 'hA')).toEqual(outA);
    second.save();
    expect(marked(shardFile(file, 4))).toBe(true);
    expect(new ResultCache(file).unchanged(A, STAMP)).toEqual(outA);
  });
});

describe('what makes a cache foreign, and malformed entries', () => {
  it('an index of another magic, version, format or build, or another shard count, is not used', () => {
    const changes: Record<string, unknown>[] = [
      { magic: 'other' },
      { version: '0.0.1' },
      { format: -1 },
      { build: 'other' },
      { shards: 8 },
    ];
    for (const change of changes) {
      const { file } = writtenWithA();
      edit(file, (doc) => ({ ...doc, ...change }));
      expect(new ResultCache(file).get(A, 'hA'), JSON.stringify(change)).toBeUndefined();
    }
    // an extra field is no difference
    const { file } = writtenWithA();
    edit(file, (doc) => ({ ...doc, extra: true }));
    expect(new ResultCache(file).get(A, 'hA')).toEqual(outA);
  });

  it('an index of another project root is not used; one read without a root is', () => {
    const { file } = writtenWithA({ root: '/p/a' });
    expect(new ResultCache(file, { root: '/p/a' }).get(A, 'hA')).toEqual(outA);
    expect(new ResultCache(file).get(A, 'hA')).toEqual(outA);
    expect(new ResultCache(file, { root: '/p/b' }).get(A, 'hA')).toBeUndefined();
    const rootless = writtenWithA();
    expect(readJson(rootless.file)).not.toHaveProperty('root');
    expect(new ResultCache(rootless.file, { root: '/p/a' }).get(A, 'hA')).toBeUndefined();
  });

  it('an index of other rules (plugins) is not used; no rules and empty rules are the same', () => {
    const { file } = writtenWithA({ rules: 'plugin@1' });
    expect(readJson(file).rules).toBe('plugin@1');
    expect(new ResultCache(file, { rules: 'plugin@1' }).get(A, 'hA')).toEqual(outA);
    expect(new ResultCache(file, { rules: 'plugin@2' }).get(A, 'hA')).toBeUndefined();
    expect(new ResultCache(file).get(A, 'hA')).toBeUndefined();
    const none = writtenWithA({ rules: '' });
    expect(readJson(none.file)).not.toHaveProperty('rules');
    expect(new ResultCache(none.file, { rules: '' }).get(A, 'hA')).toEqual(outA);
    expect(new ResultCache(none.file).get(A, 'hA')).toEqual(outA);
    expect(new ResultCache(none.file, { rules: 'plugin@1' }).get(A, 'hA')).toBeUndefined();
  });

  it('a foreign index is written again, and the shards of the old one are neither used nor kept', () => {
    const { dir, file, cache } = fresh({ root: '/p/a' });
    const [p] = pathsInShard(4, 1) as [string];
    cache.set(A, 'hA', outA);
    cache.set(job(p), 'hp', outcome(p));
    cache.set(job('b/SKILL.md', 'skill'), 'hb', outcome('b/SKILL.md'));
    cache.save();
    // another root: it misses (shard 4 is looked up, 15 is not) and writes nothing new
    const other = new ResultCache(file, { root: '/p/b' });
    expect(other.get(A, 'hA')).toBeUndefined();
    other.save();
    expect(listing(dir)).toEqual(['cache.json', 'cache.json.s04']);
    expect(readJson(file).root).toBe('/p/b');
    expect(readJson(shardFile(file, 4)).entries).toEqual({});
    // the index of the other root is used now, and nothing of the old cache is in it
    const back = new ResultCache(file, { root: '/p/b' });
    expect(back.get(A, 'hA')).toBeUndefined();
    expect(back.get(job(p), 'hp')).toBeUndefined();
    expect(back.get(job('b/SKILL.md', 'skill'), 'hb')).toBeUndefined();
  });

  it('an index that is not a cache (null, a number, a list, corrupt JSON) is ignored silently and written again', () => {
    for (const text of ['null', '5', '"text"', '[]', '{"magic": "loopkit-cache"', '']) {
      const { file } = writtenWithA();
      writeFileSync(file, text);
      const w = warnings();
      const cache = new ResultCache(file, { warn: w.warn });
      expect(cache.get(A, 'hA'), text).toBeUndefined();
      cache.set(A, 'hA2', outA);
      cache.save();
      expect(w.seen).toEqual([]);
      expect(readJson(file).magic).toBe('loopkit-cache');
      expect(new ResultCache(file).get(A, 'hA2')).toEqual(outA);
    }
  });

  it('a shard of another stamp, of another number, without entries or corrupt is not used, and is rewritten when set', () => {
    const changes: ((doc: Record<string, unknown>) => unknown)[] = [
      (doc) => ({ ...doc, version: '0.0.1' }),
      (doc) => ({ ...doc, magic: 'x' }),
      (doc) => ({ ...doc, shard: 5 }),
      (doc) => ({ ...doc, entries: null }),
      (doc) => ({ ...doc, entries: undefined }),
      () => null,
    ];
    for (const change of changes) {
      const { file } = writtenWithA();
      edit(shardFile(file, 4), change);
      const w = warnings();
      const cache = new ResultCache(file, { warn: w.warn });
      expect(cache.get(A, 'hA'), String(change)).toBeUndefined();
      cache.set(A, 'hA2', outA);
      cache.save();
      expect(w.seen).toEqual([]);
      expect(readJson(shardFile(file, 4))).toMatchObject({ shard: 4, entries: { 'reference:a/ref.md': { h: 'hA2' } } });
    }
    const { file } = writtenWithA();
    writeFileSync(shardFile(file, 4), '{"entries": ');
    expect(new ResultCache(file).get(A, 'hA')).toBeUndefined();
  });

  it('a shard whose entries are not an object is not used, and is left as it is by a run that sets nothing in it', () => {
    const { file } = writtenWithA();
    edit(shardFile(file, 4), (doc) => ({ ...doc, entries: 'reference:a/ref.md' }));
    const before = readFileSync(shardFile(file, 4), 'utf8');
    const cache = new ResultCache(file);
    expect(cache.get(A, 'hA')).toBeUndefined();
    cache.save();
    expect(readFileSync(shardFile(file, 4), 'utf8')).toBe(before);
  });

  it('a malformed entry (no outcome, no diagnostics list, no file facts) is never used, whatever its hash and stamp', () => {
    const bad: unknown[] = [
      null,
      { h: 'hA', s: STAMP.sig, r: true },
      { h: 'hA', s: STAMP.sig, r: true, o: null },
      { h: 'hA', s: STAMP.sig, r: true, o: 'text' },
      { h: 'hA', s: STAMP.sig, r: true, o: { diagnostics: {}, facts: outA.facts } },
      { h: 'hA', s: STAMP.sig, r: true, o: { diagnostics: [] } },
      { h: 'hA', s: STAMP.sig, r: true, o: { diagnostics: [], facts: {} } },
      { h: 'hA', s: STAMP.sig, r: true, o: { diagnostics: [], facts: { skill: { frontmatter: null } } } },
    ];
    for (const entry of bad) {
      const { file } = writtenWithA();
      edit(shardFile(file, 4), (doc) => void ((doc.entries as Record<string, unknown>)['reference:a/ref.md'] = entry));
      const cache = new ResultCache(file);
      expect(cache.get(A, 'hA'), JSON.stringify(entry)).toBeUndefined();
      expect(cache.unchanged(A, STAMP), JSON.stringify(entry)).toBeUndefined();
    }
  });
});

describe('numbers JSON cannot write (YAML frontmatter can)', () => {
  const odd = [fmEntry('n', Infinity), fmEntry('list', [NaN, -Infinity, 1.5, null, 'text']), fmEntry('map.x', { y: -Infinity })];

  it('infinity and NaN in frontmatter entries are written as {"$num": …} and read back as numbers', () => {
    const { file, cache } = fresh();
    const skill = skillOutcome('a/SKILL.md', odd);
    cache.set(job('a/SKILL.md', 'skill'), 'h', skill);
    cache.save();
    const text = readFileSync(shardFile(file, 8), 'utf8');
    expect(text).toContain('"value":{"$num":"Infinity"}');
    expect(text).toContain('[{"$num":"NaN"},{"$num":"-Infinity"},1.5,null,"text"]');
    expect(text).toContain('"endLine":null');
    expect(new ResultCache(file).get(job('a/SKILL.md', 'skill'), 'h')).toEqual(skill);
  });

  it('so are those in nested entries only', () => {
    const { file, cache } = fresh();
    const skill = skillOutcome('a/SKILL.md', [fmEntry('map', 'scalar')], [fmEntry('map.x', Infinity)]);
    cache.set(job('a/SKILL.md', 'skill'), 'h', skill);
    cache.save();
    const back = new ResultCache(file).get(job('a/SKILL.md', 'skill'), 'h');
    expect(back?.facts.skill?.frontmatter?.nested[0]?.value).toBe(Infinity);
    expect(back).toEqual(skill);
  });

  it("a frontmatter's own key that looks like the mark ($num, $$num) is read back as it was, alone or beside such numbers", () => {
    for (const entries of [
      [fmEntry('x', { $num: 'abc' })],
      [fmEntry('x', { $num: 'Infinity' }), fmEntry('y', { $$num: '1', other: 2 })],
      [fmEntry('x', { $num: 'abc' }), fmEntry('n', -Infinity), fmEntry('z', [{ $num: 'NaN' }])],
    ]) {
      const { file, cache } = fresh();
      const skill = skillOutcome('a/SKILL.md', entries);
      cache.set(job('a/SKILL.md', 'skill'), 'h', skill);
      cache.save();
      expect(new ResultCache(file).get(job('a/SKILL.md', 'skill'), 'h'), JSON.stringify(entries)).toEqual(skill);
    }
  });

  it('a shard read with a key like the mark, or such a number in nested entries only, keeps them when another of its entries is written again', () => {
    const [p, q] = pathsInShard(3, 2) as [string, string];
    for (const own of [
      skillOutcome(p, [fmEntry('x', { $num: 'abc' })]),
      skillOutcome(p, [fmEntry('map', 'scalar')], [fmEntry('map.x', Infinity)]),
    ]) {
      const { file, cache } = fresh();
      cache.set(job(p), 'h', own);
      cache.set(job(q), 'h', skillOutcome(q, [fmEntry('name', 'q')]));
      cache.save();
      const second = new ResultCache(file);
      expect(second.get(job(p), 'h')).toEqual(own);
      second.set(job(q), 'h2', skillOutcome(q, [fmEntry('name', 'q2')]));
      second.save();
      expect(new ResultCache(file).get(job(p), 'h')).toEqual(own);
    }
  });

  it("an agent file's facts with a key like the mark are read back as they were", () => {
    const { file, cache } = fresh();
    cache.readFacts('agent:a', 'a', () => ({ tools: { $num: '7' }, n: Infinity }));
    cache.save();
    expect(new ResultCache(file).readFacts('agent:a', 'a', () => 'no')).toEqual({ tools: { $num: '7' }, n: Infinity });
  });

  it('a number found 65 levels down is written as one', () => {
    let deep: unknown = NaN;
    for (let i = 0; i < 65; i++) deep = [deep];
    const { file, cache } = fresh();
    const skill = skillOutcome('a/SKILL.md', deep as unknown[]);
    cache.set(job('a/SKILL.md', 'skill'), 'h', skill);
    cache.save();
    expect(new ResultCache(file).get(job('a/SKILL.md', 'skill'), 'h')).toEqual(skill);
  });

  it('a number nested deeper than the look for marks goes (64 levels) is written as one all the same', () => {
    for (const levels of [70, 200]) {
      let deep: unknown = -Infinity;
      for (let i = 0; i < levels; i++) deep = i % 2 === 0 ? [deep] : { k: deep };
      const { file, cache } = fresh();
      const skill = skillOutcome('a/SKILL.md', [fmEntry('deep', deep)]);
      cache.set(job('a/SKILL.md', 'skill'), 'h', skill);
      cache.save();
      expect(new ResultCache(file).get(job('a/SKILL.md', 'skill'), 'h'), `${levels} levels`).toEqual(skill);
    }
  });

  it('an object with a key like the mark beside other keys, in nested entries, is read back as it was', () => {
    const { file, cache } = fresh();
    const skill = skillOutcome('a/SKILL.md', [fmEntry('map', 'scalar')], [fmEntry('map.x', { a: 1, $num: 'x' })]);
    cache.set(job('a/SKILL.md', 'skill'), 'h', skill);
    cache.save();
    expect(new ResultCache(file).get(job('a/SKILL.md', 'skill'), 'h')).toEqual(skill);
  });

  it('a shard read with such numbers keeps them when another of its entries is written', () => {
    const { file, cache } = fresh();
    const skill = skillOutcome('a/SKILL.md', odd);
    const [p] = pathsInShard(8, 1) as [string];
    cache.set(job('a/SKILL.md', 'skill'), 'h', skill);
    cache.save();
    const second = new ResultCache(file);
    expect(second.get(job('a/SKILL.md', 'skill'), 'h')).toEqual(skill);
    second.set(job(p), 'hp', outcome(p));
    second.save();
    const third = new ResultCache(file);
    expect(third.get(job(p), 'hp')).toEqual(outcome(p));
    expect(third.get(job('a/SKILL.md', 'skill'), 'h')).toEqual(skill);
  });

  it('other values of a shard with such numbers read back as they were: nulls, strings, one-key objects, a $num beside other keys', () => {
    const { file, cache } = fresh();
    const skill = skillOutcome('a/SKILL.md', odd);
    skill.data = { one: { only: 1 }, num: { $num: 'kept', other: 2 }, none: null, s: 'x' };
    const [p] = pathsInShard(8, 1) as [string];
    const plain = outcome(p, { single: { k: 'v' }, n: 3 });
    cache.set(job('a/SKILL.md', 'skill'), 'h', skill);
    cache.set(job(p), 'hp', plain);
    cache.save();
    const later = new ResultCache(file);
    expect(later.get(job('a/SKILL.md', 'skill'), 'h')).toEqual(skill);
    expect(later.get(job(p), 'hp')).toEqual(plain);
  });

  it('a shard whose skills hold none (or have no frontmatter) is read and written as plain JSON', () => {
    const { file, cache } = fresh();
    const [p] = pathsInShard(8, 1) as [string];
    const none = skillOutcome('a/SKILL.md', null);
    const finite = skillOutcome(p, [fmEntry('empty', null), fmEntry('n', 1)], [fmEntry('map.x', null)]);
    cache.set(job('a/SKILL.md', 'skill'), 'h', none);
    cache.set(job(p), 'hp', finite);
    cache.save();
    expect(readFileSync(shardFile(file, 8), 'utf8')).not.toContain('$num');
    const later = new ResultCache(file);
    expect(later.get(job('a/SKILL.md', 'skill'), 'h')).toEqual(none);
    expect(later.get(job(p), 'hp')).toEqual(finite);
  });
});

describe('facts read outside the per-file phase (readFacts)', () => {
  it('a key read before from the same text is not read again; changed text is', () => {
    const { file, cache } = fresh();
    let reads = 0;
    const read =
      <T>(v: T) =>
      () => {
        reads++;
        return v;
      };
    expect(cache.readFacts('agent:a', 'text a', read({ name: 'a', n: Infinity }))).toEqual({ name: 'a', n: Infinity });
    expect(cache.readFacts('agent:b', 'text b', read(['b']))).toEqual(['b']);
    expect(reads).toBe(2);
    cache.save();
    expect(readJson(file).read).toEqual({
      'agent:a': { h: contentHash('text a'), facts: { name: 'a', n: { $num: 'Infinity' } } },
      'agent:b': { h: contentHash('text b'), facts: ['b'] },
    });
    const later = new ResultCache(file);
    expect(later.readFacts('agent:a', 'text a', read('never'))).toEqual({ name: 'a', n: Infinity });
    expect(reads).toBe(2);
    expect(later.readFacts('agent:b', 'text b changed', read(['c']))).toEqual(['c']);
    expect(reads).toBe(3);
    expect(later.readFacts('agent:c', 'text b', read('c'))).toBe('c');
    expect(reads).toBe(4);
  });

  it('a key read again from changed text is written again, though the index holds as many keys as before', () => {
    const { file, cache } = fresh();
    cache.readFacts('agent:a', 'old', () => 'OLD');
    cache.save();
    const second = new ResultCache(file);
    expect(second.readFacts('agent:a', 'new', () => 'NEW')).toBe('NEW');
    second.save();
    expect(new ResultCache(file).readFacts('agent:a', 'new', () => 'again')).toBe('NEW');
  });

  it('an entry without facts is read again', () => {
    const { file, cache } = fresh();
    cache.readFacts('agent:a', 'text', () => 1);
    cache.save();
    edit(file, (doc) => void ((doc.read as Record<string, unknown>)['agent:a'] = { h: contentHash('text') }));
    expect(new ResultCache(file).readFacts('agent:a', 'text', () => 2)).toBe(2);
  });

  it('an index whose read facts are not an object is still used', () => {
    const { file } = writtenWithA();
    edit(file, (doc) => ({ ...doc, read: null }));
    const cache = new ResultCache(file);
    expect(cache.readFacts('agent:a', 'text', () => 'read')).toBe('read');
    expect(cache.get(A, 'hA')).toEqual(outA);
  });

  it('the index keeps what a run read: unchanged when it read the same, rewritten without what it no longer read, kept by a run that read none', () => {
    const { file, cache } = fresh();
    cache.readFacts('agent:a', 'a', () => 'A');
    cache.readFacts('agent:b', 'b', () => 'B');
    cache.set(A, 'hA', outA);
    cache.save();
    mark(file);
    // reads both, from the cache: the index is not written
    const both = new ResultCache(file);
    expect(both.get(A, 'hA')).toEqual(outA);
    expect(both.readFacts('agent:a', 'a', () => 'no')).toBe('A');
    expect(both.readFacts('agent:b', 'b', () => 'no')).toBe('B');
    both.save();
    expect(marked(file)).toBe(true);
    // reads none (a run that looks at the files only): kept
    const none = new ResultCache(file);
    expect(none.get(A, 'hA')).toEqual(outA);
    none.save();
    expect(marked(file)).toBe(true);
    // reads one: the other is dropped
    const one = new ResultCache(file);
    expect(one.readFacts('agent:a', 'a', () => 'no')).toBe('A');
    one.save();
    expect(marked(file)).toBe(false);
    expect(Object.keys(readJson(file).read as object)).toEqual(['agent:a']);
    const last = new ResultCache(file);
    expect(last.readFacts('agent:b', 'b', () => 'again')).toBe('again');
    expect(last.readFacts('agent:a', 'a', () => 'no')).toBe('A');
  });

  it('facts read from the cache survive the index being written again for another reason, infinity included', () => {
    const { file, cache } = fresh();
    cache.readFacts('agent:a', 'a', () => ({ n: -Infinity }));
    cache.save();
    const second = new ResultCache(file);
    expect(second.readFacts('agent:a', 'a', () => 'no')).toEqual({ n: -Infinity });
    second.setConfig(
      { file: '.loopkit.yaml', text: 'x: 1' },
      { config: {} as LoadedConfig['config'], positions: new Map(), valuePositions: new Map(), file: null, warnings: [] },
    );
    second.save();
    expect(new ResultCache(file).readFacts('agent:a', 'a', () => 'no')).toEqual({ n: -Infinity });
  });
});

describe('the configuration, by the hash of its text', () => {
  const text = 'rules:\n  x: off\n';
  const source = { file: '/p/.loopkit.yaml', text };
  const loaded: LoadedConfig = {
    config: { rules: { x: 'off' } } as unknown as LoadedConfig['config'],
    positions: new Map([['rules.x', { line: 2, column: 3 }]]),
    valuePositions: new Map([['rules.x', { line: 2, column: 6 }]]),
    file: '.loopkit.yaml',
    warnings: [{ code: 'config-unknown-key', message: 'm', help: 'h', line: 1, column: 1 }],
  };

  it('is kept in the index and given back for the same text only', () => {
    const { file, cache } = fresh();
    expect(cache.getConfig(source)).toBeUndefined();
    cache.setConfig(source, loaded);
    expect(cache.getConfig(source)).toEqual(loaded);
    cache.save();
    expect(readJson(file).config).toEqual({
      h: contentHash(text),
      config: { rules: { x: 'off' } },
      positions: [['rules.x', { line: 2, column: 3 }]],
      valuePositions: [['rules.x', { line: 2, column: 6 }]],
      file: '.loopkit.yaml',
      warnings: loaded.warnings,
    });
    const later = new ResultCache(file);
    const got = later.getConfig({ file: 'elsewhere', text });
    expect(got).toEqual(loaded);
    expect(got?.positions).toBeInstanceOf(Map);
    expect(got?.valuePositions).toBeInstanceOf(Map);
    expect(later.getConfig({ file: source.file, text: `${text} ` })).toBeUndefined();
    expect(later.getConfig({ file: source.file, text: null })).toBeUndefined();
  });

  it('a configuration set in a run that found a cache is written to its index', () => {
    const { file } = writtenWithA();
    const second = new ResultCache(file);
    expect(second.getConfig(source)).toBeUndefined();
    second.setConfig(source, loaded);
    // what the run looks up after it does not bring back the configuration on disk
    expect(second.getConfig(source)).toEqual(loaded);
    expect(second.readFacts('agent:a', 'a', () => 'A')).toBe('A');
    expect(second.get(A, 'hA')).toEqual(outA);
    second.save();
    const third = new ResultCache(file);
    expect(third.getConfig(source)).toEqual(loaded);
    expect(third.get(A, 'hA')).toEqual(outA);
  });

  it('no config file (text null) is a key of its own, not the empty text', () => {
    const { file, cache } = fresh();
    const none: LoadedConfig = { ...loaded, file: null, warnings: [], positions: new Map(), valuePositions: new Map() };
    cache.setConfig({ file: 'x', text: null }, none);
    cache.save();
    expect((readJson(file).config as { h: string }).h).toBe('-');
    const later = new ResultCache(file);
    expect(later.getConfig({ file: 'x', text: null })).toEqual(none);
    expect(later.getConfig({ file: 'x', text: '' })).toBeUndefined();
    expect(later.getConfig({ file: 'x', text: '-' })).toBeUndefined();
  });

  it('a malformed entry (no config, positions not lists) is not used', () => {
    for (const change of [{ config: null }, { positions: {} }, { valuePositions: 'x' }]) {
      const { file, cache } = fresh();
      cache.setConfig(source, loaded);
      cache.save();
      edit(file, (doc) => void Object.assign(doc.config as object, change));
      expect(new ResultCache(file).getConfig(source), JSON.stringify(change)).toBeUndefined();
    }
  });

  it('a foreign index keeps no configuration', () => {
    const { file, cache } = fresh({ root: '/a' });
    cache.setConfig(source, loaded);
    cache.save();
    expect(new ResultCache(file, { root: '/b' }).getConfig(source)).toBeUndefined();
    expect(new ResultCache(file, { root: '/a' }).getConfig(source)).toEqual(loaded);
  });
});

describe('a cache that cannot be read or written: warned about once, never an error', () => {
  it('an unwritable place: "cannot write the cache in <dir> (<CODE>: <message>); checking without it", once', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), '');
    const file = join(dir, 'file', 'sub', 'cache.json');
    const w = warnings();
    const cache = new ResultCache(file, { warn: w.warn });
    expect(cache.get(A, 'hA')).toBeUndefined();
    cache.set(A, 'hA', outA);
    cache.save();
    cache.set(job('b.md'), 'hb', outcome('b.md'));
    cache.save();
    expect(w.seen).toEqual([
      `cannot write the cache in ${join(dir, 'file', 'sub')} (ENOTDIR: not a directory, mkdir '${join(dir, 'file', 'sub')}'); checking without it`,
    ]);
    // without a warn option: silent
    const quiet = new ResultCache(file);
    quiet.set(A, 'hA', outA);
    expect(() => quiet.save()).not.toThrow();
  });

  it('a cache that cannot be read (not absent: a directory in its place) is warned about and not written', () => {
    const { dir, file } = writtenWithA();
    rmSync(file);
    mkdirSync(file);
    const w = warnings();
    const cache = new ResultCache(file, { warn: w.warn });
    expect(cache.get(A, 'hA')).toBeUndefined();
    cache.set(job('b/SKILL.md', 'skill'), 'hb', outcome('b/SKILL.md'));
    cache.save();
    expect(w.seen).toEqual([`cannot read the cache in ${dir} (EISDIR: illegal operation on a directory, read); checking without it`]);
    expect(listing(dir)).toEqual(['cache.json', 'cache.json.s04']);
  });

  it('two shards that cannot be read: one warning', () => {
    const { file, cache } = fresh();
    cache.set(A, 'hA', outA);
    cache.set(job('b/SKILL.md', 'skill'), 'hb', outcome('b/SKILL.md'));
    cache.save();
    for (const n of [4, 15]) {
      rmSync(shardFile(file, n));
      mkdirSync(shardFile(file, n));
    }
    const w = warnings();
    const later = new ResultCache(file, { warn: w.warn });
    expect(later.get(A, 'hA')).toBeUndefined();
    expect(later.get(job('b/SKILL.md', 'skill'), 'hb')).toBeUndefined();
    later.save();
    expect(w.seen).toEqual([
      `cannot read the cache in ${dirname(file)} (EISDIR: illegal operation on a directory, read); checking without it`,
    ]);
  });

  it('absent or below a file (ENOTDIR) when read: no read warning', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), '');
    const file = join(dir, 'file', 'cache.json');
    const w = warnings();
    const cache = new ResultCache(file, { warn: w.warn });
    expect(cache.get(A, 'hA')).toBeUndefined();
    expect(cache.getConfig({ file: 'x', text: null })).toBeUndefined();
    cache.save();
    expect(w.seen).toEqual([
      `cannot write the cache in ${join(dir, 'file')} (EEXIST: file already exists, mkdir '${join(dir, 'file')}'); checking without it`,
    ]);
    const absent = fresh({ warn: w.warn });
    absent.cache.set(A, 'hA', outA);
    absent.cache.save();
    expect(w.seen).toHaveLength(1);
  });

  it('a file that cannot be put in place: warned, its temporary file removed', () => {
    const { dir, file } = fresh();
    mkdirSync(shardFile(file, 4));
    const w = warnings();
    const failing = new ResultCache(file, { warn: w.warn });
    failing.set(A, 'hA', outA);
    failing.save();
    expect(w.seen).toHaveLength(1);
    const tmp = `${shardFile(file, 4)}.${process.pid}.${threadId}.`;
    const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
    expect(w.seen[0]).toMatch(
      new RegExp(
        `^cannot write the cache in ${escaped(dir)} \\(EISDIR: illegal operation on a directory, rename '${escaped(tmp)}\\d+\\.tmp' -> '${escaped(shardFile(file, 4))}'\\); checking without it$`,
        'u',
      ),
    );
    expect(listing(dir)).toEqual(['cache.json.s04']);
    expect(listing(shardFile(file, 4))).toEqual([]);
  });

  it('an error without a code is told by its message', () => {
    const w = warnings();
    const { dir, cache } = fresh({ warn: w.warn });
    cache.set(A, 'hA', outcome('a/ref.md', { big: 1n }));
    cache.save();
    expect(w.seen).toEqual([`cannot write the cache in ${dir} (Do not know how to serialize a BigInt); checking without it`]);
  });

  it('an index removed meanwhile (another process swept the folder) is no failure: nothing written, no warning', () => {
    const sweepDir = tempDir();
    const file = join(sweepDir, 'aaaaaaaaaaaaaaaa', 'cache.json');
    const sweep = { dir: sweepDir, maxBytes: MIB };
    const first = new ResultCache(file, { sweep });
    first.set(A, 'hA', outA);
    first.save();
    const w = warnings();
    const second = new ResultCache(file, { sweep, warn: w.warn });
    expect(second.get(A, 'hA')).toEqual(outA);
    rmSync(file);
    second.save();
    expect(w.seen).toEqual([]);
    expect(listing(dirname(file))).toEqual(['cache.json.s04']);
  });
});

describe('a directory of projects’ caches: the index touched, the sweep after a write', () => {
  /** A directory of caches holding a 0.4 leftover (gone when it is swept) and a project's cache file in it. */
  function cacheDir(maxBytes = MIB) {
    const dir = tempDir();
    const file = join(dir, 'aaaaaaaaaaaaaaaa', 'cache.json');
    const leftover = join(dir, 'cache-0123456789abcdef.json');
    return { dir, file, leftover, sweep: { dir, maxBytes }, plant: () => writeFileSync(leftover, 'old') };
  }

  it('a run that writes nothing marks its project used (the index time); outside such a directory it does not', () => {
    for (const swept of [true, false]) {
      const d = cacheDir();
      const options = swept ? { sweep: d.sweep } : {};
      const first = new ResultCache(d.file, options);
      first.set(A, 'hA', outA);
      first.save();
      age(d.file, 2 * DAY);
      mark(shardFile(d.file, 4));
      const second = new ResultCache(d.file, options);
      expect(second.get(A, 'hA')).toEqual(outA);
      second.save();
      expect(marked(shardFile(d.file, 4))).toBe(true);
      if (swept) expect(statSync(d.file).mtimeMs).toBeGreaterThan(Date.now() - HOUR);
      else expect(statSync(d.file).mtimeMs).toBeLessThan(Date.now() - DAY);
    }
  });

  it('a run that creates its project’s folder sweeps, even right after another sweep', () => {
    const d = cacheDir();
    writeFileSync(join(d.dir, '.swept'), '');
    d.plant();
    const cache = new ResultCache(d.file, { sweep: d.sweep });
    cache.set(A, 'hA', outA);
    cache.save();
    expect(listing(d.dir)).toEqual(['.swept', 'aaaaaaaaaaaaaaaa']);
    expect(statSync(join(d.dir, '.swept')).mtimeMs).toBeGreaterThan(Date.now() - HOUR);
  });

  it('a run that writes into its existing folder sweeps once a day: not after a sweep 23 h ago, after one 25 h ago or none', () => {
    for (const [swept, expected] of [
      [0, false],
      [23 * HOUR, false],
      [25 * HOUR, true],
      [null, true],
    ] as const) {
      const d = cacheDir();
      const first = new ResultCache(d.file, { sweep: d.sweep });
      first.set(A, 'hA', outA);
      first.save();
      rmSync(join(d.dir, '.swept'));
      if (swept !== null) {
        writeFileSync(join(d.dir, '.swept'), '');
        age(join(d.dir, '.swept'), swept);
      }
      d.plant();
      const second = new ResultCache(d.file, { sweep: d.sweep });
      second.set(job('b.md'), 'hb', outcome('b.md'));
      second.save();
      expect(existsSync(d.leftover), String(swept)).toBe(!expected);
      expect(existsSync(join(d.dir, '.swept')), String(swept)).toBe(swept !== null || expected);
    }
  });

  it('a run that writes the index only sweeps too; a run that writes nothing does not', () => {
    for (const writes of [true, false]) {
      const d = cacheDir();
      const first = new ResultCache(d.file, { sweep: d.sweep });
      first.set(A, 'hA', outA);
      first.save();
      rmSync(join(d.dir, '.swept'));
      d.plant();
      const second = new ResultCache(d.file, { sweep: d.sweep });
      expect(second.get(A, 'hA')).toEqual(outA);
      if (writes) second.readFacts('agent:a', 'a', () => 'A');
      second.save();
      expect(listing(d.dir), String(writes)).toEqual(
        writes ? ['.swept', 'aaaaaaaaaaaaaaaa'] : ['aaaaaaaaaaaaaaaa', 'cache-0123456789abcdef.json'],
      );
    }
  });

  it('the sweep removes the projects used longest ago down to the bound, never the project just checked', () => {
    const d = cacheDir(1500);
    for (const [id, days] of [
      ['0000000000000000', 3],
      ['ffffffffffffffff', 2],
    ] as const) {
      mkdirSync(join(d.dir, id));
      writeFileSync(join(d.dir, id, 'cache.json'), 'x'.repeat(1000));
      age(join(d.dir, id, 'cache.json'), days * DAY);
    }
    const cache = new ResultCache(d.file, { sweep: d.sweep });
    cache.set(A, 'hA', { ...outA, data: { pad: 'y'.repeat(2000) } });
    cache.save();
    expect(listing(d.dir)).toEqual(['.swept', 'aaaaaaaaaaaaaaaa']);
  });

  it('a sweep that fails is warned about; the cache was written', () => {
    const d = cacheDir();
    mkdirSync(join(d.dir, '.swept'));
    const w = warnings();
    const cache = new ResultCache(d.file, { sweep: d.sweep, warn: w.warn });
    cache.set(A, 'hA', outA);
    cache.save();
    expect(w.seen).toEqual([
      `cannot write the cache in ${dirname(d.file)} (EISDIR: illegal operation on a directory, open '${join(d.dir, '.swept')}'); checking without it`,
    ]);
    expect(new ResultCache(d.file).get(A, 'hA')).toEqual(outA);
  });
});

describe('sweepCaches', () => {
  /** A project folder of these files (name → bytes), its cache.json (and any file named in `ages`) aged. */
  function folder(dir: string, id: string, files: Record<string, number>, ages: Record<string, number> = {}): string {
    const path = join(dir, id);
    mkdirSync(path);
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(path, name), 'x'.repeat(bytes));
    for (const [name, ms] of Object.entries(ages)) age(join(path, name), ms);
    return path;
  }

  /** Four projects of 1000 bytes each, used 40, 30, 20 and 10 days ago (not in the order of their names). */
  function four(): string {
    const dir = tempDir();
    folder(dir, 'ffffffffffffffff', { 'cache.json': 1000 }, { 'cache.json': 40 * DAY });
    folder(dir, '0000000000000000', { 'cache.json': 1000 }, { 'cache.json': 30 * DAY });
    folder(dir, 'aaaaaaaaaaaaaaaa', { 'cache.json': 1000 }, { 'cache.json': 20 * DAY });
    folder(dir, 'bbbbbbbbbbbbbbbb', { 'cache.json': 1000 }, { 'cache.json': 10 * DAY });
    return dir;
  }
  const ALL = ['0000000000000000', 'aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb', 'ffffffffffffffff'];
  const keepNone = '/nowhere';

  it('removes the projects used longest ago (by their index time) until the rest fits; none when they fit exactly', () => {
    const cases: [number, string, string[]][] = [
      [4000, keepNone, ALL],
      [3999, keepNone, ['0000000000000000', 'aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb']],
      [2000, keepNone, ['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb']],
      [3000, 'ffffffffffffffff', ['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb', 'ffffffffffffffff']],
      [0, 'aaaaaaaaaaaaaaaa', ['aaaaaaaaaaaaaaaa']],
    ];
    for (const [maxBytes, keep, left] of cases) {
      const dir = four();
      sweepCaches(dir, maxBytes, keep === keepNone ? keep : join(dir, keep));
      expect(listing(dir), `${maxBytes} ${keep}`).toEqual(['.swept', ...left]);
      expect(readFileSync(join(dir, '.swept'), 'utf8')).toBe('');
    }
  });

  it('counts every file of a project and stops as soon as the rest fits', () => {
    const dir = tempDir();
    folder(dir, '1111111111111111', { 'cache.json': 50, 'cache.json.s00': 50 }, { 'cache.json': 3 * DAY });
    folder(dir, '2222222222222222', { 'cache.json': 100, 'cache.json.s03': 4900 }, { 'cache.json': 2 * DAY });
    folder(dir, '3333333333333333', { 'cache.json': 100 }, { 'cache.json': DAY });
    sweepCaches(dir, 5100, keepNone);
    expect(listing(dir)).toEqual(['.swept', '2222222222222222', '3333333333333333']);
    sweepCaches(dir, 5099, keepNone);
    expect(listing(dir)).toEqual(['.swept', '3333333333333333']);
  });

  it('a project’s time is its index’s, not its shards’; a project without an index goes first', () => {
    const dir = tempDir();
    folder(dir, 'cccccccccccccccc', { 'cache.json': 100, 'cache.json.s00': 100 }, { 'cache.json': 50 * DAY });
    folder(dir, 'dddddddddddddddd', { 'cache.json': 100, 'cache.json.s00': 100 }, { 'cache.json': 5 * DAY, 'cache.json.s00': 60 * DAY });
    folder(dir, 'eeeeeeeeeeeeeeee', { 'cache.json.s00': 100 });
    sweepCaches(dir, 400, keepNone);
    expect(listing(dir)).toEqual(['.swept', 'cccccccccccccccc', 'dddddddddddddddd']);
    sweepCaches(dir, 200, keepNone);
    expect(listing(dir)).toEqual(['.swept', 'dddddddddddddddd']);
  });

  it('removes the single-file caches of loopkit 0.4, and nothing else that looks like them', () => {
    const dir = tempDir();
    const gone = ['cache-0123456789abcdef.json', 'cache-0123456789abcdef.json.s00', 'cache-fedcba9876543210.json.s15'];
    const kept = [
      'cache-0123456789ABCDEF.json',
      'cache-0123456789abcde.json',
      'cache-0123456789abcdef0.json',
      'xcache-0123456789abcdef.json',
      'cache-0123456789abcdef.jsonx',
      'cache-0123456789abcdef.json.s1',
      'cache-0123456789abcdef.json.s001',
      'cache-0123456789abcdef.json.sab',
      'cache-0123456789abcdefXjson',
      'cache-0123456789abcdef.txt',
      'cache-0123456789abcdef.json.s00x',
    ];
    for (const f of [...gone, ...kept]) writeFileSync(join(dir, f), 'x');
    mkdirSync(join(dir, 'cache-1111111111111111.json'));
    writeFileSync(join(dir, 'cache-1111111111111111.json', 'inside'), 'x');
    // a file with a project's name is no project
    writeFileSync(join(dir, '2222222222222222'), 'x'.repeat(100));
    sweepCaches(dir, 0, keepNone);
    expect(listing(dir)).toEqual(['.swept', '2222222222222222', ...kept, 'cache-1111111111111111.json'].sort());
  });

  it('removes temporary files and folders older than an hour, not younger ones', () => {
    const dir = tempDir();
    const files: [string, number, boolean][] = [
      ['index.1.0.1.tmp', 2 * HOUR, false],
      ['young.1.0.2.tmp', 30 * MINUTE, true],
      ['old.gone', 2 * HOUR, false],
      ['new.gone', 0, true],
      ['old.txt', 2 * HOUR, true],
    ];
    for (const [name, ms] of files) {
      writeFileSync(join(dir, name), 'x');
      age(join(dir, name), ms);
    }
    const dirs: [string, number, boolean][] = [
      ['4444444444444444.9.0.gone', 2 * HOUR, false],
      ['5555555555555555.9.0.gone', 30 * MINUTE, true],
      ['old-dir.tmp', 2 * HOUR, true],
      ['notes', 2 * HOUR, true],
      ['old-0123456789abcdef', 2 * HOUR, true],
    ];
    for (const [name, ms] of dirs) {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'inside'), 'x'.repeat(5000));
      age(join(dir, name), ms);
    }
    // in a project's folder: an old temporary file is removed and not counted
    folder(
      dir,
      '6666666666666666',
      { 'cache.json': 100, 'cache.json.1.0.3.tmp': 10000, 'cache.json.1.0.4.tmp': 100, 'cache.json.s00': 100 },
      { 'cache.json.1.0.3.tmp': 2 * HOUR, 'cache.json.1.0.4.tmp': 30 * MINUTE, 'cache.json.s00': 2 * HOUR },
    );
    sweepCaches(dir, 300, keepNone);
    const left = [...files, ...dirs].filter(([, , keep]) => keep).map(([name]) => name);
    expect(listing(dir)).toEqual(['.swept', '6666666666666666', ...left].sort());
    expect(listing(join(dir, '6666666666666666'))).toEqual(['cache.json', 'cache.json.1.0.4.tmp', 'cache.json.s00']);
    sweepCaches(dir, 299, keepNone);
    expect(listing(dir)).not.toContain('6666666666666666');
  });

  it('a project that cannot be moved aside is left, and the next is removed instead; a dangling link in a project is skipped', () => {
    const dir = four();
    // another sweep is removing the oldest one: its `.gone` name is taken
    const first = join(dir, 'ffffffffffffffff');
    mkdirSync(`${first}.${process.pid}.${threadId}.gone`);
    writeFileSync(join(`${first}.${process.pid}.${threadId}.gone`, 'x'), 'x');
    symlinkSync(join(dir, 'missing'), join(dir, 'bbbbbbbbbbbbbbbb', 'link'));
    sweepCaches(dir, 3000, keepNone);
    expect(listing(dir)).toEqual(
      ['.swept', 'aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb', `ffffffffffffffff.${process.pid}.${threadId}.gone`, 'ffffffffffffffff'].sort(),
    );
  });
});
