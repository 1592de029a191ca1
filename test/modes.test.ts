/**
 * The per-file phase can run three ways — parsed on this thread, taken from the result cache, or
 * parsed on worker threads — and every way gives the same report, byte for byte, on every fixture
 * and example. Uses the built package (dist/, made by `npm test` before vitest runs), since the
 * worker threads run the bundle. Also: the cache is never stale (content, config, sibling files,
 * version), and a corrupt or foreign cache file is ignored and rewritten.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonReport, lint, textReport, VERSION, WorkerPool, type LintResult } from '../dist/index.js';
import { RACY_MS } from '../src/engine/cache.js';
import { listCases, ruleFixtureCodes, FIXTURES } from './helpers/fixtures.js';

const ROOT = join(import.meta.dirname, '..');
const WORKER = pathToFileURL(join(ROOT, 'dist', 'worker.js'));
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'superpowers');

const temps: string[] = [];
const temp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  temps.push(d);
  return d;
};
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

/** Every project the suite knows: each rule fixture case, the CLI projects, the examples, the repo. */
function projects(): string[] {
  const out = [ROOT, join(ROOT, 'examples', 'loop'), join(ROOT, 'examples', 'loop-controller')];
  for (const p of readdirSync(join(FIXTURES, 'projects'))) out.push(join(FIXTURES, 'projects', p));
  for (const code of ruleFixtureCodes()) for (const c of listCases(code)) out.push(c.dir);
  return out;
}

const report = (r: LintResult) => `${jsonReport(r)}${textReport(r, { color: false })}`;

