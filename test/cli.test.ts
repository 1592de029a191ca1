/**
 * End-to-end: the command line's main in this process (test/helpers/cli.ts), and the real
 * `bin/loopkit.js` in a child process (built by `npm test` before vitest runs) for what only the
 * bundle shows: the --version shortcut, its worker threads, its code cache, the modules it loads.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { colorEnabled, main, type CliIo } from '../src/cli.js';
import { BIN, noStack, ROOT, run as runCli, spawnCli, type Run } from './helpers/cli.js';

const PROJECTS = join(ROOT, 'fixtures', 'projects');
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'superpowers');

/** `loopkit <args>` by main in this process, in `cwd`, with the test's environment and `env`. */
const run = (args: string[], env: Record<string, string> = {}, cwd = ROOT): Promise<Run> => runCli(args, { env, cwd });

/** `loopkit <args>` by the real bin/loopkit.js in a child process. */
const bin = (args: string[], env: Record<string, string> = {}, cwd = ROOT): Run => spawnCli(args, { env, cwd });

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});
/** A skill with a valid name and description at `rel` (its name: the folder's, unless given). */
function writeSkill(dir: string, rel: string, name = rel.split('/').pop()!): void {
  mkdirSync(join(dir, rel), { recursive: true });
  writeFileSync(join(dir, rel, 'SKILL.md'), `---\nname: ${name}\ndescription: Does ${name}. Use when ${name} is needed.\n---\n# ${name}\n`);
}

