/**
 * The package as users get it: `npm pack` of this repository (after the build of `npm test`),
 * installed with `npm install <tarball>` into a temporary directory (from the npm cache where it
 * can), then `loopkit init && loopkit check` in an empty directory — the installed package alone,
 * not the repository.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rules } from '../src/rules/index.js';
import { cleanEnv, ROOT, Temps } from './helpers/cli.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

const npmEnv = () => cleanEnv({ npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' });

let installed = '';
let tarball = '';
let files: string[] = [];

beforeAll(() => {
  const packDir = temps.dir('loopkit-pack-');
  // --ignore-scripts: dist/ was built by `npm test`; rebuilding it here would pull it from under the other tests
  const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], {
    cwd: ROOT,
    env: npmEnv(),
    encoding: 'utf8',
  });
  expect(pack.status, pack.stderr).toBe(0);
  const info = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  tarball = join(packDir, info[0]!.filename);
  files = info[0]!.files.map((f) => f.path);
  installed = temps.dir('loopkit-installed-');
  writeFileSync(join(installed, 'package.json'), '{ "name": "uses-loopkit", "version": "1.0.0", "private": true }\n');
  const install = spawnSync('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: installed,
    env: npmEnv(),
    encoding: 'utf8',
  });
  expect(install.status, install.stderr).toBe(0);
}, 300_000);

const loopkit = (cwd: string, ...args: string[]) =>
  spawnSync(join(installed, 'node_modules', '.bin', 'loopkit'), args, { cwd, env: cleanEnv(), encoding: 'utf8' });

describe('the npm package', () => {
  it('holds the program, the rule pages and the schema — not the sources, tests or fixtures', () => {
    for (const f of [
      'bin/loopkit.js',
      'dist/cli.js',
      'dist/version.js',
      'dist/worker.js',
      'schema/loopkit.schema.json',
      'docs/rules/loop-section-order.md',
      'package.json',
      'README.md',
    ]) {
      expect(files, f).toContain(f);
    }
    for (const prefix of ['src/', 'test/', 'fixtures/', 'scripts/', 'bench/', 'action/', 'skills/', 'examples/']) {
      expect(
        files.filter((f) => f.startsWith(prefix)),
        prefix,
      ).toEqual([]);
    }
  });

  it('installed from the tarball: loopkit init && loopkit check pass in an empty directory', () => {
    const empty = temps.dir('loopkit-empty-');
    const init = loopkit(empty, 'init', '--yes');
    expect(init.status, init.stderr).toBe(0);
    expect(init.stdout).toContain('Created .loopkit.yaml with preset loop-language');
    const check = loopkit(empty, 'check');
    expect(check.stderr).toBe('');
    expect(check.stdout).toBe(`PASS  0 errors, 0 warnings, 0 info  ·  1 skill, ${rules.length} verifications\n`);
    expect(check.status).toBe(0);
  });

  it('installed from the tarball: counts tokens with the tokenizer it depends on (resolved when first needed)', () => {
    const dir = temps.dir('loopkit-tokens-');
    cpSync(join(ROOT, 'fixtures', 'rules', 'skill-body-too-many-tokens', 'invalid', 'japanese-skill'), dir, { recursive: true });
    const check = loopkit(dir, 'check', '--preset', 'agent-skills', '--rule', 'skill-body-too-many-tokens', '--format', 'compact');
    expect(check.stderr).toBe('');
    expect(check.stdout).toMatch(/SKILL\.md is ~\d+ tokens/u);
  });

  it('answers --version, lists and explains rules from its own pages', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(loopkit(installed, '--version').stdout).toBe(`${pkg.version}\n`);
    expect(loopkit(installed, 'rules').stdout).toContain('loop-section-order');
    const explain = loopkit(installed, 'explain', 'loop-section-order');
    expect(explain.status).toBe(0);
    expect(explain.stdout).toContain('What it checks');
  });

  it('init in a project that has loopkit installed points the $schema comment at the installed schema', () => {
    const init = loopkit(installed, 'init', '--yes', '--preset', 'agent-skills');
    expect(init.status, init.stderr).toBe(0);
    const config = readFileSync(join(installed, '.loopkit.yaml'), 'utf8');
    expect(config.split('\n')[0]).toBe('# yaml-language-server: $schema=node_modules/loopkit/schema/loopkit.schema.json');
    expect(config.split('\n')[1]).not.toContain('npm install');
    expect(existsSync(join(installed, 'node_modules', 'loopkit', 'schema', 'loopkit.schema.json'))).toBe(true);
    const check = loopkit(installed, 'check');
    expect(check.status, check.stdout).toBe(0);
  });
});