async function reportOf(root: string, options: Parameters<typeof lint>[0] extends infer O ? Omit<O, 'root'> : never): Promise<string> {
  try {
    return report(await lint({ root, ...options }));
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
}

describe('cold, cached and parallel runs report the same, byte for byte', () => {
  let pool: WorkerPool;
  const all = projects();
  beforeAll(() => {
    pool = new WorkerPool(WORKER, 2);
  });
  afterAll(async () => {
    await pool.close();
  });

  it(`on every fixture and example (${all.length} projects)`, async () => {
    const cacheDir = temp('loopkit-modes-');
    let checked = 0;
    let unread = 0;
    for (const [i, root] of all.entries()) {
      const cold = await reportOf(root, { concurrency: 'off' });
      const cacheFile = join(cacheDir, `${i}.json`);
      const filling = await reportOf(root, { cacheFile });
      const cached = await lint({ root, cacheFile }).catch(() => null);
      const parallel = await reportOf(root, { pool });
      expect(filling, root).toBe(cold);
      expect(cached ? report(cached) : await reportOf(root, { cacheFile }), root).toBe(cold);
      expect(parallel, root).toBe(cold);
      unread += cached?.timing.runner.unread ?? 0;
      checked++;
    }
    expect(checked).toBe(all.length);
    // the checked-out files are older than RACY_MS: the cached runs took most of them by size and times alone
    expect(unread).toBeGreaterThan(0);
  }, 600_000);

  it.skipIf(!existsSync(CORPUS))(
    'on the real skills of the corpus, parsed on worker threads in both batches',
    async () => {
      const root = temp('loopkit-modes-corpus-');
      cpSync(join(CORPUS, 'skills'), join(root, 'skills'), { recursive: true });
      const cold = await reportOf(root, { concurrency: 'off' });
      expect(await reportOf(root, { pool })).toBe(cold);
      // the bundled CLI's own threads, started by --concurrency
      expect(await reportOf(root, { concurrency: 2, workerScript: WORKER })).toBe(cold);
    },
    120_000,
  );
});

describe('the result cache', () => {
  /** A copy of the TDD-team project with its own cache file. */
  function project() {
    const root = temp('loopkit-cache-');
    cpSync(join(ROOT, 'skills'), join(root, 'skills'), { recursive: true });
    cpSync(join(ROOT, '.loopkit.yaml'), join(root, '.loopkit.yaml'));
    return { root, cacheFile: join(temp('loopkit-cache-file-'), 'cache.json') };
  }
  const run = (root: string, cacheFile?: string) => lint({ root, ...(cacheFile ? { cacheFile } : {}) });

  it('keeps only what changed up to date: one changed file rewrites one shard', async () => {
    const { root, cacheFile } = project();
    await run(root, cacheFile);
    const dir = dirname(cacheFile);
    // a shard is written to a new file and renamed into place: a rewritten shard is another file
    // (inode), whatever its content and however coarse the clock of the file system
    const shards = () =>
      new Map(
        readdirSync(dir)
          .filter((f) => /\.s\d\d$/u.test(f))
          .map((f) => [f, `${statSync(join(dir, f)).ino}:${readFileSync(join(dir, f), 'utf8')}`]),
      );
    const before = shards();
    expect(before.size).toBeGreaterThan(1);
    const skill = join(root, 'skills', 'writing-stories', 'SKILL.md');
    writeFileSync(skill, `${readFileSync(skill, 'utf8')}\nOne more line.\n`);
    await run(root, cacheFile);
    const after = shards();
    expect([...after].filter(([f, t]) => before.get(f) !== t)).toHaveLength(1);
  });

  it('is written only when asked for, where asked, and is used on the next run', async () => {
    const { root, cacheFile } = project();
    const first = await run(root, cacheFile);
    expect(first.timing.runner.cached).toBe(0);
    const files = first.timing.runner.parsed;
    expect(files).toBe(10); // 5 × SKILL.md and LOOP.md
    expect(existsSync(cacheFile)).toBe(true);
    const second = await run(root, cacheFile);
    expect(second.timing.runner).toMatchObject({ cached: files, parsed: 0 });
    expect(report(second)).toBe(report(first));
  });

  it('recomputes exactly a changed file', async () => {
    const { root, cacheFile } = project();
    await run(root, cacheFile);
    const loop = join(root, 'skills', 'running-tdd-loops', 'LOOP.md');
    writeFileSync(loop, readFileSync(loop, 'utf8').replace('1. Write the failing test', '1. Draft the failing test'));
    const after = await run(root, cacheFile);
    expect(after.timing.runner.parsed).toBe(1);
    expect(after.diagnostics.map((d) => d.message)).toContain("Non-standard verb 'Draft' in LOOP.md for `running-tdd-loops` at line 15");
    expect(report(after)).toBe(report(await run(root)));
  });

  it('keeps files across a config change, and the report follows the new config', async () => {
    const { root, cacheFile } = project();
    await run(root, cacheFile);
    // `write` is no longer a standard verb
    writeFileSync(join(root, '.loopkit.yaml'), readFileSync(join(root, '.loopkit.yaml'), 'utf8').replace('  - write\n', ''));
    const after = await run(root, cacheFile);
    expect(after.timing.runner.parsed).toBe(0);
    expect(after.diagnostics.filter((d) => d.message.startsWith("Non-standard verb 'Write'")).length).toBeGreaterThan(0);
    expect(report(after)).toBe(report(await run(root)));
  });

  it('recomputes SKILL.md when a markdown file appears next to it', async () => {
    const { root, cacheFile } = project();
    await run(root, cacheFile);
    writeFileSync(join(root, 'skills', 'running-tdd-loops', 'notes.md'), '# Notes\n');
    const after = await run(root, cacheFile);
    expect(after.timing.runner.parsed).toBe(1);
    expect(after.diagnostics.filter((d) => d.code === 'skill-orphan-reference').map((d) => d.file)).toEqual([
      'skills/running-tdd-loops/notes.md',
    ]);
    expect(report(after)).toBe(report(await run(root)));
  });

  it('ignores the cache of another loopkit version, and rewrites it', async () => {
    const { root, cacheFile } = project();
    await run(root, cacheFile);
    const doc = JSON.parse(readFileSync(cacheFile, 'utf8')) as { version: string };
    expect(doc.version).toBe(VERSION);
    writeFileSync(cacheFile, JSON.stringify({ ...doc, version: '0.0.1' }));
    const after = await run(root, cacheFile);
    expect(after.timing.runner.cached).toBe(0);
    expect((JSON.parse(readFileSync(cacheFile, 'utf8')) as { version: string }).version).toBe(VERSION);
  });

  it.each([
    ['corrupt', '{"magic":"loopkit-cache","entries":{'],
    ['foreign', JSON.stringify({ eslint: true, files: {} })],
    ['binary', '\u0000\u0001\u0002'],
    [
      'of the wrong shape',
      JSON.stringify({ magic: 'loopkit-cache', version: VERSION, format: 1, entries: { 'skill:x': { h: 1, o: null } } }),
    ],
  ])('ignores a %s cache file and rewrites it', async (_what, text) => {
    const { root, cacheFile } = project();
    const cold = await run(root);
    writeFileSync(cacheFile, text);
    const after = await run(root, cacheFile);
    expect(report(after)).toBe(report(cold));
    expect(after.timing.runner.cached).toBe(0);
    expect((JSON.parse(readFileSync(cacheFile, 'utf8')) as { magic: string }).magic).toBe('loopkit-cache');
    expect((await run(root, cacheFile)).timing.runner.parsed).toBe(0);
  });

  describe('stat first', () => {
    /** Let the files' times settle (older than RACY_MS), so that their stamps alone can be trusted. */
    const settle = () => new Promise((resolve) => setTimeout(resolve, RACY_MS + 200));

    it('a file written just now is read and hashed on every run until its times are older than RACY_MS', async () => {
      const { root, cacheFile } = project();
      const first = await run(root, cacheFile);
      const second = await run(root, cacheFile);
      expect(second.timing.runner).toMatchObject({ unread: 0, parsed: 0 });
      await settle();
      // the entries are stamped again, now settled …
      expect((await run(root, cacheFile)).timing.runner).toMatchObject({ unread: 0, parsed: 0 });
      // … and from then on nothing is read
      const files = first.timing.runner.parsed;
      const third = await run(root, cacheFile);
      expect(third.timing.runner).toMatchObject({ unread: files, cached: files, parsed: 0 });
      expect(report(third)).toBe(report(first));
    });

    it('a changed file of the same size with its modification time put back is read again (its change time moved)', async () => {
      const { root, cacheFile } = project();
      await settle();
      await run(root, cacheFile);
      const loop = join(root, 'skills', 'running-tdd-loops', 'LOOP.md');
      const before = statSync(loop);
      const text = readFileSync(loop, 'utf8');
      const changed = text.replace('1. Write the failing test', '1. Draft the failing test');
      expect(changed.length).toBe(text.length);
      writeFileSync(loop, changed);
      utimesSync(loop, before.atime, before.mtime);
      const after = await run(root, cacheFile);
      expect(after.timing.runner.parsed).toBe(1);
      expect(after.diagnostics.map((d) => d.message)).toContain("Non-standard verb 'Draft' in LOOP.md for `running-tdd-loops` at line 15");
      expect(report(after)).toBe(report(await run(root)));
    });

    it('an unchanged SKILL.md is parsed again when a markdown file appears next to it', async () => {
      const { root, cacheFile } = project();
      await settle();
      await run(root, cacheFile);
      writeFileSync(join(root, 'skills', 'running-tdd-loops', 'notes.md'), '# Notes\n');
      const after = await run(root, cacheFile);
      expect(after.timing.runner.parsed).toBe(1);
      expect(report(after)).toBe(report(await run(root)));
    });
  });

  it('keeps YAML values JSON cannot write (infinity, NaN)', async () => {
    const { root, cacheFile } = project();
    const skill = join(root, 'skills', 'writing-stories', 'SKILL.md');
    writeFileSync(skill, readFileSync(skill, 'utf8').replace('metadata:\n', 'metadata:\n  ratio: .inf\n  odd: .nan\n'));
    const cold = await run(root);
    await run(root, cacheFile);
    expect(report(await run(root, cacheFile))).toBe(report(cold));
  });
});
