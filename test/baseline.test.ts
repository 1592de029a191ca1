/** --baseline / --update-baseline: keyed by code, file and contract element, not line; new problems fail, stale entries are reported. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rules } from '../src/rules/index.js';
import { noStack, run, Temps } from './helpers/cli.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

const LOOP = join('skills', 'running-a', 'LOOP.md');
const SKILL = join('skills', 'running-a', 'SKILL.md');
const edit = (dir: string, file: string, f: (s: string) => string) =>
  writeFileSync(join(dir, file), f(readFileSync(join(dir, file), 'utf8')));

interface Report {
  diagnostics: { code: string; message: string; location: { path: string; line: number } }[];
  summary: { errors: number; warnings: number; baselined?: number };
}
const json = async (dir: string, ...args: string[]) => JSON.parse((await run(['check', '--json', ...args], { cwd: dir })).stdout) as Report;

/** with-errors, its baseline written */
async function adopted(): Promise<string> {
  const dir = temps.copy('with-errors');
  const r = await run(['check', '--update-baseline', '--no-color'], { cwd: dir });
  expect(r.status).toBe(0);
  expect(r.stderr).toBe('loopkit: baseline .loopkit-baseline.json written: 11 problems recorded\n');
  expect(r.stdout).toBe(`PASS  0 errors, 0 warnings, 0 info (11 in baseline)  ·  1 skill, ${rules.length} verifications\n`);
  return dir;
}

