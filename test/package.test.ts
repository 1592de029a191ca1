/**
 * The package as users get it: `npm pack` of this repository (after the build of `npm test`),
 * installed with `npm install <tarball>` into an empty project — the installed package alone, not
 * the repository. It is self-contained: one package in node_modules, no install script, no npm
 * warning, and its four kinds of program work from it: `npx loopkit check`, the language server and
 * the MCP server (initialize handshake and one request each), and `graph --format svg` (the
 * WebAssembly Graphviz bundled in it). `.ci/run` runs it with the rest of `npm test`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rules } from '../src/rules/index.js';
import { cleanEnv, PROJECTS, ROOT, Temps } from './helpers/cli.js';
import { LspClient } from './helpers/lsp.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

const npmEnv = () => cleanEnv({ npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' });

/** The acceptance bounds of an install (issue 26): packages in node_modules, and their size on disk. */
const MAX_PACKAGES = 10;
const MAX_BYTES = 25 * 1024 * 1024;

let installed = '';
let tarball = '';
let files: string[] = [];
let installOutput = '';

/** Every package directory under node_modules (nested and scoped ones too). */
function packagesIn(nodeModules: string): string[] {
  const out: string[] = [];
  if (!existsSync(nodeModules)) return out;
  for (const e of readdirSync(nodeModules, { withFileTypes: true })) {
    if (!e.isDirectory() || e.name.startsWith('.')) continue;
    const dirs = e.name.startsWith('@')
      ? readdirSync(join(nodeModules, e.name), { withFileTypes: true })
          .filter((s) => s.isDirectory())
          .map((s) => join(nodeModules, e.name, s.name))
      : [join(nodeModules, e.name)];
    for (const d of dirs) {
      out.push(d);
      out.push(...packagesIn(join(d, 'node_modules')));
    }
  }
  return out;
}

/** Bytes of every file under `dir`. */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += bytesUnder(p);
    else if (e.isFile()) total += statSync(p).size;
  }
  return total;
}

