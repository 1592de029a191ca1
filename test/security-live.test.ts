/**
 * The commands a user runs from a terminal, on a project that attacks them (test/helpers/attack.ts):
 * `trace --follow` and `watch` never hang on a FIFO or read a device without end; `check` reads no
 * file through a link that leads out (a SKILL.md, the configuration) and looks up no state file
 * outside the project; the one program loopkit runs, git, is never one the repository ships; and a
 * file name cannot write escape sequences to the terminal. The built CLI, in a child process.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitProgram } from '../src/discover/walk.js';
import { attackLayout, ENV_NAME, ENV_SECRET, noLeak } from './helpers/attack.js';
import { BIN, cleanEnv, run, Temps } from './helpers/cli.js';
import { EventQueue } from './helpers/events.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

const env = { [ENV_NAME]: ENV_SECRET };

describe('trace --follow and watch on what is no file to follow', () => {
  it('trace --follow refuses a FIFO and /dev/zero at once (exit 2); trace refuses a FIFO', async () => {
    const { project } = attackLayout(temps);
    const follow = (file: string) =>
      spawnSync(process.execPath, [BIN, 'trace', '--follow', file], {
        cwd: project,
        env: cleanEnv(env),
        encoding: 'utf8',
        timeout: 60_000,
      });
    const fifo = follow('fifo.json');
    expect([fifo.status, fifo.stderr]).toEqual([2, 'loopkit: error: trace is not a file: fifo.json (a FIFO)\n']);
    const zero = follow('/dev/zero');
    expect([zero.status, zero.stderr]).toEqual([2, 'loopkit: error: trace is not a file: /dev/zero (a device)\n']);
    const once = await run(['trace', 'fifo.json'], { cwd: project, env });
    expect([once.status, once.stderr]).toEqual([2, 'loopkit: error: trace is not a file: fifo.json\n']);
  });

  it('watch says a FIFO and a 1 GiB file cannot be read, and keeps waiting for a readable version (it stops on Ctrl-C)', async () => {
    const { project } = attackLayout(temps);
    for (const [file, why] of [
      ['fifo.json', 'Not a regular file (a FIFO)'],
      ['big.json', 'File is larger than 8 MiB (1 GiB)'],
    ] as const) {
      const child = spawn(process.execPath, [BIN, 'watch', file], { cwd: project, env: cleanEnv(env) });
      const out = new EventQueue<string>();
      let stdout = '';
      child.stdout.on('data', (b: Buffer) => {
        stdout += b.toString();
        out.push(stdout);
      });
      await out.next((s) => s.includes(`${file} cannot be read: ${why}`), `watch to say ${file} cannot be read`);
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      noLeak(stdout);
    }
  });
});

describe('check reads nothing through the project that lies outside it', () => {
  it('a SKILL.md that is a link leading out is a read error, nothing of it quoted', async () => {
    const { project } = attackLayout(temps, { skillLink: true });
    const r = await run(['check', '.', '--format', 'json'], { cwd: project, env });
    expect(r.status).toBe(1);
    noLeak(r.stdout + r.stderr);
    const report = JSON.parse(r.stdout) as { diagnostics: { code: string; location: { path: string }; message: string }[] };
    expect(report.diagnostics.map((d) => [d.code, d.location.path, d.message])).toEqual([
      [
        'skill-read-error',
        'skills/leaking-secrets/SKILL.md',
        'Failed to read skills/leaking-secrets/SKILL.md: Is a symbolic link that leads outside the project (or nowhere)',
      ],
    ]);
  });

  it('a .loopkit.yaml that is a link leading out is a configuration error (exit 2), nothing of it quoted', async () => {
    const { project, base } = attackLayout(temps);
    writeFileSync(join(base, 'config.yaml'), `max_iterations: ${ENV_SECRET}\nskills_dir: skills\n`);
    rmSync(join(project, '.loopkit.yaml'));
    symlinkSync('../config.yaml', join(project, '.loopkit.yaml'));
    const r = await run(['check', '.'], { cwd: project, env });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('.loopkit.yaml: is a symbolic link that leads outside the project');
    noLeak(r.stdout + r.stderr);
  });

  it('a loop_state_files path outside the project is not looked up: the same message whether something is there or not', async () => {
    const { project, base } = attackLayout(temps);
    symlinkSync('../nowhere.json', join(project, 'dangling.json'));
    const config = [
      'skills_dir: skills',
      'loop_state_files:',
      '  - path: ../secret.json',
      '  - path: ../nowhere.json',
      `  - path: ${join(base, 'secret.json')}`,
      '  - path: leak.json',
      '  - path: dangling.json',
      '  - path: .loop/state.json',
      '',
    ].join('\n');
    writeFileSync(join(project, '.loopkit.yaml'), config);
    const r = await run(['check', '.', '--format', 'json'], { cwd: project, env });
    const report = JSON.parse(r.stdout) as { diagnostics: { code: string; message: string }[] };
    const messages = report.diagnostics.filter((d) => d.code === 'loop-state-file-missing').map((d) => d.message);
    expect(messages).toEqual([
      'Loop state file `../secret.json` is outside the project; loopkit does not look outside it',
      'Loop state file `../nowhere.json` is outside the project; loopkit does not look outside it',
      `Loop state file \`${join(base, 'secret.json')}\` is outside the project; loopkit does not look outside it`,
      'Loop state file `leak.json` is outside the project; loopkit does not look outside it',
      'Loop state file `dangling.json` is outside the project; loopkit does not look outside it',
      'Loop state file `.loop/state.json` is missing',
    ]);
    noLeak(r.stdout + r.stderr);
  });

  it('a folder name with an escape sequence is written escaped: the terminal gets no escape sequence from the project', async () => {
    const dir = temps.dir('loopkit-escape-');
    const skill = join(dir, 'skills', 'x\u001b]0;PWNED\u0007y\u202e');
    mkdirSync(skill, { recursive: true });
    writeFileSync(join(skill, 'SKILL.md'), '---\nname: a\ndescription: b\n---\n');
    const r = await run(['check', '.'], { cwd: dir });
    expect(r.stdout).toContain('skills/x\\u001b]0;PWNED\\u0007y\\u202e/SKILL.md');
    expect(r.stdout + r.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/u);
    const compact = await run(['check', '.', '--format', 'compact'], { cwd: dir });
    expect(compact.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/u);
  });
});

describe('the one program loopkit runs is never the repository’s', () => {
  it('a git in the project is not run, even with the working directory on the PATH; the real git still finds tracked skills', async () => {
    const real = gitProgram('/nonexistent-project-root');
    if (real === null) return void console.warn('git is not installed: test skipped');
    const dir = temps.dir('loopkit-git-');
    const marker = join(temps.dir('loopkit-git-marker-'), 'ran');
    // a skill that only git knows is one: its folder is gitignored, the file tracked
    mkdirSync(join(dir, 'skills', 'hidden-skill'), { recursive: true });
    writeFileSync(join(dir, 'skills', 'hidden-skill', 'SKILL.md'), '---\nname: another-name\ndescription: Hides.\n---\n');
    writeFileSync(join(dir, '.gitignore'), 'skills/hidden-skill/\n');
    const git = (...args: string[]) => spawnSync(real, args, { cwd: dir, encoding: 'utf8' });
    git('init', '-q');
    git('add', '-f', '.gitignore', 'skills/hidden-skill/SKILL.md');
    // the repository's own "git", which would prove it ran
    writeFileSync(join(dir, 'git'), `#!/bin/sh\necho ran > '${marker}'\nexit 1\n`);
    chmodSync(join(dir, 'git'), 0o755);
    const path = ['', '.', process.env.PATH ?? ''].join(delimiter);
    const r = await run(['check', '.', '--format', 'json'], { cwd: dir, env: { PATH: path } });
    expect(existsSync(marker), 'the repository’s git ran').toBe(false);
    const report = JSON.parse(r.stdout) as { diagnostics: { location: { path: string } }[] };
    expect(report.diagnostics.some((d) => d.location.path === 'skills/hidden-skill/SKILL.md')).toBe(true);
    expect(gitProgram(dir, { PATH: path })).toBe(real);
    expect(gitProgram(dir, { PATH: `${dir}${delimiter}.` })).toBeNull();
  });
});
