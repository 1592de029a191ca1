/**
 * The cache as the CLI uses it: on by default, in the user's cache directory (never in the checked
 * project), one folder per project, turned off by --no-cache or LOOPKIT_NO_CACHE; safe with two
 * runs at once, a read-only or unusable cache directory, a corrupted shard; bounded, the projects
 * used longest ago removed first. Every cached report is the uncached one, byte for byte.
 * (The keys and their invalidation on the library's side: test/modes.test.ts.)
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { isAscii } from 'node:buffer';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asciiOnly } from '../scripts/bundle.mjs';
import { projectId, sweepCaches } from '../src/engine/cache.js';
import { BIN, cleanEnv, run, spawnCli, Temps } from './helpers/cli.js';
import { PERMISSIONS } from './helpers/permissions.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

/** A project and a cache directory of its own; `env` points the cache there. */
function setup(project = 'with-errors') {
  const dir = temps.copy(project);
  const cacheDir = join(temps.dir('loopkit-cache-dir-'), 'loopkit');
  return { dir, cacheDir, env: { LOOPKIT_CACHE_DIR: cacheDir } };
}

const projectFolders = (cacheDir: string) => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((f) => /^[0-9a-f]{16}$/u.test(f)) : []);
const fromCache = (stderr: string) => /files .*\((\d+) from the cache, (\d+) parsed/u.exec(stderr)!.slice(1).map(Number);

describe('the cache of loopkit check', () => {
  it('is on by default, in $XDG_CACHE_HOME/loopkit, else ~/.cache/loopkit: one folder per project, named by its root', async () => {
    const dir = temps.copy('with-errors');
    const home = temps.dir('loopkit-home-');
    const xdg = join(home, 'xdg');
    const cold = await run([dir, '--json', '--no-cache']);
    const first = await run([dir, '--json'], { env: { LOOPKIT_CACHE_DIR: '', XDG_CACHE_HOME: xdg } });
    expect(first.stdout).toBe(cold.stdout);
    const id = projectId(realpathSync(dir));
    expect(readdirSync(join(xdg, 'loopkit'))).toContain(id);
    expect(existsSync(join(xdg, 'loopkit', id, 'cache.json'))).toBe(true);
    // without XDG_CACHE_HOME: ~/.cache/loopkit
    const env = { LOOPKIT_CACHE_DIR: '', XDG_CACHE_HOME: '', HOME: home };
    await run([dir], { env });
    expect(existsSync(join(home, '.cache', 'loopkit', id, 'cache.json'))).toBe(true);
    const again = await run([dir, '--json', '--timing'], { env });
    expect(again.stdout).toBe(cold.stdout);
    const [cached, parsed] = fromCache(again.stderr);
    expect(parsed).toBe(0);
    expect(cached).toBeGreaterThan(0);
  });

  it('--no-cache and LOOPKIT_NO_CACHE=1 turn it off; --cache wins over the variable; LOOPKIT_NO_CACHE=0 does not', async () => {
    const { dir, cacheDir, env } = setup();
    const off = await run([dir, '--json', '--timing'], { env: { ...env, LOOPKIT_NO_CACHE: '1' } });
    expect(fromCache(off.stderr)[0]).toBe(0);
    // the variable turns off every cache of loopkit: nothing is written
    expect(existsSync(cacheDir)).toBe(false);
    const plain = await run([dir, '--json', '--no-cache'], { env });
    expect(off.stdout).toBe(plain.stdout);
    // --no-cache, the results' cache (the program's compiled code is kept: see below)
    expect(projectFolders(cacheDir)).toEqual([]);
    expect((await run([dir, '--json', '--cache'], { env: { ...env, LOOPKIT_NO_CACHE: '1' } })).stdout).toBe(plain.stdout);
    expect(projectFolders(cacheDir)).toHaveLength(1);
    const on = await run([dir, '--json', '--timing'], { env: { ...env, LOOPKIT_NO_CACHE: '0' } });
    expect(on.stdout).toBe(plain.stdout);
    expect(fromCache(on.stderr)[1]).toBe(0);
  });

  it('a cache directory that cannot be created: one warning on stderr, the same report and exit code', async () => {
    const { dir } = setup();
    const file = join(temps.dir(), 'a-file');
    writeFileSync(file, 'not a directory\n');
    const plain = await run([dir, '--no-cache']);
    const r = await run([dir], { env: { LOOPKIT_CACHE_DIR: join(file, 'loopkit') } });
    expect(r.stdout).toBe(plain.stdout);
    expect(r.status).toBe(plain.status);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('loopkit: warning:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^loopkit: warning: cannot write the cache in .*a-file.*\(ENOTDIR: .*\); checking without it$/u);
  });

  it.skipIf(!PERMISSIONS.apply)(
    `a read-only cache directory: one warning, the same report, nothing written${PERMISSIONS.apply ? '' : ` (skipped: ${PERMISSIONS.why})`}`,
    () => {
      const { dir, cacheDir } = setup();
      // the checking user (root checks as `nobody`) can read the project and the cache, not write the cache
      for (const d of spawnSync('find', [dir, '-type', 'd'], { encoding: 'utf8' }).stdout.trim().split('\n')) chmodSync(d, 0o755);
      for (const f of spawnSync('find', [dir, '-type', 'f'], { encoding: 'utf8' }).stdout.trim().split('\n')) chmodSync(f, 0o644);
      mkdirSync(cacheDir, { recursive: true });
      chmodSync(join(cacheDir, '..'), 0o755);
      chmodSync(cacheDir, 0o555);
      const as = (args: string[]) =>
        spawnSync(process.execPath, [BIN, ...args], {
          encoding: 'utf8',
          env: cleanEnv({ LOOPKIT_CACHE_DIR: cacheDir }),
          ...PERMISSIONS.as,
        });
      const plain = as([dir, '--no-cache']);
      const r = as([dir]);
      expect(r.stdout).toBe(plain.stdout);
      expect(r.status).toBe(plain.status);
      expect(r.stderr.split('\n').filter((l) => l.startsWith('loopkit: warning:'))).toEqual([
        expect.stringMatching(/^loopkit: warning: cannot write the cache in .*\((EACCES|EROFS|EPERM): .*\); checking without it$/u),
      ]);
      expect(readdirSync(cacheDir)).toEqual([]);
    },
  );

  it('two runs at once on the same project and cache: both report what an uncached run does, and the cache is whole after', async () => {
    const { dir, env } = setup();
    const plain = (await run([dir, '--json', '--no-cache'])).stdout;
    const once = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, dir, '--json'], { env: cleanEnv(env) });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.on('error', reject);
        child.on('close', () => resolve(out));
      });
    const skill = join(dir, 'skills', 'running-a', 'SKILL.md');
    const text = readFileSync(skill, 'utf8');
    for (let round = 0; round < 3; round++) {
      // each round, one file changed: both runs parse it and write its shard at once
      writeFileSync(skill, `${text}\nRound ${round}.\n`);
      const expected = (await run([dir, '--json', '--no-cache'])).stdout;
      const [a, b] = await Promise.all([once(), once()]);
      expect(a).toBe(expected);
      expect(b).toBe(expected);
    }
    writeFileSync(skill, text);
    await run([dir], { env });
    const after = await run([dir, '--json', '--timing'], { env });
    expect(after.stdout).toBe(plain);
    expect(fromCache(after.stderr)[1]).toBe(0);
    // no temporary file left behind
    const folder = join(env.LOOPKIT_CACHE_DIR, projectFolders(env.LOOPKIT_CACHE_DIR)[0]!);
    expect(readdirSync(folder).filter((f) => !/^cache\.json(?:\.s\d\d)?$/u.test(f))).toEqual([]);
  });

  it('a cache file written for another project root is not used (--cache-location shared by two copies of a project)', async () => {
    const a = temps.copy('with-errors');
    const b = temps.copy('with-errors');
    const cache = join(temps.dir('loopkit-cache-file-'), 'cache.json');
    const plain = (await run([b, '--json', '--no-cache'])).stdout;
    await run([a, '--cache-location', cache]);
    // the same root again reads it all …
    expect(fromCache((await run([a, '--timing', '--cache-location', cache])).stderr)[1]).toBe(0);
    // … another root, with files of the same paths and contents, parses every file
    const other = await run([b, '--json', '--timing', '--cache-location', cache]);
    expect(other.stdout).toBe(plain);
    const [cached, parsed] = fromCache(other.stderr);
    expect(cached).toBe(0);
    expect(parsed).toBeGreaterThan(0);
  });

  it('a cache written by another build of the same version is not read (its cached configuration lacked a key this build reads, and crashed it)', () => {
    const { dir, cacheDir, env } = setup();
    const plain = spawnCli([dir, '--json', '--no-cache']);
    spawnCli([dir], { env });
    const folder = join(cacheDir, projectFolders(cacheDir)[0]!);
    const indexFile = join(folder, 'cache.json');
    const index = JSON.parse(readFileSync(indexFile, 'utf8')) as { build: string; config?: { config: Record<string, unknown> } };
    // the build that wrote it is named in every file of the cache (bin/loopkit.js runs the bundle, stamped by scripts/bundle.mjs)
    expect(index.build).toMatch(/^[0-9a-f]{16}$/u);
    expect(index.config?.config).toHaveProperty('agents');
    // an older build's cache: the same version and format, a configuration of an older shape
    delete index.config!.config.agents;
    writeFileSync(indexFile, JSON.stringify({ ...index, build: '0123456789abcdef' }));
    const r = spawnCli([dir, '--json', '--timing'], { env });
    expect(r.stderr).not.toContain('internal error');
    expect(r.stdout).toBe(plain.stdout);
    expect(r.status).toBe(plain.status);
    expect(fromCache(r.stderr)).toEqual([0, expect.any(Number)]);
    expect((JSON.parse(readFileSync(indexFile, 'utf8')) as { build: string }).build).toBe(index.build);
  });

  it('a corrupted shard: its files are parsed again, the report is the same, the shard is rewritten', async () => {
    const { dir, cacheDir, env } = setup();
    const plain = (await run([dir, '--json', '--no-cache'])).stdout;
    await run([dir], { env });
    const folder = join(cacheDir, projectFolders(cacheDir)[0]!);
    const shards = readdirSync(folder).filter((f) => /\.s\d\d$/u.test(f));
    expect(shards.length).toBeGreaterThan(0);
    writeFileSync(join(folder, shards[0]!), '{"magic":"loopkit-cache","entries":{"skill:');
    const r = await run([dir, '--json', '--timing'], { env });
    expect(r.stdout).toBe(plain);
    expect(r.stderr).not.toContain('warning');
    expect(fromCache(r.stderr)[1]).toBeGreaterThan(0);
    expect(fromCache((await run([dir, '--timing'], { env })).stderr)[1]).toBe(0);
  });

  it('keeps what agent files say, by their text: a cached run reads them without parsing, and an edited one is read again', async () => {
    const dir = temps.dir('loopkit-agents-');
    const cacheDir = join(temps.dir('loopkit-cache-dir-'), 'loopkit');
    const env = { LOOPKIT_CACHE_DIR: cacheDir };
    mkdirSync(join(dir, '.claude/skills/planning'), { recursive: true });
    mkdirSync(join(dir, '.claude/agents'), { recursive: true });
    writeFileSync(
      join(dir, '.claude/skills/planning/SKILL.md'),
      '---\nname: planning\ndescription: Plans the work. Use when a task starts.\n---\n# Planning\n',
    );
    const agent = join(dir, '.claude/agents/reviewer.md');
    // a key indented below a plain value: no YAML loader reads it, Claude Code's second reading neither
    writeFileSync(agent, '---\nname: reviewer\ndescription: Reviews code.\n  tools: Read\n---\nReview the change.\n');
    const plain = (await run([dir, '--json', '--no-cache'])).stdout;
    expect(plain).toContain('agent-invalid-frontmatter');
    expect((await run([dir, '--json'], { env })).stdout).toBe(plain);
    const index = JSON.parse(readFileSync(join(cacheDir, projectFolders(cacheDir)[0]!, 'cache.json'), 'utf8')) as {
      read?: Record<string, unknown>;
    };
    expect(Object.keys(index.read ?? {})).toEqual(['agent\u0000.claude/agents/reviewer.md\u0000claude-code']);
    expect((await run([dir, '--json'], { env })).stdout).toBe(plain);
    // the file mended: read again, the finding gone as without the cache
    writeFileSync(agent, '---\nname: reviewer\ndescription: Reviews code.\ntools: Read\n---\nReview the change.\n');
    const mended = (await run([dir, '--json', '--no-cache'])).stdout;
    expect(mended).not.toContain('agent-invalid-frontmatter');
    expect((await run([dir, '--json'], { env })).stdout).toBe(mended);
  });

  it('is bounded: past LOOPKIT_CACHE_MAX_MB, the projects used longest ago are removed, never the one checked', async () => {
    const cacheDir = join(temps.dir('loopkit-cache-dir-'), 'loopkit');
    const projects = [temps.copy('with-errors'), temps.copy('clean'), temps.copy('seed-skills')];
    // about one project's cache
    const env = { LOOPKIT_CACHE_DIR: cacheDir, LOOPKIT_CACHE_MAX_MB: '0.03' };
    const ids = projects.map((p) => projectId(realpathSync(p)));
    await run([projects[0]!], { env });
    expect(projectFolders(cacheDir)).toEqual([ids[0]]);
    // the first project's folder looks old: it goes first
    const old = new Date(Date.now() - 3600_000);
    utimesSync(join(cacheDir, ids[0]!, 'cache.json'), old, old);
    await run([projects[1]!], { env });
    await run([projects[2]!], { env });
    const left = projectFolders(cacheDir);
    expect(left).toContain(ids[2]);
    expect(left).not.toContain(ids[0]);
  });
});

