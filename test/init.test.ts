/** loopkit init: the commented config with its $schema comment, the example skill that passes, the preset that fits, never overwriting. */
import Ajv from 'ajv';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rules } from '../src/rules/index.js';
import { parse } from 'yaml';
import { main, type CliIo } from '../src/cli.js';
import { noStack, ROOT, run, Temps } from './helpers/cli.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

const validate = new Ajv().compile(JSON.parse(readFileSync(join(ROOT, 'schema', 'loopkit.schema.json'), 'utf8')) as object);

/** Every file under a directory, relative, sorted. */
function files(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(dir, join(prefix, e.name)) : [join(prefix, e.name)]))
    .sort();
}

describe('loopkit init', () => {
  it('in an empty directory: a commented config and an example Loop Language skill that passes every rule', async () => {
    const dir = temps.dir();
    const r = await run(['init', '--yes'], { cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Created .loopkit.yaml with preset loop-language (no skills yet');
    expect(files(dir)).toEqual(['.loopkit.yaml', 'skills/reviewing-changes/LOOP.md', 'skills/reviewing-changes/SKILL.md']);
    const config = readFileSync(join(dir, '.loopkit.yaml'), 'utf8');
    expect(config.split('\n')[0]).toBe('# yaml-language-server: $schema=node_modules/loopkit/schema/loopkit.schema.json');
    expect(config).toContain('extends: loop-language');
    expect(config.split('\n').filter((l) => l.startsWith('#')).length).toBeGreaterThan(15);
    expect(validate(parse(config)), JSON.stringify(validate.errors)).toBe(true);
    const check = await run(['check'], { cwd: dir });
    expect(check.stdout).toBe(`PASS  0 errors, 0 warnings, 0 info  ·  1 skill, ${rules.length} verifications\n`);
    expect(check.status).toBe(0);
    // every rule ran: the preset enables them all
    expect((await run(['check', '--json'], { cwd: dir })).stdout).toContain(`"verifications": ${rules.length}`);
  });

  it('--preset agent-skills: a plain Agent Skill example that passes', async () => {
    const dir = temps.dir();
    const r = await run(['init', dir, '--preset', 'agent-skills', '--yes']);
    expect(r.status).toBe(0);
    expect(files(dir)).toEqual(['.loopkit.yaml', 'skills/summarizing-notes/SKILL.md']);
    expect(readFileSync(join(dir, '.loopkit.yaml'), 'utf8')).toContain('extends: agent-skills');
    const check = await run([dir]);
    expect(check.stdout).toMatch(/^PASS {2}0 errors, 0 warnings, 0 info/mu);
    expect(check.stderr).toBe('');
  });

  it('counts the skills check finds: an index, a piece of another skill and their skills as check classifies them', async () => {
    const dir = temps.dir();
    const fm = (name: string) =>
      `---\nname: ${name}\ndescription: Does ${name}. Use when the user asks to ${name}.\n---\n# ${name}\n\nDo it.\n`;
    mkdirSync(join(dir, 'openclaw', 'skills', 'do'), { recursive: true });
    mkdirSync(join(dir, 'skills', 'flow'), { recursive: true });
    mkdirSync(join(dir, 'flavors', 'flow'), { recursive: true });
    // an index of the skills below it, and a piece of skills/flow (no frontmatter, the same folder name)
    writeFileSync(join(dir, 'openclaw', 'SKILL.md'), '# The skills of openclaw\n');
    writeFileSync(join(dir, 'openclaw', 'skills', 'do', 'SKILL.md'), fm('do'));
    writeFileSync(join(dir, 'skills', 'flow', 'SKILL.md'), fm('flow'));
    writeFileSync(join(dir, 'flavors', 'flow', 'SKILL.md'), '# Flow for the web\n');
    const r = await run(['init', dir, '--yes']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('with preset agent-skills (2 skills without LOOP.md');
    expect((await run(['check', dir, '--no-cache'])).stdout).toMatch(/· {2}2 skills, /u);
  });

  it('picks the preset that fits an existing project and adds no example', async () => {
    const plain = temps.copy('plain-collection');
    const a = await run(['init', plain, '--yes']);
    expect(a.status).toBe(0);
    expect(a.stdout).toContain('with preset agent-skills (2 skills without LOOP.md');
    expect(files(plain).filter((f) => f.endsWith('SKILL.md'))).toHaveLength(2);
    const cfg = readFileSync(join(plain, '.loopkit.yaml'), 'utf8');
    expect(cfg).toContain('extends: agent-skills\n');
    // the agent-skills preset finds every SKILL.md by itself: no skills_dir to keep up to date
    expect(cfg).not.toMatch(/^skills_dir:/mu);
    expect((await run([plain])).status).toBe(0);

    const loop = temps.copy('clean');
    rmSync(join(loop, '.loopkit.yaml'));
    const b = await run(['init', loop, '--yes']);
    expect(b.stdout).toContain('with preset loop-language (1 skill, with LOOP.md contracts)');
    expect(files(loop)).toEqual(['.loopkit.yaml', 'skills/running-a/LOOP.md', 'skills/running-a/SKILL.md']);
    expect(validate(parse(readFileSync(join(loop, '.loopkit.yaml'), 'utf8')))).toBe(true);

    const market = temps.copy('marketplace');
    await run(['init', market, '--yes']);
    expect(readFileSync(join(market, '.loopkit.yaml'), 'utf8')).not.toMatch(/^skills_dir:/mu);
    expect((await run([market, '--json'])).stdout).toContain('"skills_checked": 2');

    // Loop Language contracts kept in plugins: the loop-language preset looks in skills/ unless told, so init names the folders
    const plugins = temps.copy('clean');
    rmSync(join(plugins, '.loopkit.yaml'));
    mkdirSync(join(plugins, 'plugins', 'alpha'), { recursive: true });
    renameSync(join(plugins, 'skills'), join(plugins, 'plugins', 'alpha', 'skills'));
    await run(['init', plugins, '--yes']);
    expect(readFileSync(join(plugins, '.loopkit.yaml'), 'utf8')).toContain('skills_dir: plugins/alpha/skills/\n');
    const checked = (await run([plugins, '--json'])).stdout;
    expect(checked).toContain('"skills_checked": 1');
    expect(checked).not.toContain('skill-outside-skills-dir');

    // a Loop Language repository that is one skill (SKILL.md and LOOP.md at its top): the root is its skills directory
    const one = temps.copy('clean');
    rmSync(join(one, '.loopkit.yaml'));
    for (const f of ['SKILL.md', 'LOOP.md']) renameSync(join(one, 'skills', 'running-a', f), join(one, f));
    rmSync(join(one, 'skills'), { recursive: true });
    expect((await run(['init', one, '--yes'])).stdout).toContain('with preset loop-language (1 skill, with LOOP.md contracts)');
    expect(readFileSync(join(one, '.loopkit.yaml'), 'utf8')).toContain('skills_dir: ./\n');
    const root = await run([one, '--json']);
    expect(root.stdout).toContain('"skills_checked": 1');
    expect(root.stdout).not.toContain('skill-outside-skills-dir');
  });

  it('creates the directory it is given', async () => {
    const dir = join(temps.dir(), 'new', 'project');
    expect((await run(['init', dir, '-y'])).status).toBe(0);
    expect((await run([dir])).status).toBe(0);
  });

  it('never overwrites: an existing .loopkit.yaml or example file is exit 2 and nothing is written', async () => {
    const dir = temps.dir();
    writeFileSync(join(dir, '.loopkit.yaml'), 'extends: agent-skills\n');
    const r = await run(['init', dir, '--yes']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('.loopkit.yaml already exists; loopkit init never overwrites a file');
    noStack(r);
    expect(readFileSync(join(dir, '.loopkit.yaml'), 'utf8')).toBe('extends: agent-skills\n');

    const other = temps.dir();
    mkdirSync(join(other, 'skills', 'reviewing-changes'), { recursive: true });
    writeFileSync(join(other, 'skills', 'reviewing-changes', 'LOOP.md'), 'mine\n');
    const e = await run(['init', other, '--yes']);
    expect(e.status).toBe(2);
    expect(e.stderr).toContain('skills/reviewing-changes/LOOP.md already exists; loopkit init never overwrites a file');
    expect(files(other)).toEqual(['skills/reviewing-changes/LOOP.md']);
  });

  it('an unknown preset or a file as the directory is exit 2', async () => {
    const dir = temps.dir();
    const p = await run(['init', dir, '--preset', 'agent-skill']);
    expect(p.status).toBe(2);
    expect(p.stderr).toContain("unknown preset 'agent-skill'; did you mean 'agent-skills'?");
    writeFileSync(join(dir, 'file'), '');
    expect((await run(['init', join(dir, 'file')])).stderr).toContain('not a directory');
    expect(existsSync(join(dir, '.loopkit.yaml'))).toBe(false);
  });

  it('in a terminal it asks before writing; --yes does not ask', async () => {
    const io = (answer: string, asked: string[], out: string[]): CliIo => ({
      stdout: (s) => out.push(s),
      stderr: (s) => out.push(s),
      env: {},
      isTTY: true,
      ask: async (q) => {
        asked.push(q);
        return answer;
      },
    });
    const no = temps.dir();
    const asked: string[] = [];
    const out: string[] = [];
    expect(await main(['init', no], io('n', asked, out))).toBe(1);
    expect(asked).toEqual(['Write these files? [Y/n] ']);
    expect(out.join('')).toContain('loopkit init will write, with preset loop-language');
    expect(out.join('')).toContain('Nothing written.');
    expect(readdirSync(no)).toEqual([]);

    const yes = temps.dir();
    expect(await main(['init', yes], io('', [], []))).toBe(0);
    expect(existsSync(join(yes, '.loopkit.yaml'))).toBe(true);

    const scripted = temps.dir();
    const none: string[] = [];
    expect(await main(['init', scripted, '--yes'], io('n', none, []))).toBe(0);
    expect(none).toEqual([]);
    expect(existsSync(join(scripted, '.loopkit.yaml'))).toBe(true);
  });
});
