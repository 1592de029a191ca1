/**
 * `loopkit coverage`: runs built with known coverage (numbers per skill and in total, the marks of
 * the picture), a session whose state file cannot tell which state (possibly exercised), the figures
 * docs/walkthrough.md quotes for the examples' recorded sessions, --min, and bad input.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, describe, expect, it } from 'vitest';
import { measureCoverage } from '../src/commands/coverage.js';
import { noStack, ROOT, run, Temps, type Run } from './helpers/cli.js';
import { RUNTIME_PROJECT } from './helpers/fixtures.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

/**
 * A copy of fixtures/runtime/project (6 transitions: running-a in-dev → in-review (handoff) and
 * in-dev → halted-stall (halt after 3); reviewing-b in-review → in-dev (handoff), in-review → done
 * (handoff done); shipping-c ship-ready → ship-check (handoff), ship-check → done) with two runs:
 * a.jsonl takes in-dev → in-review → done, b.jsonl stays two iterations in in-dev and halts.
 */
function project(): string {
  const dir = temps.copyOf(RUNTIME_PROJECT);
  writeFileSync(join(dir, '.loopkit.yaml'), `${readFileSync(join(RUNTIME_PROJECT, '.loopkit.yaml'), 'utf8')}halt_reasons: [stall]\n`);
  writeFileSync(join(dir, 'a.jsonl'), ['in-dev', 'in-review', 'done'].map((state) => JSON.stringify({ state })).join('\n'));
  writeFileSync(
    join(dir, 'b.jsonl'),
    [
      { state: 'in-dev', iteration: 1 },
      { state: 'in-dev', iteration: 2 },
      { state: 'halted-stall', iteration: 3 },
    ]
      .map((s) => JSON.stringify(s))
      .join('\n'),
  );
  return dir;
}

const version = (stage: string) => ({
  stage,
  story: 'S-1',
  count: 1,
  green: false,
  started: '2024-01-17T09:00:00Z',
  tags: [],
  checks: {},
  owner: { name: 'ada' },
  mode: 'fast',
});