describe("the program's code cache (dist/cli.cjs with V8's code cache, src/boot.ts)", () => {
  it('is written by the first run into code/, used by the next, refused and rewritten when broken; never with LOOPKIT_NO_CACHE', async () => {
    const { dir, cacheDir, env } = setup();
    const off = spawnCli([dir, '--json'], { env: { ...env, LOOPKIT_NO_CACHE: '1' } });
    expect(existsSync(cacheDir)).toBe(false);
    const first = spawnCli([dir, '--json'], { env });
    expect(first.stdout).toBe(off.stdout);
    const code = join(cacheDir, 'code');
    const files = readdirSync(code);
    expect(files).toEqual([expect.stringMatching(new RegExp(`^cli-${process.version.replace(/\./gu, '\\.')}-\\d+-\\d+\\.bin$`, 'u'))]);
    const made = statSync(join(code, files[0]!));
    expect(made.size).toBeGreaterThan(100_000);
    // used, not written again
    expect(spawnCli([dir, '--json', '--no-cache'], { env }).stdout).toBe(off.stdout);
    expect(statSync(join(code, files[0]!)).mtimeMs).toBe(made.mtimeMs);
    // broken: V8 refuses it, the run is the same, and it is written anew
    writeFileSync(join(code, files[0]!), 'not code');
    const broken = spawnCli([dir, '--json'], { env });
    expect(broken.stdout).toBe(off.stdout);
    expect(broken.stderr).toBe('');
    expect(statSync(join(code, files[0]!)).size).toBeGreaterThan(100_000);
    expect(readdirSync(code)).toEqual(files);
  });

  it('is all ASCII, which src/boot.ts reads as Latin-1; asciiOnly escapes what esbuild leaves in regular expressions to the same meaning', () => {
    expect(isAscii(readFileSync(join(BIN, '..', '..', 'dist', 'cli.cjs')))).toBe(true);
    const program =
      String.raw`exports.arrow = /[^\s→>]+?(→|->)/u; exports.escaped = /a\→b/; exports.wide = /^😀{2}$/u; exports.raw = new RegExp(String.raw` +
      '`^x\\s*(→)$`' +
      String.raw`, 'u');`;
    const escaped = asciiOnly(program);
    expect(isAscii(Buffer.from(escaped))).toBe(true);
    const load = (code: string) => {
      const m = { exports: {} as Record<string, RegExp> };
      new Function('exports', code)(m.exports);
      return m.exports;
    };
    const [before, after] = [load(program), load(escaped)];
    for (const [name, text] of [
      ['arrow', 'ab→'],
      ['arrow', 'ab->'],
      ['arrow', 'a b'],
      ['escaped', 'a→b'],
      ['escaped', 'a\\→b'],
      ['wide', '😀😀'],
      ['wide', '😀'],
      ['raw', 'x →'],
      ['raw', 'x ->'],
    ] as const)
      expect([name, text, after[name]!.test(text)]).toEqual([name, text, before[name]!.test(text)]);
  });
});