/** An empty temporary directory, removed after the tests. */
function tempDir(prefix = 'loopkit-layouts-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

function tempCopy(project: string): string {
  const dir = tempDir('loopkit-cli-');
  cpSync(join(PROJECTS, project), dir, { recursive: true });
  return dir;
}

/**
 * Runs the CLI with a module resolve hook that logs every module the process loads: ES modules
 * through a resolve hook (it runs on Node's loader thread and appends to a file synchronously
 * before the import goes on, so no line is lost when the process ends), CommonJS ones (the command
 * runs dist/cli.cjs, which requires what it does not bundle) through Module._resolveFilename.
 */
function withModuleLog(args: string[]): { status: number | null; stdout: string; loaded: string[] } {
  const hooks = mkdtempSync(join(tmpdir(), 'loopkit-hooks-'));
  temps.push(hooks);
  const log = join(hooks, 'loaded.txt');
  writeFileSync(log, '');
  writeFileSync(
    join(hooks, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; }\n`,
  );
  writeFileSync(
    join(hooks, 'register.mjs'),
    `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(join(hooks, 'hooks.mjs')).href)});\n`,
  );
  writeFileSync(
    join(hooks, 'require.cjs'),
    `const Module = require('node:module'); const { appendFileSync } = require('node:fs'); const resolve = Module._resolveFilename;\n` +
      `Module._resolveFilename = function (...a) { const f = resolve.apply(this, a); appendFileSync(${JSON.stringify(log)}, 'file://' + f + '\\n'); return f; };\n`,
  );
  const r = spawnSync(
    process.execPath,
    ['--require', join(hooks, 'require.cjs'), '--import', pathToFileURL(join(hooks, 'register.mjs')).href, BIN, ...args],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  return { status: r.status, stdout: r.stdout, loaded: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

describe('exit codes', () => {
  it('0 on the dogfood project (the README quick start), with nothing to report', async () => {
    const r = await run(['check']);
    expect(r.stdout).toContain('PASS  0 errors, 0 warnings, 0 info');
    expect(r.status).toBe(0);
  });

  it('0 on a clean project, and `loopkit <path>` equals `loopkit check <path>`', async () => {
    const a = await run([join('fixtures', 'projects', 'clean')]);
    const b = await run(['check', join('fixtures', 'projects', 'clean')]);
    expect(a.status).toBe(0);
    expect(a.stdout).toBe(b.stdout);
  });

  it('1 when there are errors; every problem line starts with file:line:col', async () => {
    const r = await run(['fixtures/projects/with-errors', '--no-color']);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('FAIL');
    const problems = r.stdout.split('\n').filter((l) => /: (error|warning|info): /.test(l));
    expect(problems.length).toBeGreaterThan(0);
    for (const l of problems)
      expect(l).toMatch(/^fixtures\/projects\/with-errors\/\S+(:\d+:\d+)?: (error|warning|info): .+ {2}\[[a-z0-9-]+\]$/);
    expect(r.stdout).toContain(
      "fixtures/projects/with-errors/skills/running-a/LOOP.md:4:1: warning: State 'in-review' has a self-loop as its only transition (may loop forever)  [sim-self-loop-only]",
    );
    expect(r.stdout).toContain('    hint: Add a transition to a different state so the loop can make progress.');
    noStack(r);
  });

  it('2 for a missing path, naming it', async () => {
    const r = await run(['no/such/project']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('no/such/project');
    expect(r.stdout).toBe('');
    noStack(r);
  });

  it('files (as pre-commit passes them) check the project they belong to', async () => {
    const whole = await run(['fixtures/projects/with-errors', '--json']);
    const byFiles = await run([
      'fixtures/projects/with-errors/skills/running-a/LOOP.md',
      'fixtures/projects/with-errors/skills/running-a/SKILL.md',
      '--json',
    ]);
    expect(byFiles.status).toBe(1);
    expect(byFiles.stdout).toBe(whole.stdout);
  });

  it('2 for files outside any project, or in different projects', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'loopkit-cli-'));
    temps.push(outside);
    writeFileSync(join(outside, 'notes.md'), '# notes\n');
    const none = await run([join(outside, 'notes.md'), join(outside, 'notes.md')]);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('no .loopkit.yaml above');
    expect(none.stderr).toContain('and it is not in a git repository');
    const two = await run(['fixtures/projects/clean/skills/running-a/LOOP.md', 'fixtures/projects/with-errors/skills/running-a/LOOP.md']);
    expect(two.status).toBe(2);
    expect(two.stderr).toContain('the paths belong to different projects');
  });

  it('2 when the skills directory does not exist, pointing at skills_dir', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopkit-cli-'));
    temps.push(dir);
    writeFileSync(join(dir, '.loopkit.yaml'), 'skills_dir: agents/skills\n');
    const r = await run([dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("skills directory 'agents/skills' not found");
    expect(r.stderr).toContain('.loopkit.yaml:1:13');
  });

  it('2 for an unknown option, with usage help', async () => {
    const r = await run(['--bogus']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("unknown option '--bogus'");
  });

  it('--version and --help exit 0', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const v = bin(['--version']);
    expect(v.status).toBe(0);
    expect(v.stdout.trim()).toBe(pkg.version);
    const h = bin(['--help']);
    expect(h.status).toBe(0);
    expect(h.stdout).toContain('Usage: loopkit');
    const ch = bin(['check', '--help']);
    expect(ch.stdout).toContain('--json');
  });
});

describe('broken configuration (exit 2, located, no stack trace)', () => {
  it('invalid YAML', async () => {
    const r = await run(['fixtures/projects/broken-yaml']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/fixtures\/projects\/broken-yaml\/\.loopkit\.yaml:\d+:\d+: invalid YAML/);
    expect(r.stdout).toBe('');
    noStack(r);
  });

  it('wrong types: every bad field with file:line:col, the field and what was expected', async () => {
    const r = await run(['fixtures/projects/bad-type']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('.loopkit.yaml:2:17: max_iterations: expected a whole number from 0 to 4294967295, got -1');
    expect(r.stderr).toContain(".loopkit.yaml:3:20: deskcheck_enabled: expected true or false, got 'yes'");
    noStack(r);
  });

  it('desk-check enabled with an empty field', async () => {
    const r = await run(['fixtures/projects/deskcheck-empty']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('.loopkit.yaml:3:23: deskcheck_entry_from: must not be empty when deskcheck_enabled is true');
  });

  it('unknown key: a located warning with the closest known key', async () => {
    const r = await run(['fixtures/projects/unknown-key', '--no-color']);
    expect(r.stdout).toContain(
      "fixtures/projects/unknown-key/.loopkit.yaml:2:1: warning: Unknown key 'halt_reason' in .loopkit.yaml; did you mean 'halt_reasons'?  [config-unknown-key]",
    );
  });

  it('a .loopkit.yaml that is a directory or not UTF-8', async () => {
    const dir = tempCopy('clean');
    rmSync(join(dir, '.loopkit.yaml'));
    mkdirSync(join(dir, '.loopkit.yaml'));
    const r = await run([dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('.loopkit.yaml: is not a regular file');
    rmSync(join(dir, '.loopkit.yaml'), { recursive: true });
    writeFileSync(join(dir, '.loopkit.yaml'), Buffer.from([0x73, 0x6b, 0xff, 0x3a]));
    const bad = await run([dir]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('.loopkit.yaml: is not valid UTF-8 text');
    noStack(bad);
  });

  it('unreadable skill files are reported with their path, and the rest is still checked', async () => {
    const dir = tempCopy('clean');
    writeFileSync(join(dir, 'skills', 'running-a', 'LOOP.md'), Buffer.from([0x23, 0x20, 0xc3, 0x28]));
    mkdirSync(join(dir, 'skills', 'running-b'));
    mkdirSync(join(dir, 'skills', 'running-b', 'SKILL.md'));
    const r = await run([dir, '--no-color']);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      'skills/running-a/LOOP.md: error: Failed to read skills/running-a/LOOP.md: File is not valid UTF-8 text  [skill-read-error]',
    );
    expect(r.stdout).toContain(
      'skills/running-b/SKILL.md: error: Failed to read skills/running-b/SKILL.md: Is a directory  [skill-read-error]',
    );
    // running-a (readable SKILL.md) is still checked; its unreadable LOOP.md contributes no transitions
    expect(r.stdout).toContain('1 skill, ');
    expect(r.stdout).toContain('[constraints-empty-graph]');
    noStack(r);
  });

  it('an unknown rule under rules: is exit 2 with a suggestion', async () => {
    const dir = tempCopy('clean');
    writeFileSync(join(dir, '.loopkit.yaml'), 'loop_state_files: []\nrules:\n  sim-eror: off\n');
    const r = await run([dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(".loopkit.yaml:3:3: rules.sim-eror: unknown rule 'sim-eror'; did you mean 'sim-error'?");
  });
});

describe('--json', () => {
  it('has the reference shape and consistent counts', async () => {
    const r = await run(['fixtures/projects/with-errors', '--json']);
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout) as {
      skills_checked: number;
      verifications: number;
      diagnostics: {
        severity: string;
        code: string;
        message: string;
        help: string;
        location: { path: string; line: number | null; column: number | null };
      }[];
      summary: { errors: number; warnings: number; info: number; verifications: number };
    };
    expect(Object.keys(doc).slice(0, 4)).toEqual(['skills_checked', 'verifications', 'diagnostics', 'summary']);
    expect(doc.skills_checked).toBe(1);
    expect(doc.summary.verifications).toBe(doc.verifications);
    expect(doc.diagnostics.length).toBeGreaterThan(0);
    for (const d of doc.diagnostics) {
      expect(['Error', 'Warning', 'Info']).toContain(d.severity);
      expect(Object.keys(d).slice(0, 5)).toEqual(['severity', 'code', 'message', 'location', 'help']);
      expect(d.location.path.startsWith('fixtures/projects/with-errors')).toBe(true);
    }
    expect(doc.summary.errors).toBe(doc.diagnostics.filter((d) => d.severity === 'Error').length);
    expect(doc.summary.warnings).toBe(doc.diagnostics.filter((d) => d.severity === 'Warning').length);
    expect(doc.summary.info).toBe(doc.diagnostics.filter((d) => d.severity === 'Info').length);
  });

  it('--format json is the same as --json', async () => {
    expect((await run(['fixtures/projects/with-errors', '--format', 'json'])).stdout).toBe(
      (await run(['fixtures/projects/with-errors', '--json'])).stdout,
    );
  });
});

describe('output', () => {
  it('is byte-identical between runs (text and JSON)', async () => {
    for (const args of [
      ['check'],
      ['fixtures/projects/with-errors'],
      ['fixtures/projects/with-errors', '--json'],
      ['fixtures/projects/seed-skills'],
    ]) {
      const a = await run(args);
      const b = await run(args);
      expect(a.stdout).toBe(b.stdout);
      expect(a.stdout.length).toBeGreaterThan(0);
    }
  });

  it('colour: off when piped, on with FORCE_COLOR or --color, off with NO_COLOR or --no-color', async () => {
    const esc = '\u001b[';
    expect((await run(['fixtures/projects/with-errors'])).stdout).not.toContain(esc);
    expect((await run(['fixtures/projects/with-errors'], { FORCE_COLOR: '1' })).stdout).toContain(esc);
    expect((await run(['fixtures/projects/with-errors', '--color'])).stdout).toContain(esc);
    expect((await run(['fixtures/projects/with-errors', '--color', '--no-color'])).stdout).not.toContain(esc);
    expect((await run(['fixtures/projects/with-errors'], { FORCE_COLOR: '1', NO_COLOR: '1' })).stdout).toContain(esc);
    expect((await run(['fixtures/projects/with-errors', '--no-color'], { FORCE_COLOR: '1' })).stdout).not.toContain(esc);
  });

  it('NO_COLOR turns colour off on a terminal, where it is on without it; FORCE_COLOR and --color win', async () => {
    const esc = '\u001b[';
    const check = async (env: Record<string, string>, args: string[] = []) => {
      let out = '';
      // the cache of the test run (test/helpers/cache-home.ts), not the user's
      const cache = { LOOPKIT_CACHE_DIR: process.env.LOOPKIT_CACHE_DIR! };
      const io: CliIo = { stdout: (s) => (out += s), stderr: () => {}, env: { TERM: 'xterm-256color', ...cache, ...env }, isTTY: true };
      const status = await main(['fixtures/projects/with-errors', ...args], io);
      expect(status).toBe(1);
      return out;
    };
    // on a terminal, colour is on …
    expect(await check({})).toContain(esc);
    // … and NO_COLOR (any non-empty value) turns it off
    expect(await check({ NO_COLOR: '1' })).not.toContain(esc);
    expect(await check({ NO_COLOR: 'true' })).not.toContain(esc);
    // an empty NO_COLOR is not set (no-color.org)
    expect(await check({ NO_COLOR: '' })).toContain(esc);
    expect(await check({ NO_COLOR: '1', FORCE_COLOR: '1' })).toContain(esc);
    expect(await check({ NO_COLOR: '1' }, ['--color'])).toContain(esc);
    // the decision itself, without a report
    expect(colorEnabled(undefined, { NO_COLOR: '1' }, true)).toBe(false);
    expect(colorEnabled(undefined, {}, true)).toBe(true);
  });

  it('--format github prints workflow commands', async () => {
    const r = await run(['fixtures/projects/with-errors', '--format', 'github']);
    expect(r.stdout).toMatch(
      /^::(error|warning|notice) file=fixtures\/projects\/with-errors\/[^,]+(,line=\d+,col=\d+)?,title=loopkit [a-z0-9-]+::/m,
    );
  });

  it('--format sarif is SARIF 2.1.0 with rules, regions and the witness path as a code flow', async () => {
    const r = await run(['fixtures/projects/with-errors', '--format', 'sarif']);
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout) as {
      version: string;
      runs: {
        tool: { driver: { name: string; rules: { id: string }[] } };
        results: {
          ruleId: string;
          ruleIndex?: number;
          level: string;
          locations: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number; startColumn: number } } }[];
        }[];
      }[];
    };
    expect(doc.version).toBe('2.1.0');
    const run0 = doc.runs[0]!;
    expect(run0.tool.driver.name).toBe('loopkit');
    const json = JSON.parse((await run(['fixtures/projects/with-errors', '--json'])).stdout) as {
      diagnostics: { code: string; location: { path: string; line: number | null } }[];
    };
    expect(run0.results.map((x) => x.ruleId)).toEqual(json.diagnostics.map((d) => d.code));
    for (const res of run0.results) {
      expect(run0.tool.driver.rules[res.ruleIndex!]!.id).toBe(res.ruleId);
      expect(['error', 'warning', 'note']).toContain(res.level);
      expect(res.locations[0]!.physicalLocation.artifactLocation.uri.startsWith('fixtures/projects/with-errors/')).toBe(true);
    }
    const dir = mkdtempSync(join(tmpdir(), 'loopkit-cli-'));
    temps.push(dir);
    mkdirSync(join(dir, 'skills', 'running-a'), { recursive: true });
    writeFileSync(join(dir, '.loopkit.yaml'), 'max_iterations: 1\nloop_state_files: []\n');
    writeFileSync(join(dir, 'skills', 'running-a', 'SKILL.md'), '---\nname: running-a\n---\n');
    writeFileSync(join(dir, 'skills', 'running-a', 'LOOP.md'), 'transition in-a → in-b\ntransition in-b → in-c\n');
    const flow = JSON.parse((await run([dir, '--format', 'sarif', '--rule', 'sim-unreachable-terminal'])).stdout) as {
      runs: {
        results: {
          codeFlows: {
            threadFlows: {
              locations: { location: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } } }[];
            }[];
          }[];
        }[];
      }[];
    };
    const steps = flow.runs[0]!.results[0]!.codeFlows[0]!.threadFlows[0]!.locations;
    expect(steps.map((l) => l.location.physicalLocation.region.startLine)).toEqual([1, 2]);
    expect(steps[0]!.location.physicalLocation.artifactLocation.uri).toMatch(/^file:\/\/\/.*\/skills\/running-a\/LOOP\.md$/);
  });

  it('--verbose writes per-rule counts to stderr only', async () => {
    const quiet = await run(['fixtures/projects/clean']);
    const loud = await run(['fixtures/projects/clean', '--verbose']);
    expect(loud.stdout).toBe(quiet.stdout);
    expect(loud.stderr).toContain('discovered: 1 skills');
    expect(loud.stderr).toContain('verifications ran');
  });

  it('--rule runs only the named rules; an unknown one is exit 2', async () => {
    const r = await run(['fixtures/projects/with-errors', '--json', '--rule', 'state-enforced-missing']);
    const doc = JSON.parse(r.stdout) as { diagnostics: { code: string }[] };
    expect(doc.diagnostics.map((d) => d.code)).toEqual(['state-enforced-missing']);
    const bad = await run(['fixtures/projects/with-errors', '--rule', 'state-enforced-mising']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("did you mean 'state-enforced-missing'?");
  });

  it('rules: in .loopkit.yaml turns a rule off or changes its severity', async () => {
    const dir = tempCopy('with-errors');
    writeFileSync(
      join(dir, '.loopkit.yaml'),
      'enforced_states:\n  - name: done\nloop_state_files: []\nrules:\n  state-enforced-missing: warning\n',
    );
    const doc = JSON.parse((await run([dir, '--json', '--rule', 'state-enforced-missing'])).stdout) as {
      diagnostics: { severity: string }[];
    };
    expect(doc.diagnostics.map((d) => d.severity)).toEqual(['Warning']);
    writeFileSync(
      join(dir, '.loopkit.yaml'),
      'enforced_states:\n  - name: done\nloop_state_files: []\nrules:\n  state-enforced-missing: off\n',
    );
    const off = JSON.parse((await run([dir, '--json', '--rule', 'state-enforced-missing'])).stdout) as { diagnostics: unknown[] };
    expect(off.diagnostics).toEqual([]);
  });

  it('--max-warnings fails a run with too many warnings', async () => {
    const r = await run(['fixtures/projects/unknown-key', '--max-warnings', '0']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('exceed --max-warnings 0');
  });

  it('never writes into the checked project, in any mode, with or without node_modules', () => {
    const dir = tempCopy('with-errors');
    const home = mkdtempSync(join(tmpdir(), 'loopkit-home-'));
    temps.push(home);
    const env = { XDG_CACHE_HOME: join(home, 'xdg'), LOOPKIT_CACHE_DIR: '' };
    const snapshot = () => spawnSync('find', [dir, '-printf', '%P %s %T@\\n'], { encoding: 'utf8' }).stdout.split('\n').sort().join('\n');
    const before = snapshot();
    for (const args of [
      [dir],
      [dir, '--json'],
      [dir, '--format', 'github'],
      [dir, '--format', 'sarif'],
      [dir, '-v', '--timing'],
      [dir, '--concurrency', '2'],
      [dir, '--cache'],
      [dir, '--cache'],
      [dir, '--preset', 'agent-skills'],
      ['graph', dir],
      ['graph', dir, '--format', 'dot'],
      ['graph', dir, '--format', 'json', '--cache'],
      [join(dir, 'skills', 'running-a', 'LOOP.md')],
    ]) {
      bin(args, env);
    }
    expect(snapshot()).toBe(before);
    // node_modules does not bring the cache into the project (as loopkit 0.4's default did)
    mkdirSync(join(dir, 'node_modules'));
    const withModules = snapshot();
    bin([dir, '--cache'], env);
    bin([dir], env);
    expect(snapshot()).toBe(withModules);
    expect(readdirSync(join(home, 'xdg', 'loopkit')).filter((f) => /^[0-9a-f]{16}$/u.test(f))).toHaveLength(1);
  });
});

describe('speed options', () => {
  it('--cache-location takes a file or a directory (one folder per project in it)', async () => {
    const dir = tempCopy('with-errors');
    const where = mkdtempSync(join(tmpdir(), 'loopkit-where-'));
    temps.push(where);
    await run([dir, '--cache-location', join(where, 'my.cache')]);
    expect(existsSync(join(where, 'my.cache'))).toBe(true);
    await run([dir, '--cache-location', `${join(where, 'sub')}/`]);
    const folders = readdirSync(join(where, 'sub')).filter((f) => /^[0-9a-f]{16}$/u.test(f));
    expect(folders).toHaveLength(1);
    expect(existsSync(join(where, 'sub', folders[0]!, 'cache.json'))).toBe(true);
    // the index and its shards, and nothing else
    expect(readdirSync(where).every((f) => f === 'sub' || /^my\.cache(?:\.s\d\d)?$/u.test(f))).toBe(true);
  });

  it('--no-cache undoes an earlier --cache: nothing is read from or written to a cache', async () => {
    const dir = tempCopy('with-errors');
    const where = mkdtempSync(join(tmpdir(), 'loopkit-where-'));
    temps.push(where);
    const cache = join(where, 'my.cache');
    const off = await run([dir, '--cache', '--cache-location', cache, '--no-cache', '--timing']);
    expect(existsSync(cache)).toBe(false);
    expect(off.stderr).toMatch(/files .*\(0 from the cache, \d+ parsed/u);
    await run([dir, '--cache-location', cache]);
    expect(existsSync(cache)).toBe(true);
    // a cache that exists is not used either
    expect((await run([dir, '--cache', '--cache-location', cache, '--no-cache', '--timing'])).stderr).toMatch(
      /\(0 from the cache, \d+ parsed/u,
    );
  });

  it('--timing prints the phases on stderr, the report is unchanged', async () => {
    const plain = await run(['fixtures/projects/with-errors']);
    const timed = await run(['fixtures/projects/with-errors', '--timing']);
    expect(timed.stdout).toBe(plain.stdout);
    for (const phase of [
      'start-up',
      'config',
      'discovery',
      'read',
      'files',
      'parse',
      'extract',
      'graph',
      'rules',
      'report',
      'total',
      'memory',
    ]) {
      expect(timed.stderr).toMatch(new RegExp(`^ +${phase} `, 'mu'));
    }
  });

  it('--concurrency: worker threads give the same report; a bad value is exit 2', () => {
    const plain = bin(['fixtures/projects/with-errors', '--json']);
    expect(bin(['fixtures/projects/with-errors', '--json', '--concurrency', '2']).stdout).toBe(plain.stdout);
    expect(bin(['fixtures/projects/with-errors', '--json', '--concurrency', 'off']).stdout).toBe(plain.stdout);
    const bad = bin(['fixtures/projects/with-errors', '--concurrency', 'many']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--concurrency takes a number of worker threads (1–999), 'auto' or 'off', not 'many'");
  });

  it('--version answers without loading the command line (only dist/version.js)', () => {
    const r = withModuleLog(['-V']);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/u);
    const ours = r.loaded.filter((l) => l.includes('/dist/'));
    expect(ours.map((l) => l.slice(l.indexOf('/dist/')))).toEqual(['/dist/version.js']);
  });
});

describe('presets and layouts', () => {
  const NOTE = 'checked as a plain Agent Skills collection (preset agent-skills)';

  it('a plain Agent Skills collection (no .loopkit.yaml, no LOOP.md) gets the agent-skills preset, says so, and passes', async () => {
    const dir = tempCopy('plain-collection');
    const r = await run([dir]);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(NOTE);
    expect(r.stdout).toContain('PASS  0 errors, 0 warnings, 0 info');
    // the same skills as a Loop Language project: the contract sections are missing
    const loop = await run([dir, '--preset', 'loop-language']);
    expect(loop.status).toBe(1);
    expect(loop.stderr).not.toContain(NOTE);
    expect(loop.stdout).toContain("is missing '## Rules' section");
  });

  it("a LOOP.md that is no contract (a skill's notes) does not make a Loop Language project; a contract does", async () => {
    const dir = tempCopy('plain-collection');
    const skill = readdirSync(join(dir, 'skills'))[0]!;
    // notes on the skill's "mutation loop": no canonical section, no transition line
    writeFileSync(join(dir, 'skills', skill, 'LOOP.md'), '# Mutation loop\n\n## Hard ceilings\n\nStop after ten mutations.\n');
    const notes = await run([dir, '--json']);
    expect(notes.status).toBe(0);
    expect(notes.stderr).toContain(NOTE);
    const codes = (JSON.parse(notes.stdout) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code);
    expect(codes.filter((c) => c.startsWith('loop-'))).toEqual([]);
    // the same file with a canonical section is a contract: the project is a Loop Language project
    writeFileSync(join(dir, 'skills', skill, 'LOOP.md'), '# Loop\n\n## Entry Conditions\n\nA draft exists.\n');
    const contract = await run([dir]);
    expect(contract.stderr).not.toContain(NOTE);
    expect(contract.status).toBe(1);
  });

  it('extends: in .loopkit.yaml chooses the preset; its own settings and rules still win', async () => {
    const dir = tempCopy('plain-collection');
    writeFileSync(
      join(dir, '.loopkit.yaml'),
      'extends: agent-skills\nrules:\n  skill-name-not-gerund: error\ncanonical_skill_sections: [Description]\n',
    );
    const r = await run([dir, '--json']);
    const doc = JSON.parse(r.stdout) as { diagnostics: { code: string }[] };
    expect(doc.diagnostics.map((d) => d.code).sort()).toEqual(['skill-missing-description', 'skill-missing-description']);
    expect(r.stderr).not.toContain(NOTE);
  });

  it('an unknown preset is exit 2 with a suggestion, in the config and on the command line', async () => {
    const dir = tempCopy('plain-collection');
    const cli = await run([dir, '--preset', 'agent-skill']);
    expect(cli.status).toBe(2);
    expect(cli.stderr).toContain("unknown preset 'agent-skill'; did you mean 'agent-skills'?");
    writeFileSync(join(dir, '.loopkit.yaml'), 'extends: loop-langauge\n');
    const cfg = await run([dir]);
    expect(cfg.status).toBe(2);
    expect(cfg.stderr).toMatch(/\.loopkit\.yaml:1:10: extends: unknown preset 'loop-langauge'; did you mean 'loop-language'\?/u);
  });

  it('finds a plugin marketplace (plugins/*/skills/*) without configuration, also from file arguments', async () => {
    const dir = tempCopy('marketplace');
    // files without a .loopkit.yaml above them belong to the repository they are in
    mkdirSync(join(dir, '.git'));
    const r = await run([dir, '--json']);
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { skills_checked: number }).skills_checked).toBe(2);
    const file = await run([
      join(dir, 'plugins', 'beta', 'skills', 'drafting-notes', 'SKILL.md'),
      join(dir, 'plugins', 'alpha', 'skills', 'reviewing-code', 'SKILL.md'),
    ]);
    expect(file.status).toBe(0);
    expect(file.stdout).toContain('2 skills');
  });

  it('skills_dir takes a list and globs; a named directory that does not exist is exit 2', async () => {
    const dir = tempCopy('marketplace');
    writeFileSync(join(dir, '.loopkit.yaml'), 'extends: agent-skills\nskills_dir: [plugins/alpha/skills, "plugins/b*/skills"]\n');
    expect((await run([dir])).stdout).toContain('2 skills');
    writeFileSync(join(dir, '.loopkit.yaml'), 'extends: agent-skills\nskills_dir:\n  - plugins/alpha/skills\n  - plugins/gamma/skills\n');
    const missing = await run([dir]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("skills directory 'plugins/gamma/skills' not found");
    expect(missing.stderr).toContain('.loopkit.yaml:4:5');
  });

  it('finds skills in .claude/skills, and at the top of a repository without a skills directory', async () => {
    const dir = tempDir();
    writeSkill(dir, '.claude/skills/doing-x');
    writeSkill(dir, '.agents/skills/doing-y');
    expect((await run([dir])).stdout).toContain('2 skills');
    const flat = mkdtempSync(join(tmpdir(), 'loopkit-layouts-'));
    temps.push(flat);
    mkdirSync(join(flat, 'pdf'), { recursive: true });
    writeFileSync(join(flat, 'pdf', 'SKILL.md'), '---\nname: pdf\ndescription: Reads PDF files. Use when a PDF is given.\n---\n# PDF\n');
    mkdirSync(join(flat, 'writing', 'drafting-notes'), { recursive: true });
    writeFileSync(
      join(flat, 'writing', 'drafting-notes', 'SKILL.md'),
      '---\nname: drafting-notes\ndescription: Drafts notes. Use when notes are needed.\n---\n# Notes\n',
    );
    const r = await run([flat]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('2 skills');
  });

  it('a skill reached through several symlinked layouts is one skill, checked at its real place', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'skills', 'doing-x', 'references'), { recursive: true });
    writeFileSync(
      join(dir, 'skills', 'doing-x', 'SKILL.md'),
      '---\nname: doing-x\ndescription: Does x. Use when x is needed.\n---\n# X\n\nRead [the guide](references/guide.md).\n',
    );
    writeFileSync(join(dir, 'skills', 'doing-x', 'references', 'guide.md'), '# Guide\n\nSee [the notes](../../../NOTES.md).\n');
    writeFileSync(join(dir, 'NOTES.md'), '# Notes\n');
    // the layout of a repository that serves its skills to several agents and as a plugin
    mkdirSync(join(dir, '.agents'));
    symlinkSync('../skills', join(dir, '.agents', 'skills'));
    mkdirSync(join(dir, 'plugins'));
    symlinkSync('..', join(dir, 'plugins', 'mine'));
    const r = await run([dir, '--json']);
    const doc = JSON.parse(r.stdout) as { skills_checked: number; diagnostics: { code: string; severity: string }[] };
    expect(doc.skills_checked).toBe(1);
    // no skill-duplicate-name, and no broken link: the guide's link resolves from the real file
    expect(doc.diagnostics.filter((d) => d.severity === 'Error')).toEqual([]);
    expect(r.status).toBe(0);
  });

  it('a skill found only through a symlinked folder: its links resolve from its real place too', async () => {
    const dir = tempDir();
    // the skill lives in tools/doing-x and is served to the agent as .claude/skills/doing-x
    mkdirSync(join(dir, 'tools', 'doing-x'), { recursive: true });
    mkdirSync(join(dir, 'tools', 'shared'));
    writeFileSync(join(dir, 'tools', 'shared', 'style.md'), '# Style\n');
    writeFileSync(
      join(dir, 'tools', 'doing-x', 'SKILL.md'),
      '---\nname: doing-x\ndescription: Does x. Use when x is needed.\n---\n# X\n\nRead [the style](../shared/style.md) and [the lost one](../shared/lost.md).\n',
    );
    mkdirSync(join(dir, '.claude', 'skills'), { recursive: true });
    symlinkSync('../../tools/doing-x', join(dir, '.claude', 'skills', 'doing-x'));
    const r = await run([dir, '--json']);
    const doc = JSON.parse(r.stdout) as { skills_checked: number; diagnostics: { code: string; message: string }[] };
    expect(doc.skills_checked).toBe(1);
    const broken = doc.diagnostics.filter((d) => d.code === 'skill-broken-link');
    // the link that exists from the real place passes; the one missing from both places is reported
    expect(broken.map((d) => d.message)).toEqual([expect.stringContaining("'../shared/lost.md'")]);
    expect(r.status).toBe(1);
  });

  it('finds skills deeper down when no common layout exists (product/plugin/skills/*, agents/<agent>/*)', async () => {
    const dir = tempDir();
    for (const [rel, name] of [
      ['terraform/code-generation/skills/generating-code', 'generating-code'],
      ['packer/builders/skills/building-images', 'building-images'],
      ['agents/cli/profiling-data', 'profiling-data'],
      // the same skill written for another agent: not a duplicate
      ['agents/snowsight/profiling-data', 'profiling-data'],
      // a skill's own sub-skill is part of it, not a skill of the project
      ['agents/cli/profiling-data/resources/sampling', 'sampling'],
    ] as const) {
      writeSkill(dir, rel, name);
    }
    mkdirSync(join(dir, 'node_modules', 'x', 'skills', 'not-mine'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'x', 'skills', 'not-mine', 'SKILL.md'), '---\nname: Bad Name\n---\n');
    const r = await run([dir, '--json']);
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { skills_checked: number }).skills_checked).toBe(4);
  });

  it('without configuration every skill is checked; with skills_dir, a skill outside it fails the run', async () => {
    const dir = tempDir();
    for (const [rel, name] of [
      ['plugins/alpha/skills/reviewing-code', 'reviewing-code'],
      ['external_plugins/beta/skills/drafting-notes', 'drafting-notes'],
    ] as const) {
      writeSkill(dir, rel, name);
    }
    const r = await run([dir]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('2 skills,');
    writeFileSync(join(dir, '.loopkit.yaml'), 'extends: agent-skills\nskills_dir: plugins/*/skills\n');
    const some = await run([dir, '--no-color']);
    expect(some.status).toBe(1);
    expect(some.stdout).toContain(
      'external_plugins/beta/skills/drafting-notes/SKILL.md: error: The skill in external_plugins/beta/skills/drafting-notes/ was not checked: it is outside skills_dir (plugins/*/skills)  [skill-outside-skills-dir]\n' +
        '    hint: To check it, add its folder external_plugins/beta/skills/ to skills_dir in .loopkit.yaml; if it is not a skill of this project (a draft, a copy, an example), add external_plugins/beta/skills/drafting-notes/ to ignores: in .loopkit.yaml instead.',
    );
    expect(some.stdout).toContain('FAIL  1 error');
    writeFileSync(join(dir, '.loopkit.yaml'), 'extends: agent-skills\nskills_dir: [plugins/*/skills, external_plugins/*/skills]\n');
    const all = await run([dir]);
    expect(all.stderr).toBe('');
    expect(all.stdout).toContain('2 skills,');
    expect(all.status).toBe(0);
  });

  it("checks skills kept in other agents' hidden folders; one name in two agents' folders is no clash", async () => {
    const dir = tempDir();
    for (const rel of ['.claude/skills/reviewing-code', '.opencode/skills/reviewing-code', '.opencode/skills/drafting-notes']) {
      writeSkill(dir, rel);
    }
    const r = await run([dir]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('3 skills,');
  });

  it('skills at the top of a repository and in categories of any depth below it are all checked', async () => {
    const dir = tempDir();
    for (const rel of ['auth/signing-in', 'frontend/ui/rendering-lists', 'product/specs/drafting-prds']) {
      writeSkill(dir, rel);
    }
    const r = await run([dir, '--json']);
    expect(r.status).toBe(0);
    expect(r.stderr).not.toContain('not checked');
    expect((JSON.parse(r.stdout) as { skills_checked: number }).skills_checked).toBe(3);
  });

  it('names the SKILL.md files inside other skills, which are part of them, not skills of their own', async () => {
    const dir = tempDir();
    for (const rel of ['skills/running-operations', 'skills/running-operations/roles/asset-manager']) {
      writeSkill(dir, rel);
    }
    const r = await run([dir, '--json']);
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { skills_checked: number }).skills_checked).toBe(1);
    expect(r.stderr).toContain(
      'loopkit: 1 SKILL.md file inside another skill was not checked as a skill of its own: skills/running-operations/roles/asset-manager. ' +
        "A skill's sub-folders are part of it; to check it as a skill, name its folder in skills_dir.",
    );
    expect((await run([dir, '--quiet'])).stderr).toBe('');
  });

  it('checks skills kept deep in an archive', async () => {
    const dir = tempDir();
    for (const rel of ['skills/reviewing-code', 'specs/archive/migration/archive/inbox/skills/old-review']) {
      writeSkill(dir, rel);
    }
    const r = await run([dir, '--json']);
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { skills_checked: number }).skills_checked).toBe(2);
  });

  it('a common layout that holds no skill does not hide the skills kept elsewhere', async () => {
    const dir = tempDir();
    // skills/ holds loose notes and a sync script; the skill is packaged for one agent deeper down
    mkdirSync(join(dir, 'skills'));
    writeFileSync(join(dir, 'skills', 'payments.md'), '# Payments\n');
    writeFileSync(join(dir, 'skills', 'sync.js'), '// copies the notes into the plugin\n');
    const rel = 'providers/claude/plugin/skills/taking-payments';
    mkdirSync(join(dir, rel), { recursive: true });
    writeFileSync(
      join(dir, rel, 'SKILL.md'),
      '---\nname: taking-payments\ndescription: Takes payments. Use when a checkout is built.\n---\n# Payments\n',
    );
    const r = await run([dir, '--json']);
    expect(r.status).toBe(0);
    expect(r.stderr).not.toContain('not checked');
    expect((JSON.parse(r.stdout) as { skills_checked: number }).skills_checked).toBe(1);
  });

  it('a directory without any skills is exit 2, naming what was ignored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopkit-empty-'));
    temps.push(dir);
    const r = await run([dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('no skills found');
    expect(r.stderr).toContain('no SKILL.md below the root');
    writeSkill(dir, 'node_modules/some-package/skills/theirs');
    expect((await run([dir])).stderr).toContain('(1 folder ignored: node_modules/ (by default))');
  });
});

describe('loopkit graph', () => {
  it('prints the combined state machine as Mermaid (default), DOT or JSON', async () => {
    const m = await run(['graph', 'fixtures/projects/clean']);
    expect(m.status).toBe(0);
    expect(m.stdout).toBe(
      [
        'stateDiagram-v2',
        '  state "in-dev" as s_in_dev',
        '  state "done" as s_done',
        '  [*] --> s_in_dev',
        '  s_in_dev --> s_done',
        '  s_done --> [*]',
        '  classDef entry fill:#c8e6c9,stroke:#2e7d32,stroke-width:2px',
        '  classDef terminal fill:#bbdefb,stroke:#1565c0',
        '  class s_in_dev entry',
        '  class s_done terminal',
        '',
      ].join('\n'),
    );
    const dot = await run(['graph', 'fixtures/projects/clean', '--format', 'dot']);
    expect(dot.stdout).toContain('"in-dev" -> "done" [id="e0", tooltip="in-dev → done\\nrunning-a: skills/running-a/LOOP.md:21"];');
    expect(dot.stdout).toContain('"done" [id="n1", peripheries=2, fillcolor="#bbdefb"');
    const json = JSON.parse((await run(['graph', 'examples/loop', '--format', 'json'])).stdout) as {
      entryPoints: string[];
      terminals: string[];
      transitions: { from: string; to: string; halt?: { reason: string; after: number } }[];
      details: { state: string; kinds: string[] }[];
    };
    expect(json.entryPoints).toEqual(['loop-scoring']);
    expect(json.terminals).toEqual(['halted-human-gate', 'done', 'halted-stall', 'halted-budget']);
    expect(json.transitions.find((t) => t.to === 'halted-stall')?.halt).toEqual({ reason: 'stall', after: 5 });
    expect(json.details.find((d) => d.state === 'halted-human-gate')?.kinds).toEqual(['halted']);
  });

  it('--format svg and html draw a picture with no system tool; the same bytes every run', async () => {
    const svg = await run(['graph', 'examples/loop', '--format', 'svg']);
    expect(svg.status).toBe(0);
    expect(svg.stdout.startsWith('<?xml')).toBe(true);
    expect(svg.stdout).toContain('<g id="n0" class="node">');
    expect((await run(['graph', 'examples/loop', '--format', 'svg'])).stdout).toBe(svg.stdout);
    const html = await run(['graph', 'examples/loop', '--format', 'html']);
    expect(html.status).toBe(0);
    expect(html.stdout.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html.stdout).toContain('<title>loopkit graph: examples/loop</title>');
    expect(html.stdout).toContain('<svg');
  });

  it('--skill limits any format to one skill and its neighbours; an unknown skill is exit 2 with a suggestion', async () => {
    const m = await run(['graph', '--skill', 'accepting-stories']);
    expect(m.status).toBe(0);
    expect(m.stdout).toContain('  s_in_qa --> s_in_acceptance : every AC passed, handoff accepting-stories\n');
    expect(m.stdout).toContain('  s_in_acceptance --> s_done : the product owner accepted the story\n');
    expect(m.stdout).not.toContain('s_in_refinement');
    const json = JSON.parse((await run(['graph', '--skill', 'accepting-stories', '--format', 'json'])).stdout) as { skill: string };
    expect(json.skill).toBe('accepting-stories');
    expect((await run(['graph', '--skill', 'accepting-stories', '--format', 'svg'])).stdout).toContain('<svg');
    const bad = await run(['graph', '--skill', 'acepting-stories']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("no skill named 'acepting-stories' in .; did you mean 'accepting-stories'?");
  });

  it('marks problem states: a dead end is drawn with a red border and does not end in [*]', async () => {
    const m = await run(['graph', 'fixtures/rules/graph-dead-end/invalid/non-terminal-state', '--preset', 'loop-language']);
    expect(m.stdout).toMatch(/^ {2}class s_done,s_in_review error$/mu);
    expect(m.stdout).not.toContain('s_in_review --> [*]');
  });

  it('loads the WebAssembly Graphviz only for svg and html', () => {
    const loaded = (format: string) => {
      const r = withModuleLog(['graph', 'examples/loop', '--format', format, '--concurrency', 'off']);
      expect(r.status).toBe(0);
      return r.loaded.filter((l) => /\/dist\/(?:vendor\/viz\.cjs|picture-)|\/@viz-js\/viz\//u.test(l));
    };
    expect(loaded('mermaid')).toEqual([]);
    expect(loaded('dot')).toEqual([]);
    expect(loaded('svg').length).toBeGreaterThan(0);
  });

  it('exit 2 for a missing path or a broken config', async () => {
    expect((await run(['graph', 'no/such/dir'])).status).toBe(2);
    const r = await run(['graph', 'fixtures/projects/bad-type']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('max_iterations');
  });
});

describe('witness paths in the text report', () => {
  it("every step of a graph problem's proof is printed as file:line:col under it", async () => {
    const r = await run([
      'fixtures/rules/sim-trapped-cycle/invalid/trap-region',
      '--preset',
      'loop-language',
      '--rule',
      'sim-trapped-cycle',
      '--no-color',
    ]);
    const base = 'fixtures/rules/sim-trapped-cycle/invalid/trap-region/skills/running-a/LOOP.md';
    expect(r.stdout).toContain(
      [
        `    at ${base}:3:1: step 1: in-dev → in-review`,
        `    at ${base}:4:1: in the trap: in-review → in-rework`,
        `    at ${base}:5:1: in the trap: in-rework → in-review`,
      ].join('\n'),
    );
  });
});

describe('suppression comments', () => {
  it('silence exactly the named codes on the named lines, and are counted', async () => {
    const r = await run(['fixtures/projects/suppressions', '--no-color']);
    const problems = r.stdout.split('\n').filter((l) => /: (error|warning|info): /.test(l));
    expect(problems).toEqual([
      "fixtures/projects/suppressions/skills/running-a/LOOP.md:15:4: warning: Non-standard verb 'Polish' in LOOP.md for `running-a` at line 15  [loop-nonstandard-verb]",
      "fixtures/projects/suppressions/skills/running-a/LOOP.md:28:6: warning: Unknown halt reason 'stalled' in LOOP.md for `running-a` at line 28; did you mean 'stall'?  [loop-unknown-halt]",
    ]);
    expect(r.stdout).toContain('(3 suppressed)');
    const doc = JSON.parse((await run(['fixtures/projects/suppressions', '--json'])).stdout) as { summary: { suppressed: number } };
    expect(doc.summary.suppressed).toBe(3);
  });
});

describe('real skills', () => {
  it.skipIf(!existsSync(CORPUS))(
    'superpowers corpus (no LOOP.md): no crash; plain Agent Skills by default, Loop Language on request',
    async () => {
      const r = await run([CORPUS, '--json']);
      expect([0, 1]).toContain(r.status);
      noStack(r);
      expect(r.stderr).toContain('preset agent-skills');
      const doc = JSON.parse(r.stdout) as { skills_checked: number; diagnostics: { code: string }[] };
      expect(doc.skills_checked).toBe(14);
      const codes = doc.diagnostics.map((d) => d.code);
      expect(codes).not.toContain('skill-missing-state-model');
      expect(codes).not.toContain('constraints-empty-graph');
      expect(codes).not.toContain('internal-error');
      const loop = JSON.parse((await run([CORPUS, '--json', '--preset', 'loop-language'])).stdout) as { diagnostics: { code: string }[] };
      const loopCodes = loop.diagnostics.map((d) => d.code);
      expect(loopCodes.filter((c) => c === 'skill-missing-state-model').length).toBe(14);
      expect(loopCodes).toContain('constraints-empty-graph');
    },
  );

  it('the two real loops of the source documents, written as contracts, verify clean', async () => {
    for (const example of ['examples/loop-controller', 'examples/loop']) {
      const r = await run([example, '--no-color']);
      expect(r.stdout, example).toMatch(/^PASS {2}0 errors, 0 warnings, 0 info/m);
      expect(r.status).toBe(0);
    }
  });

  it('seed skills (loop-controller, start): no crash', async () => {
    const r = await run(['fixtures/projects/seed-skills', '--json']);
    expect([0, 1]).toContain(r.status);
    const doc = JSON.parse(r.stdout) as { skills_checked: number; diagnostics: { code: string }[] };
    expect(doc.skills_checked).toBe(2);
    expect(doc.diagnostics.map((d) => d.code)).not.toContain('internal-error');
  });
});