describe('coverage of runs with known coverage', () => {
  it('counts transitions, handoffs and halt bounds per skill and in total', async () => {
    const dir = project();
    const m = await measureCoverage([join(dir, 'a.jsonl'), join(dir, 'b.jsonl')], { project: dir });
    const tally = (t: { declared: number; exercised: number; possible: number }) =>
      `${t.exercised}/${t.declared}${t.possible ? ` +${t.possible}?` : ''}`;
    expect(m.coverage.skills.map((s) => [s.skill, tally(s.transitions), tally(s.handoffs), tally(s.halts)])).toEqual([
      ['reviewing-b', '1/2', '1/2', '0/0'],
      ['running-a', '2/2', '1/1', '1/1'],
      ['shipping-c', '0/2', '0/1', '0/0'],
    ]);
    const t = m.coverage.total;
    expect([tally(t.transitions), tally(t.handoffs), tally(t.halts)]).toEqual(['3/6', '2/4', '1/1']);
    expect(m.coverage.runs).toBe(2);
    const byEdge = Object.fromEntries(m.coverage.edges.map((c) => [`${c.edge.from}>${c.edge.to}`, [c.times, c.runs, c.peak]]));
    expect(byEdge).toEqual({
      'in-dev>in-review': [1, 1, undefined],
      'in-dev>halted-stall': [1, 1, 2],
      'in-review>in-dev': [0, 0, undefined],
      'in-review>done': [1, 1, undefined],
      'ship-ready>ship-check': [0, 0, undefined],
      'ship-check>done': [0, 0, undefined],
    });
  });

  it('the text and JSON reports give the same numbers; the picture marks each transition', async () => {
    const dir = project();
    const text = await run(['coverage', 'a.jsonl', 'b.jsonl'], { cwd: dir });
    expect(text.status).toBe(0);
    expect(text.stdout).toContain('  running-a     2/2  100.0%   1/1  100.0%   1/1  100.0%');
    expect(text.stdout).toContain('  total         3/6  50.0%    2/4  50.0%    1/1  100.0%');
    expect(text.stdout).toContain('Never exercised (3):\n  skills/reviewing-b/LOOP.md:');
    expect(text.stdout).toContain('Total: transitions 3/6 50.0% · handoffs 2/4 50.0% · halt bounds 1/1 100.0%');
    const json = JSON.parse((await run(['coverage', 'a.jsonl', 'b.jsonl', '--json'], { cwd: dir })).stdout) as {
      total: Record<string, { percent: number }>;
      transitions: { from: string; to: string; mark: string }[];
    };
    expect([json.total.transitions!.percent, json.total.handoffs!.percent, json.total.haltBounds!.percent]).toEqual([50, 50, 100]);
    const marks = Object.fromEntries(json.transitions.map((t) => [`${t.from}>${t.to}`, t.mark]));
    const svg = await run(['coverage', 'a.jsonl', 'b.jsonl', '--format', 'svg'], { cwd: dir });
    expect(svg.status).toBe(0);
    const doc = new JSDOM(svg.stdout, { contentType: 'image/svg+xml' }).window.document;
    const drawn: Record<string, string> = {};
    for (const g of doc.querySelectorAll('g.edge')) {
      const title = g.querySelector('title')!.textContent!.replace('&#45;&gt;', '->').replace('->', '>');
      const mark = ['covered', 'not-covered', 'possibly-covered'].find((c) => g.classList.contains(c));
      if (mark) drawn[title] = mark;
    }
    expect(drawn).toEqual(
      Object.fromEntries(
        Object.entries(marks).map(([k, m]) => [k, m === 'exercised' ? 'covered' : m === 'never' ? 'not-covered' : 'possibly-covered']),
      ),
    );
    expect(Object.values(drawn).filter((m) => m === 'covered')).toHaveLength(3);
    // the legend explains the marks; exercised transitions carry how often
    expect(svg.stdout).toContain('never exercised');
    expect(svg.stdout).toContain('×1');
    const html = await run(['coverage', 'a.jsonl', 'b.jsonl', '--format', 'html'], { cwd: dir });
    expect(html.stdout).toContain('<title>loopkit coverage: ');
    expect(html.stdout).toContain('transitions 3/6, handoffs 2/4, halt bounds 1/1 exercised');
  });

  it('a session whose state file stands for several states: possibly exercised, not counted as exercised', async () => {
    const dir = project();
    const session = join(dir, 'session');
    mkdirSync(session);
    ['DEV', 'WORKING', 'REVIEW'].forEach((s, i) => writeFileSync(join(session, `${i + 1}.json`), JSON.stringify(version(s))));
    const m = await measureCoverage([session], { project: dir, skill: 'running-a' });
    const marks = m.coverage.edges
      .filter((c) => c.possible || c.times > 0)
      .map((c) => [`${c.edge.from}>${c.edge.to}`, c.times, c.possible]);
    expect(marks).toEqual([['in-dev>in-review', 0, true]]);
    expect(m.coverage.total.transitions).toEqual({ declared: 6, exercised: 0, possible: 1 });
    expect((await run(['coverage', 'session', '--skill', 'running-a', '--min', '1'], { cwd: dir })).status).toBe(1);
  });

  it('a halt bound keeps the peak over all runs, whatever their order', async () => {
    const dir = project();
    // b.jsonl spends 2 iterations in in-dev, a.jsonl 1: the later run must not lower the peak
    for (const runs of [
      ['a.jsonl', 'b.jsonl'],
      ['b.jsonl', 'a.jsonl'],
    ]) {
      const m = await measureCoverage(
        runs.map((r) => join(dir, r)),
        { project: dir },
      );
      const halt = m.coverage.edges.find((c) => c.edge.from === 'in-dev' && c.edge.to === 'halted-stall')!;
      expect(halt.peak, runs.join(' ')).toBe(2);
    }
  });

  it('a transition one run takes and another possibly takes is exercised, not possible', async () => {
    const dir = project();
    const session = join(dir, 'session');
    mkdirSync(session);
    ['DEV', 'WORKING', 'REVIEW'].forEach((s, i) => writeFileSync(join(session, `${i + 1}.json`), JSON.stringify(version(s))));
    const m = await measureCoverage([session, join(dir, 'a.jsonl')], { project: dir, skill: 'running-a' });
    const edge = m.coverage.edges.find((c) => c.edge.from === 'in-dev' && c.edge.to === 'in-review')!;
    expect([edge.times, edge.possible]).toEqual([1, false]);
    expect(m.coverage.total.transitions.possible).toBe(0);
    const json = JSON.parse((await run(['coverage', 'session', 'a.jsonl', '--skill', 'running-a', '--json'], { cwd: dir })).stdout) as {
      transitions: { from: string; to: string; mark: string }[];
    };
    expect(json.transitions.find((t) => t.from === 'in-dev' && t.to === 'in-review')!.mark).toBe('exercised');
  });

  it('-o writes the report to a file (nothing on stdout), the same report stdout gets', async () => {
    const dir = project();
    const out = join(temps.dir('loopkit-coverage-out-'), 'coverage.txt');
    const r = await run(['coverage', 'a.jsonl', 'b.jsonl', '-o', out], { cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(readFileSync(out, 'utf8')).toBe((await run(['coverage', 'a.jsonl', 'b.jsonl'], { cwd: dir })).stdout);
  });

  it('moves the contract does not declare are counted on stderr (steps that cannot be read apart), and exercise nothing', async () => {
    const dir = project();
    // in-dev → done is not declared, done → in-dev leaves a terminal state, in-reviw is no state: three
    // places; the step whose skill is a number cannot be read (located on its own line, not counted)
    writeFileSync(
      join(dir, 'c.jsonl'),
      ['{"state":"in-dev"}', '{"state":"done"}', '{"state":"in-dev"}', '{"state":"in-reviw"}', '{"state":"in-dev","skill":3}'].join('\n'),
    );
    const r = await run(['coverage', 'c.jsonl'], { cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stderr.split('\n')).toEqual([
      'loopkit: c.jsonl:5:27: error: `skill` of the step on line 5 is the number 3; expected a string  [trace-malformed-step] (not measured)',
      'loopkit: the runs break the contract in 3 places (moves it does not declare exercise nothing); loopkit trace and loopkit watch --replay list them',
      '',
    ]);
    expect(r.stdout).toContain('Total: transitions 0/6 0.0%');
    writeFileSync(join(dir, 'd.jsonl'), ['in-dev', 'done'].map((state) => JSON.stringify({ state })).join('\n'));
    expect((await run(['coverage', 'd.jsonl'], { cwd: dir })).stderr).toContain('break the contract in 1 place (moves');
  });

  it('--min fails a run below the threshold for any kind the contract declares', async () => {
    const dir = project();
    expect((await run(['coverage', 'a.jsonl', 'b.jsonl', '--min', '50'], { cwd: dir })).status).toBe(0);
    const below = await run(['coverage', 'a.jsonl', 'b.jsonl', '--min', '60'], { cwd: dir });
    expect(below.status).toBe(1);
    expect(below.stderr).toBe('loopkit: coverage below --min 60%: transitions 50.0%, handoffs 50.0%\n');
  });
});

describe('the coverage the walkthrough quotes', () => {
  const readme = readFileSync(join(ROOT, 'docs', 'walkthrough.md'), 'utf8');
  for (const example of ['loop-controller', 'loop']) {
    it(`examples/${example}: docs/walkthrough.md shows what the command prints`, async () => {
      const command = `npx loopkit coverage examples/${example}/session`;
      const at = readme.indexOf(`$ ${command}\n`);
      expect(at, `docs/walkthrough.md quotes \`${command}\``).toBeGreaterThan(-1);
      const quoted = readme.slice(at + command.length + 3, readme.indexOf('\n```', at) + 1);
      const r = await run(['coverage', `examples/${example}/session`]);
      expect(r.status).toBe(0);
      expect(quoted).toBe(r.stdout);
    });
  }
});

describe('coverage: bad input', () => {
  const usage = (r: Run, text: string) => {
    expect(r.stderr).toContain(text);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
    expect(r.status).toBe(2);
    noStack(r);
  };

  it('a missing run, an empty trace, an empty session, --min that is no percentage, runs of two projects: exit 2', async () => {
    const dir = project();
    writeFileSync(join(dir, 'empty.jsonl'), '');
    mkdirSync(join(dir, 'empty-session'));
    usage(await run(['coverage', 'nowhere.jsonl'], { cwd: dir }), 'run not found: nowhere.jsonl');
    usage(await run(['coverage', 'empty.jsonl'], { cwd: dir }), 'run empty.jsonl is empty');
    usage(await run(['coverage', 'empty-session', '--skill', 'running-a'], { cwd: dir }), 'session empty-session is empty');
    usage(await run(['coverage', 'a.jsonl', '--min', 'most'], { cwd: dir }), "--min takes a percentage from 0 to 100, not 'most'");
    usage(await run(['coverage', 'a.jsonl', '--min', '101'], { cwd: dir }), "--min takes a percentage from 0 to 100, not '101'");
    usage(
      await run(['coverage', 'examples/loop/session', 'examples/loop-controller/session']),
      'the runs belong to different projects: examples/loop, examples/loop-controller; give --project',
    );
    usage(await run(['coverage', 'examples/loop/session', '--skill', 'iterating']), "unknown skill 'iterating'");
  });

  it('a line that is not JSON is located on stderr and measured as nothing; nothing is written into the project', async () => {
    const dir = project();
    writeFileSync(join(dir, 'c.jsonl'), '{"state": "in-dev"}\n{"state": "in-review"\n{"state": "in-review"}\n');
    const before = readdirSync(dir).sort();
    const r = await run(['coverage', 'c.jsonl'], { cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(
      "loopkit: c.jsonl:2:22: error: Line 2 is not valid JSON: expected ',' or '}' after a value, found the end of the line  [trace-malformed-step] (not measured)\n",
    );
    // the broken line left the state unknown: in-dev → in-review is not counted
    expect(r.stdout).toContain('Total: transitions 0/6 0.0%');
    expect(readdirSync(dir).sort()).toEqual(before);
  });
});
