/**
 * The pre-commit hook (.pre-commit-hooks.yaml), end to end with the real `pre-commit` tool: a
 * temporary git repository uses a copy of this repository (the working tree, committed) as its
 * hook repository, with a fresh PRE_COMMIT_HOME. The hook is a `script`: pre-commit's install is
 * its clone of the hook repository, then it runs the committed program action/dist/loopkit.cjs with
 * the `node` on the PATH — no npm install, no build. The first commit (install included) is timed
 * and reported; a commit that breaks a contract is blocked with the located message; a good one
 * passes; a commit of other files skips the hook. Without `pre-commit` on PATH the end-to-end test is
 * skipped, saying so.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cleanEnv, ROOT, run, Temps } from './helpers/cli.js';

const temps = new Temps();
afterAll(() => temps.cleanup(), 120_000);

interface Hook {
  id: string;
  name: string;
  entry: string;
  language: string;
  files: string;
  require_serial?: boolean;
  pass_filenames?: boolean;
  minimum_pre_commit_version?: string;
}
const hooks = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];

const preCommit = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' });
const hasPreCommit = preCommit.status === 0;

describe('.pre-commit-hooks.yaml', () => {
  it("one script hook running the committed program's check (cached by default) on the staged skill files, serially", () => {
    expect(hooks).toHaveLength(1);
    const hook = hooks[0]!;
    expect(hook).toMatchObject({ id: 'loopkit', language: 'script', entry: 'action/dist/loopkit.cjs check', require_serial: true });
    // pass_filenames stays true: loopkit maps the files to their project
    expect(hook.pass_filenames).toBeUndefined();
    // a script hook's entry is a file of the hook repository, run as a program: committed, executable, with a node shebang
    const program = hook.entry.split(' ')[0]!;
    expect(spawnSync('git', ['ls-files', '-s', program], { cwd: ROOT, encoding: 'utf8' }).stdout).toMatch(/^100755 /u);
    expect(readFileSync(join(ROOT, program), 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  });

  it('files: skill files anywhere, the configuration, and everything in a skills directory', () => {
    const files = new RegExp(hooks[0]!.files, 'u');
    for (const f of [
      'SKILL.md',
      'skills/a/SKILL.md',
      'skills/a/LOOP.md',
      'skills/a/HANDOFFS.md',
      '.loopkit.yaml',
      'sub/project/.loopkit.yaml',
      'skills/a/references/guide.md',
      'skills/a/scripts/run.py',
      '.claude/skills/a/SKILL.md',
      'plugins/p/skills/a/notes.md',
      'agents/custom/LOOP.md',
    ]) {
      expect(files.test(f), f).toBe(true);
    }
    for (const f of ['README.md', 'src/index.ts', 'docs/skill.md', 'MYSKILL.md', 'loopkit.yaml', 'my-skills/x.md'])
      expect(files.test(f), f).toBe(false);
  });
});

/** A git command in `cwd`; throws with its output when it fails. */
function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: cleanEnv({ GIT_CONFIG_NOSYSTEM: '1' }) });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

const gitIdentity = ['-c', 'user.name=loopkit test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false'];

/** This repository's working tree (tracked and new files, not ignored ones) as a fresh repository with one commit. */
function hookRepository(): { path: string; rev: string } {
  const dir = temps.dir('loopkit-hook-repo-');
  const list = git(ROOT, 'ls-files', '--cached', '--others', '--exclude-standard', '-z')
    .split('\0')
    .filter((f) => f !== '');
  for (const f of list) {
    const from = join(ROOT, f);
    try {
      mkdirSync(dirname(join(dir, f)), { recursive: true });
      copyFileSync(from, join(dir, f));
      chmodSync(join(dir, f), statSync(from).mode);
    } catch {
      // a file deleted in the working tree but still in the index
    }
  }
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, ...gitIdentity, 'commit', '-q', '-m', 'loopkit under test');
  return { path: dir, rev: git(dir, 'rev-parse', 'HEAD') };
}

describe('pre-commit, end to end', () => {
  if (!hasPreCommit) console.warn('pre-commit is not installed (Debian: apt-get install pre-commit): the end-to-end hook test is skipped');
  const title = hasPreCommit
    ? `blocks a commit that breaks a contract, with the located message; passes a good one (${preCommit.stdout.trim()})`
    : 'SKIPPED: the pre-commit tool is not installed (Debian: apt-get install pre-commit), so the hook was not run end to end';
  it.skipIf(!hasPreCommit)(
    title,
    async () => {
      const hookRepo = hookRepository();
      const home = temps.dir('loopkit-pre-commit-home-');
      const project = temps.dir('loopkit-pre-commit-project-');
      const env = cleanEnv({
        PRE_COMMIT_HOME: join(home, 'cache'),
        GIT_CONFIG_NOSYSTEM: '1',
        XDG_CACHE_HOME: join(home, 'xdg'),
        npm_config_update_notifier: 'false',
        npm_config_fund: 'false',
        npm_config_audit: 'false',
      });
      const sh = (cmd: string, ...args: string[]) => spawnSync(cmd, args, { cwd: project, env, encoding: 'utf8' });
      git(project, 'init', '-q');
      writeFileSync(
        join(project, '.pre-commit-config.yaml'),
        `repos:\n  - repo: ${hookRepo.path}\n    rev: ${hookRepo.rev}\n    hooks:\n      - id: loopkit\n`,
      );
      expect((await run(['init', '--yes'], { cwd: project })).status).toBe(0);
      const install = sh('pre-commit', 'install');
      expect(install.status, install.stderr).toBe(0);

      // the first commit installs the hook (pre-commit clones the hook repository; nothing else) and checks: a good commit passes
      sh('git', 'add', '-A');
      const started = performance.now();
      const good = sh('git', ...gitIdentity, 'commit', '-m', 'skills');
      const firstRun = performance.now() - started;
      expect(good.status, `${good.stdout}\n${good.stderr}`).toBe(0);
      expect(good.stdout + good.stderr).toMatch(/loopkit\.+Passed/u);
      expect(good.stderr).toContain('Initializing environment for');
      expect(good.stdout + good.stderr).not.toMatch(/npm|Installing environment/u);
      console.log(`pre-commit's first run (a fresh PRE_COMMIT_HOME, the hook's install included): ${Math.round(firstRun)} ms`);

      // a commit that breaks a contract is blocked with the located message
      const loop = join(project, 'skills', 'reviewing-changes', 'LOOP.md');
      writeFileSync(loop, readFileSync(loop, 'utf8').replace('transition in-review → done', 'transition in-review → Done'));
      sh('git', 'add', '-A');
      const bad = sh('git', ...gitIdentity, 'commit', '-m', 'break it');
      const out = bad.stdout + bad.stderr;
      expect(bad.status, out).not.toBe(0);
      expect(out).toMatch(/loopkit\.+Failed/u);
      expect(out).toMatch(/skills\/reviewing-changes\/LOOP\.md:\d+:\d+: error: State 'Done' .*\[state-invalid-name\]/u);
      expect(git(project, 'log', '--format=%s')).toBe('skills');

      // other files do not run the hook
      git(project, 'reset', '-q', '--hard', 'HEAD');
      writeFileSync(join(project, 'README.md'), '# notes\n');
      sh('git', 'add', 'README.md');
      const other = sh('git', ...gitIdentity, 'commit', '-m', 'readme');
      expect(other.status, other.stdout + other.stderr).toBe(0);
      expect(other.stdout + other.stderr).toMatch(/loopkit\.+\(no files to check\)Skipped/u);
    },
    600_000,
  );
});