describe('sweepCaches', () => {
  it('removes the folders used longest ago until the directory is within its bound, the kept one never; 0.4 caches and stale temporary files too', () => {
    const dir = temps.dir('loopkit-sweep-');
    const folder = (id: string, bytes: number, hoursAgo: number) => {
      mkdirSync(join(dir, id));
      writeFileSync(join(dir, id, 'cache.json'), 'x'.repeat(bytes));
      const t = new Date(Date.now() - hoursAgo * 3600_000);
      utimesSync(join(dir, id, 'cache.json'), t, t);
    };
    folder('aaaaaaaaaaaaaaaa', 400, 5);
    folder('bbbbbbbbbbbbbbbb', 400, 3);
    folder('cccccccccccccccc', 400, 1);
    folder('dddddddddddddddd', 400, 9);
    writeFileSync(join(dir, 'cache-0123456789abcdef.json'), '{}');
    writeFileSync(join(dir, 'cache-0123456789abcdef.json.s03'), '{}');
    writeFileSync(join(dir, 'notes.txt'), 'not ours');
    const tmp = join(dir, 'cccccccccccccccc', 'cache.json.s01.123.0.1.tmp');
    writeFileSync(tmp, 'half');
    const old = new Date(Date.now() - 2 * 3600_000);
    utimesSync(tmp, old, old);
    sweepCaches(dir, 1000, join(dir, 'dddddddddddddddd'));
    // 1,600 bytes: the oldest but the kept one go (a, then b) until 800 are left
    expect(readdirSync(dir).sort()).toEqual(['.swept', 'cccccccccccccccc', 'dddddddddddddddd', 'notes.txt']);
    expect(statSync(join(dir, 'cccccccccccccccc', 'cache.json')).size).toBe(400);
    expect(existsSync(tmp)).toBe(false);
  });
});