beforeAll(() => {
  const packDir = temps.dir('loopkit-pack-');
  // --ignore-scripts: dist/ was built by `npm test`; rebuilding it here (prepack) would pull it from under the other tests
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
  // npm's own log level (notice): every warning it has is printed
  const install = spawnSync('npm', ['install', tarball, '--no-audit', '--no-fund', '--loglevel=notice'], {
    cwd: installed,
    env: npmEnv(),
    encoding: 'utf8',
  });
  installOutput = `${install.stdout}${install.stderr}`;
  expect(install.status, installOutput).toBe(0);
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

  it('is self-contained: no runtime dependencies, no install script, no source maps, one tokenizer encoding', () => {
    const pkg = JSON.parse(readFileSync(join(installed, 'node_modules', 'loopkit', 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      scripts?: Record<string, string>;
    };
    expect(pkg.dependencies ?? {}).toEqual({});
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts?.[script], script).toBeUndefined();
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    // gpt-tokenizer ships every encoding; the package has the one loopkit counts with (src/util/tokens.ts)
    expect(files).toContain('dist/vendor/cl100k_base.cjs');
    expect(files.filter((f) => /o200k|p50k|r50k/u.test(f))).toEqual([]);
    expect(files).toContain('dist/THIRD-PARTY-NOTICES.txt');
  });

  it(`installs as at most ${MAX_PACKAGES} packages and ${MAX_BYTES / 1024 / 1024} MB, without an npm warning`, () => {
    const nodeModules = join(installed, 'node_modules');
    const packages = packagesIn(nodeModules);
    const bytes = bytesUnder(nodeModules);
    console.log(`the installed tarball: ${packages.length} package(s), ${(bytes / 1024 / 1024).toFixed(1)} MB in node_modules`);
    expect(packages.length).toBeGreaterThanOrEqual(1);
    expect(packages.length).toBeLessThanOrEqual(MAX_PACKAGES);
    expect(bytes).toBeLessThanOrEqual(MAX_BYTES);
    expect(installOutput).not.toMatch(/npm warn/iu);
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

  it('installed from the tarball: counts tokens with the encoding it bundles (loaded when first needed)', () => {
    const dir = temps.dir('loopkit-tokens-');
    cpSync(join(ROOT, 'fixtures', 'rules', 'skill-body-too-many-tokens', 'invalid', 'japanese-skill'), dir, { recursive: true });
    const check = loopkit(dir, 'check', '--preset', 'strict', '--rule', 'skill-body-too-many-tokens', '--format', 'compact');
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

describe('the installed package runs its four kinds of program', () => {
  it('npx loopkit check', () => {
    const r = spawnSync('npx', ['--no-install', 'loopkit', 'check', join(PROJECTS, 'with-errors'), '--format', 'compact'], {
      cwd: installed,
      env: npmEnv(),
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(`${join(PROJECTS, 'with-errors', '.loopkit.yaml')}: line 2, col 5, Error - `);
    expect(r.stdout).toMatch(/\(state-enforced-missing\)$/mu);
    expect(r.status).toBe(1);
  });

  it('graph --format svg: the WebAssembly Graphviz it bundles draws the picture', () => {
    const r = loopkit(installed, 'graph', join(ROOT, 'examples', 'loop'), '--format', 'svg');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^<\?xml[\s\S]*<svg[\s\S]*loop&#45;iterating[\s\S]*<\/svg>\n?$/u);
  });

  it('lsp: initialize, then diagnostics for a broken project', async () => {
    const project = join(PROJECTS, 'with-errors');
    const client = await LspClient.start([project], { bin: join(installed, 'node_modules', 'loopkit', 'bin', 'loopkit.js') });
    try {
      await client.settled();
      const loop = client.of(join(project, 'skills', 'running-a', 'LOOP.md'));
      expect(loop.length).toBeGreaterThan(0);
      expect(loop.every((d) => d.source === 'loopkit')).toBe(true);
    } finally {
      await client.stop();
    }
  }, 120_000);

  it('mcp: initialize, then the check tool', async () => {
    const child = spawn(join(installed, 'node_modules', '.bin', 'loopkit'), ['mcp', '--project', join(ROOT, 'examples', 'loop')], {
      env: cleanEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const answers = new Map<number, Record<string, unknown>>();
    const waiting = new Map<number, (a: Record<string, unknown>) => void>();
    createInterface({ input: child.stdout }).on('line', (line) => {
      const msg = JSON.parse(line) as { id?: number } & Record<string, unknown>;
      if (typeof msg.id !== 'number') return;
      answers.set(msg.id, msg);
      waiting.get(msg.id)?.(msg);
    });
    const request = (id: number, method: string, params: unknown) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer to ${method}`)), 60_000);
        waiting.set(id, (a) => {
          clearTimeout(timer);
          resolve(a);
        });
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      });
    try {
      const init = await request(1, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'package-test', version: '1' },
      });
      expect((init.result as { serverInfo: { name: string } }).serverInfo.name).toBe('loopkit');
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      const check = await request(2, 'tools/call', { name: 'check', arguments: {} });
      const result = check.result as { isError?: boolean; structuredContent?: { errors: number; skills: number } };
      expect(result.isError ?? false).toBe(false);
      expect(result.structuredContent).toMatchObject({ errors: 0, skills: 1 });
    } finally {
      child.kill();
    }
  }, 120_000);
});

describe("a team's plugin, packed and installed beside loopkit (examples/plugin, docs/api.md)", () => {
  let project = '';
  let pluginSource = '';
  const skill = (name: string, metadata: string) =>
    `---\nname: ${name}\ndescription: Writes ${name} notes. Use when asked to write ${name} notes.\n${metadata}---\n\n# ${name}\n\nWrite the notes.\n`;
  const inProject = (...args: string[]) =>
    spawnSync(join(project, 'node_modules', '.bin', 'loopkit'), args, { cwd: project, env: cleanEnv(), encoding: 'utf8' });

  beforeAll(() => {
    const packDir = temps.dir('loopkit-plugin-pack-');
    const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', packDir], {
      cwd: join(ROOT, 'examples', 'plugin'),
      env: npmEnv(),
      encoding: 'utf8',
    });
    expect(pack.status, pack.stderr).toBe(0);
    const pluginTarball = join(packDir, (JSON.parse(pack.stdout) as { filename: string }[])[0]!.filename);
    project = temps.project({
      'package.json': '{ "name": "team-skills", "version": "1.0.0", "private": true }\n',
      '.loopkit.yaml': 'extends: agent-skills\nplugins:\n  - loopkit-plugin-example\nrules:\n  example/skill-owner-required: error\n',
      'skills/owned/SKILL.md': skill('owned', 'metadata:\n  owner: docs-team\n'),
      'skills/unowned/SKILL.md': skill('unowned', ''),
    });
    // both from their tarballs, nothing from a registry: the plugin's peer dependency is the loopkit beside it
    const install = spawnSync('npm', ['install', tarball, pluginTarball, '--offline', '--no-audit', '--no-fund'], {
      cwd: project,
      env: npmEnv(),
      encoding: 'utf8',
    });
    expect(install.status, `${install.stdout}${install.stderr}`).toBe(0);
    // the plugin's sources with its tests, where `loopkit/testing` resolves to the installed package
    pluginSource = join(project, 'plugin-source');
    cpSync(join(ROOT, 'examples', 'plugin'), pluginSource, { recursive: true });
  }, 300_000);

  it('npx loopkit check reports the rule on the skill without an owner only, and exits 1', () => {
    const r = spawnSync('npx', ['--no-install', 'loopkit', 'check', '--format', 'compact'], {
      cwd: project,
      env: npmEnv(),
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      "skills/unowned/SKILL.md: line 1, col 1, Error - Skill 'unowned' names no owner (metadata.owner) (example/skill-owner-required)\n\n1 problem\n",
    );
    expect(r.status).toBe(1);
  });

  it('loopkit rules lists it, explain shows it', () => {
    const rules = inProject('rules');
    expect(rules.status).toBe(0);
    expect(rules.stdout).toMatch(/^example\/skill-owner-required +warning +warning +definite +plugin +every skill names its owner/mu);
    const explain = inProject('explain', 'example/skill-owner-required', '--no-color');
    expect(explain.stdout).toContain('every skill names its owner in its frontmatter (metadata.owner)');
  });

  it('the language server shows it', async () => {
    const client = await LspClient.start([project], { bin: join(project, 'node_modules', 'loopkit', 'bin', 'loopkit.js') });
    try {
      await client.settled();
      const unowned = client.of(join(project, 'skills', 'unowned', 'SKILL.md'));
      expect(unowned.map((d) => [d.code, d.range.start.line, d.severity])).toEqual([['example/skill-owner-required', 0, 1]]);
      expect(client.of(join(project, 'skills', 'owned', 'SKILL.md'))).toEqual([]);
    } finally {
      await client.stop();
    }
  }, 120_000);

  it("the plugin's own tests pass with the rule tester of the installed loopkit (node --test)", () => {
    const r = spawnSync(process.execPath, ['--test', 'test/'], { cwd: pluginSource, env: cleanEnv(), encoding: 'utf8' });
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/^# pass 4$/mu);
    expect(r.stdout).toMatch(/^# fail 0$/mu);
  });

  it('a plugin that throws while it loads: exit 2, naming its file and line', () => {
    const broken = temps.dir('loopkit-broken-plugin-');
    cpSync(join(project, 'skills'), join(broken, 'skills'), { recursive: true });
    writeFileSync(join(broken, 'acme.mjs'), "export const x = 1;\nthrow new Error('acme needs ACME_TOKEN');\n");
    writeFileSync(join(broken, '.loopkit.yaml'), 'plugins: ./acme.mjs\n');
    const r = spawnSync(join(project, 'node_modules', '.bin', 'loopkit'), ['check'], { cwd: broken, env: cleanEnv(), encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      "loopkit: invalid configuration\n  .loopkit.yaml:1:10: plugin './acme.mjs' failed to load: acme needs ACME_TOKEN (at acme.mjs:2:7)\n",
    );
  });
});