describe('baseline', () => {
  it('--update-baseline records every problem by code, file and element, sorted, without lines', async () => {
    const dir = await adopted();
    const doc = JSON.parse(readFileSync(join(dir, '.loopkit-baseline.json'), 'utf8')) as {
      version: number;
      problems: { code: string; file: string; element: string; subject: string; count: number; message: string }[];
    };
    expect(doc.version).toBe(1);
    expect(doc.problems.map((p) => `${p.file} ${p.code} ${p.element} ${p.subject}`)).toEqual([
      '.loopkit.yaml state-enforced-missing key enforced_states[done].name done',
      'skills/running-a/LOOP.md loop-missing-section missing section Entry Conditions ## Entry Conditions',
      'skills/running-a/LOOP.md loop-missing-section missing section Halt Conditions ## Halt Conditions',
      'skills/running-a/LOOP.md loop-missing-section missing section Handoff Target ## Handoff Target',
      'skills/running-a/LOOP.md loop-missing-section missing section Loop State Schema ## Loop State Schema',
      'skills/running-a/LOOP.md loop-missing-section missing section Proof of Progress ## Proof of Progress',
      'skills/running-a/LOOP.md loop-missing-section missing section Single Iteration Step ## Single Iteration Step',
      'skills/running-a/LOOP.md sim-self-loop-only transition in-review → in-review in-review',
      'skills/running-a/LOOP.md sim-unreachable-terminal transition in-dev → in-review in-dev',
      'skills/running-a/LOOP.md state-undeclared-in-skill transition in-dev → in-review in-review',
      'skills/running-a/SKILL.md state-undefined-in-graph section State Model ',
    ]);
    expect(JSON.stringify(doc)).not.toMatch(/"line"/u);
    expect((await json(dir)).summary).toMatchObject({ errors: 0, warnings: 0, baselined: 11 });
  });

  it('stays valid when unrelated lines are added or moved', async () => {
    const dir = await adopted();
    edit(
      dir,
      LOOP,
      (s) =>
        `# Running A\n\nIntro paragraph.\n\n${s.replace('transition in-dev', 'Two transitions:\n\ntransition in-dev')}\n\n<!-- the end -->\n`,
    );
    edit(dir, SKILL, (s) => s.replace('## Rules\n', '## Rules\n\nA new first line.\n\n'));
    edit(dir, '.loopkit.yaml', (s) => `# a comment\nmax_iterations: 20\n${s}`);
    const r = await run(['check', '--no-color'], { cwd: dir });
    expect(r.stdout).toBe(`PASS  0 errors, 0 warnings, 0 info (11 in baseline)  ·  1 skill, ${rules.length} verifications\n`);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('a new problem fails the run, and only it is reported', async () => {
    const dir = await adopted();
    // in.done is badly named, undeclared, and no transition leaves it
    edit(dir, LOOP, (s) => `${s}transition in-review → in.done\n`);
    const r = await json(dir);
    expect(r.diagnostics.map((d) => d.code).sort()).toEqual(['graph-dead-end', 'state-invalid-name', 'state-undeclared-in-skill']);
    expect((await run(['check'], { cwd: dir })).status).toBe(1);
    // a second problem of a recorded kind in the same element is new too
    const two = await adopted();
    edit(two, '.loopkit.yaml', (s) => s.replace('  - name: done\n', '  - name: done\n  - name: finished\n'));
    expect((await json(two)).diagnostics.map((d) => d.message)).toEqual([
      "Enforced state 'finished' () is not present in any transition graph",
    ]);
  });

  it('stale entries are reported on stderr (not in --quiet), and do not fail the run', async () => {
    const dir = await adopted();
    edit(dir, LOOP, (s) => `## Entry Conditions\n\nAlways.\n\n${s}`);
    const r = await run(['check'], { cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(
      'loopkit: 1 problem of baseline .loopkit-baseline.json no longer occur; --update-baseline removes them:\n' +
        '  skills/running-a/LOOP.md: loop-missing-section (missing section Entry Conditions: ## Entry Conditions)\n',
    );
    expect((await run(['check', '--quiet'], { cwd: dir })).stderr).toBe('');
    await run(['check', '--update-baseline'], { cwd: dir });
    expect((await run(['check'], { cwd: dir })).stderr).toBe('');
  });

  it('--baseline FILE anywhere; --no-baseline ignores the default file; --rule keeps the entries of other rules', async () => {
    const dir = temps.copy('with-errors');
    const elsewhere = join(temps.dir(), 'debt.json');
    expect((await run(['check', dir, '--update-baseline', '--baseline', elsewhere])).status).toBe(0);
    expect(existsSync(join(dir, '.loopkit-baseline.json'))).toBe(false);
    expect((await run(['check', dir, '--baseline', elsewhere])).status).toBe(0);
    expect((await run(['check', dir])).status).toBe(1);

    const own = await adopted();
    expect((await run(['check', '--no-baseline'], { cwd: own })).status).toBe(1);
    edit(own, LOOP, (s) => `## Entry Conditions\n\nAlways.\n\n${s}`);
    await run(['check', '--update-baseline', '--rule', 'loop-missing-section'], { cwd: own });
    const doc = JSON.parse(readFileSync(join(own, '.loopkit-baseline.json'), 'utf8')) as { problems: { code: string }[] };
    expect(doc.problems.filter((p) => p.code === 'loop-missing-section')).toHaveLength(5);
    expect(doc.problems).toHaveLength(10);
  });

  it('a baseline that is missing (when named) or broken is exit 2 with a message', async () => {
    const dir = temps.copy('with-errors');
    const missing = await run(['check', dir, '--baseline', join(dir, 'nope.json')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('nope.json not found (write it with --update-baseline)');
    writeFileSync(join(dir, '.loopkit-baseline.json'), '{"version": 1, "problems": [{"code": 1}]}');
    const broken = await run(['check', dir]);
    expect(broken.status).toBe(2);
    expect(broken.stderr).toContain('.loopkit-baseline.json is problems[0] needs code, file, element, subject (strings) and count');
    writeFileSync(join(dir, '.loopkit-baseline.json'), 'not json');
    expect((await run(['check', dir])).stderr).toContain('is not valid JSON');
    noStack(broken);
    expect((await run(['check', dir, '--no-baseline', '--update-baseline'])).stderr).toContain('exclude each other');
  });
});
