/** Unit tests of the combined graph (src/graph/graph.ts) and the bounded simulation (src/graph/simulate.ts). */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lint } from '../src/api/engine.js';
import {
  canReachTerminal,
  connectedGroups,
  firstMention,
  graphFromEdges,
  hasEdge,
  pathFromEntries,
  reachableFrom,
  type Edge,
} from '../src/graph/graph.js';
import { canEnd, cheapestRun, describePath, describeRun, iterationsToEnd, simulate, type Run } from '../src/graph/simulate.js';
import { terminalKind } from '../src/graph/terminal.js';
import { RULE_FIXTURES } from './helpers/fixtures.js';

let nextLine = 1;
/** A transition `from → to` on its own line of one LOOP.md. */
function e(from: string, to: string): Edge {
  const line = nextLine++;
  return {
    from,
    to,
    arrow: '→',
    file: 'skills/running-a/LOOP.md',
    line,
    column: 1,
    fromColumn: 12,
    toColumn: 15 + from.length,
    section: 'State Transition Rule',
    skill: 'running-a',
  };
}

/** A graph from `a>b` shorthands; `a>b!stall:3` carries `halt stall after 3 iterations` (on the next line). */
function g(...pairs: string[]) {
  nextLine = 1;
  return graphFromEdges(
    pairs.map((p) => {
      const [edge, halt] = p.split('!');
      const [from, to] = edge!.split('>');
      const t = e(from!, to!);
      if (halt) {
        const [reason, after] = halt.split(':');
        const line = nextLine++;
        t.halt = { reason: reason!, after: after === undefined ? null : Number(after), line, column: 1, reasonColumn: 6 };
      }
      return t;
    }),
  );
}

const lines = (run: Run | null) => run?.steps.map((x) => x.edge.line) ?? null;
const path = (graph: ReturnType<typeof g>, start: string) => {
  const run = cheapestRun(graph, start);
  return run === null ? null : describeRun(run);
};

describe('graphFromEdges', () => {
  it('lists states in order of first appearance, sources before targets within an edge', () => {
    expect(g('b>c', 'a>b', 'c>d').states).toEqual(['b', 'c', 'a', 'd']);
  });

  it('finds entry points (out but no in) and terminals (no out)', () => {
    const graph = g('start>mid', 'mid>end', 'other>mid', 'mid>halted');
    expect(graph.entryPoints).toEqual(['start', 'other']);
    expect(graph.terminals).toEqual(['end', 'halted']);
  });

  it('does not treat a self-loop-only state as terminal or as an entry point', () => {
    const graph = g('a>a');
    expect(graph.terminals).toEqual([]);
    expect(graph.entryPoints).toEqual([]);
    expect(graph.states).toEqual(['a']);
  });

  it('keeps duplicate edges in the out and in maps', () => {
    const graph = g('a>b', 'a>b');
    expect(graph.edges).toHaveLength(2);
    expect(graph.out.get('a')).toHaveLength(2);
    expect(graph.in.get('b')).toHaveLength(2);
    expect(graph.out.get('b')).toEqual([]);
  });

  it('is empty for no edges', () => {
    const graph = g();
    expect(graph.states).toEqual([]);
    expect(graph.entryPoints).toEqual([]);
    expect(graph.terminals).toEqual([]);
  });
});

describe('graph queries', () => {
  const graph = g('a>b', 'b>c', 'c>b', 'x>a');

  it('firstMention finds the first edge naming a state, as source or target', () => {
    expect(firstMention(graph, 'a')).toEqual({ edge: graph.edges[0], asTarget: false });
    expect(firstMention(graph, 'c')).toEqual({ edge: graph.edges[1], asTarget: true });
    expect(firstMention(graph, 'x')).toEqual({ edge: graph.edges[3], asTarget: false });
    expect(firstMention(graph, 'nowhere')).toBeUndefined();
  });

  it('hasEdge is directional and exact', () => {
    expect(hasEdge(graph, 'a', 'b')).toBe(true);
    expect(hasEdge(graph, 'b', 'a')).toBe(false);
    expect(hasEdge(graph, 'a', 'c')).toBe(false);
    expect(hasEdge(graph, 'nowhere', 'a')).toBe(false);
  });

  it('reachableFrom includes the start and follows cycles without looping', () => {
    expect([...reachableFrom(graph, 'a')].sort()).toEqual(['a', 'b', 'c']);
    expect([...reachableFrom(graph, 'c')].sort()).toEqual(['b', 'c']);
    expect([...reachableFrom(graph, 'unknown')]).toEqual(['unknown']);
  });

  it('canReachTerminal walks backwards from the terminals', () => {
    const h = g('a>b', 'b>done', 'a>trap', 'trap>trap2', 'trap2>trap', 'x>trap');
    expect([...canReachTerminal(h)].sort()).toEqual(['a', 'b', 'done']);
    expect(canReachTerminal(g('a>b', 'b>a')).size).toBe(0);
  });
});

describe('cheapestRun (no halt bounds: the fewest transitions)', () => {
  it('returns the fewest transitions, preferring earlier edges on ties', () => {
    const graph = g('s>long1', 'long1>long2', 'long2>done', 's>short', 'short>done', 's>alt', 'alt>halted');
    expect(lines(cheapestRun(graph, 's'))).toEqual([4, 5]);
    expect(path(graph, 's')).toBe('s → short → done');
  });

  it('finds a path through a cycle', () => {
    const graph = g('s>a', 'a>b', 'b>a', 'b>done');
    expect(path(graph, 's')).toBe('s → a → b → done');
  });

  it('is empty for a terminal start and null when no terminal is reachable', () => {
    const graph = g('s>a', 'a>s', 'x>done');
    expect(cheapestRun(graph, 'done')).toEqual({ steps: [], cost: 0 });
    expect(cheapestRun(graph, 's')).toBeNull();
    expect(cheapestRun(g('a>a'), 'a')).toBeNull();
  });
});

describe('halt-aware simulation', () => {
  it('a halt bound on a transition into a terminal state costs its iterations', () => {
    // in-dev → halted-stall after 10 iterations; in-dev → in-qa → done is 2
    const graph = g('in-dev>halted-stall!stall:10', 'in-dev>in-qa', 'in-qa>done');
    expect(iterationsToEnd(graph).get('in-dev')).toBe(2);
    expect(path(graph, 'in-dev')).toBe('in-dev → in-qa → done');
    const only = g('s>in-dev', 'in-dev>in-dev', 'in-dev>halted-stall!stall:10');
    expect(cheapestRun(only, 's')!.cost).toBe(11);
    expect(path(only, 's')).toBe('s → in-dev → halted-stall, halted by `halt stall after 10 iterations`');
  });

  it('a cycle whose transition carries a halt bound ends: the bound is a way out of its source', () => {
    const graph = g('s>a', 'a>b', 'b>a!stall:3');
    expect([...canEnd(graph)].sort()).toEqual(['a', 'b', 's']);
    const run = cheapestRun(graph, 's')!;
    expect(run.cost).toBe(5);
    expect(run.steps.map((x) => [x.kind, x.edge.from, x.edge.to, x.cost])).toEqual([
      ['transition', 's', 'a', 1],
      ['transition', 'a', 'b', 1],
      ['halt', 'b', 'a', 3],
    ]);
    expect(describeRun(run)).toBe('s → a → b, halted by `halt stall after 3 iterations`');
  });

  it('a bounded self-loop ends; an unbounded one does not; a halt without `after` bounds nothing', () => {
    expect(canEnd(g('a>a!budget:5')).has('a')).toBe(true);
    expect(canEnd(g('a>a')).has('a')).toBe(false);
    expect(canEnd(g('a>b', 'b>a!stall')).size).toBe(0);
  });

  it('a bound of 0 still costs one iteration', () => {
    expect(cheapestRun(g('s>a', 'a>a!stall:0'), 's')!.cost).toBe(2);
  });

  it('prefers the cheaper of a long path and a small bound', () => {
    const graph = g('s>a', 'a>b', 'b>c', 'c>done', 'a>a!stall:1');
    expect(describeRun(cheapestRun(graph, 's')!)).toBe('s → a, halted by `halt stall after 1 iteration`');
    expect(cheapestRun(graph, 's')!.cost).toBe(2);
  });
});

describe('simulate (budget = max_iterations)', () => {
  // entry s needs exactly 3 transitions: s → a → b → done
  const chain = g('s>a', 'a>b', 'b>done', 'b>a');

  it('budget 0 fails every entry point, even one a single transition from a terminal', () => {
    const [r] = simulate(g('s>done'), 0);
    expect(r).toMatchObject({ entry: 's', withinBudget: false });
    expect(lines(r!.run)).toEqual([1]);
  });

  it('a path exactly as long as the budget passes', () => {
    const [r] = simulate(chain, 3);
    expect(r).toMatchObject({ entry: 's', withinBudget: true });
    expect(r!.run!.steps.map((x) => x.edge)).toEqual(chain.edges.slice(0, 3));
  });

  it('a path one transition longer than the budget fails but keeps its witness', () => {
    const [r] = simulate(chain, 2);
    expect(r!.withinBudget).toBe(false);
    expect(describeRun(r!.run!)).toBe('s → a → b → done');
  });

  it('a large budget passes', () => {
    expect(simulate(chain, 4294967295)[0]!.withinBudget).toBe(true);
  });

  it('counts a halt bound against the budget', () => {
    const bounded = g('s>a', 'a>b', 'b>a!stall:30');
    expect(simulate(bounded, 20)[0]).toMatchObject({ withinBudget: false });
    expect(simulate(bounded, 32)[0]).toMatchObject({ withinBudget: true });
  });

  it('reports every entry point in graph order, with null runs when nothing is reachable', () => {
    const graph = g('x>loop', 'loop>loop', 's>done', 'y>x');
    const results = simulate(graph, 20);
    expect(results.map((r) => [r.entry, r.withinBudget, r.run === null])).toEqual([
      ['s', true, false],
      ['y', false, true],
    ]);
  });

  it('has no entries to check when there are no entry points', () => {
    expect(simulate(g('a>b', 'b>a'), 20)).toEqual([]);
    expect(simulate(g(), 20)).toEqual([]);
  });
});

describe('witness paths and groups', () => {
  it('pathFromEntries: the fewest transitions from any entry point', () => {
    const graph = g('s>a', 'a>b', 't>b', 'b>c', 'x>x');
    expect(describePath(pathFromEntries(graph, 'c')!)).toBe('t → b → c');
    expect(pathFromEntries(graph, 's')).toEqual([]);
    expect(pathFromEntries(graph, 'x')).toBeNull();
  });

  it('connectedGroups: linked in either direction, in graph order', () => {
    const graph = g('a>b', 'c>d', 'd>b', 'x>y', 'y>x');
    expect(connectedGroups(graph, ['a', 'c', 'x', 'y', 'd'])).toEqual([['a'], ['c', 'd'], ['x', 'y']]);
  });
});

describe('terminalKind', () => {
  const config = {
    halt_reasons: ['stall', 'Human-Gate'],
    enforced_states: [
      { name: 'shipped', agent: '', description: '' },
      { name: 'in-dev', agent: 'developer', description: '' },
      { name: 'halted-budget', agent: ' ', description: '' },
    ],
  };
  it('done, halted-<configured reason>, and enforced states with no agent', () => {
    expect(terminalKind('done', config)).toBe('done');
    expect(terminalKind('halted-stall', config)).toBe('halted');
    expect(terminalKind('halted-human-gate', config)).toBe('halted');
    expect(terminalKind('shipped', config)).toBe('enforced');
    expect(terminalKind('halted-budget', config)).toBe('enforced');
    expect(terminalKind('halted-unsafe', config)).toBeNull();
    expect(terminalKind('in-dev', config)).toBeNull();
    expect(terminalKind('in-qa', config)).toBeNull();
  });
});

describe('describePath', () => {
  it('joins the states of a path', () => {
    nextLine = 1;
    expect(describePath([])).toBe('');
    expect(describePath([e('a', 'b')])).toBe('a → b');
    expect(describePath([e('a', 'b'), e('b', 'c')])).toBe('a → b → c');
  });
});

/** What the fixture harness does not compare: help texts and related places of the graph rules. */
describe('graph rules: help and related', () => {
  const run = async (code: string, kind: string, name: string) =>
    (await lint({ root: join(RULE_FIXTURES, code, kind, name), only: [code] })).diagnostics;

  it('sim-unreachable-terminal explains an over-budget path and lists it', async () => {
    const [d] = await run('sim-unreachable-terminal', 'invalid', 'path-over-budget');
    expect(d!.help).toBe(
      'The shortest path to a terminal state needs 3 transitions (in-dev → in-deskcheck → in-qa → done), ' +
        'but max_iterations is 2. Add a shorter path, or set max_iterations to at least 3 in .loopkit.yaml.',
    );
    expect(d!.related).toEqual([
      { message: 'step 1: in-dev → in-deskcheck', file: 'skills/running-a/LOOP.md', line: 2, column: 1, step: 1 },
      { message: 'step 2: in-deskcheck → in-qa', file: 'skills/running-a/LOOP.md', line: 3, column: 1, step: 2 },
      { message: 'step 3: in-qa → done', file: 'skills/running-a/LOOP.md', line: 4, column: 1, step: 3 },
    ]);
  });

  it('sim-unreachable-terminal uses the singular for a one-transition path and says when no path exists', async () => {
    expect((await run('sim-unreachable-terminal', 'invalid', 'zero-budget'))[0]!.help).toContain(
      'needs 1 transition (in-dev → done), but max_iterations is 0.',
    );
    const noPath = await run('sim-unreachable-terminal', 'invalid', 'no-path-at-all');
    expect(noPath[0]!.help).toContain("No sequence of transitions leads from 'in-dev' to a terminal state");
    // the proof: every transition a run from the entry point can take
    expect(noPath[0]!.related?.map((r) => [r.message, r.line])).toEqual([
      ["reachable from 'in-dev': in-dev → in-review", 3],
      ["reachable from 'in-dev': in-review → in-rework", 4],
      ["reachable from 'in-dev': in-rework → in-review", 5],
    ]);
  });

  it('sim-unreachable-terminal counts a halt bound against the budget and shows it as the last step', async () => {
    const [d] = await run('sim-unreachable-terminal', 'invalid', 'halt-bound-over-budget');
    expect(d!.help).toBe(
      'The shortest run ends by a halt bound and needs 32 iterations: in-dev → in-review → in-rework, ' +
        'halted by `halt stall after 30 iterations` (a halt counts its declared iterations). max_iterations is 20. ' +
        'Add a shorter path to a terminal state, lower the halt bound, or set max_iterations to at least 32 in .loopkit.yaml.',
    );
    expect(d!.related?.map((r) => [r.message, r.line, r.column, r.step])).toEqual([
      ['step 1: in-dev → in-review', 2, 1, 1],
      ['step 2: in-review → in-rework', 3, 1, 2],
      ["step 3: halt stall after 30 iterations ends the loop in 'in-rework'", 5, 1, 3],
    ]);
  });

  it('sim-trapped-cycle lists the way in from an entry point, then the transitions inside the region', async () => {
    const [d] = await run('sim-trapped-cycle', 'invalid', 'trap-region');
    expect(d!.help).toContain('in-dev → in-review can never finish');
    expect(d!.related?.map((r) => [r.message, r.line])).toEqual([
      ['step 1: in-dev → in-review', 3],
      ['in the trap: in-review → in-rework', 4],
      ['in the trap: in-rework → in-review', 5],
    ]);
    expect(d!.states).toEqual(['in-review', 'in-rework']);
  });

  it('deskcheck and bug-feedback diagnostics point at the first transition naming the state', async () => {
    const [d] = await run('state-missing-deskcheck-entry', 'invalid', 'state-only-as-target');
    expect(d!.help).toBe('Add: transition in-dev → in-deskcheck');
    expect(d!.related).toEqual([
      {
        message: "'in-deskcheck' first appears in transition in-review → in-deskcheck",
        file: 'skills/running-a/LOOP.md',
        line: 3,
        column: 24,
      },
    ]);
    const bug = await run('state-missing-bug-feedback', 'invalid', 'missing-both');
    expect(bug.map((x) => x.related?.[0]?.line)).toEqual([2, 3]);
  });

  it('constraints-unknown-handoff-target suggests a close skill name', async () => {
    const ds = await run('constraints-unknown-handoff-target', 'invalid', 'misspelt-skill');
    expect(ds.map((x) => x.help)).toEqual([
      'Skill `halting-c` must exist in the skills directory.',
      'Skill `reviewng-b` must exist in the skills directory. Did you mean `reviewing-b`?',
    ]);
  });

  it('state-enforced-missing leaves no trailing space when there is no description', async () => {
    const ds = await run('state-enforced-missing', 'invalid', 'missing-states');
    expect(ds.map((x) => x.help)).toEqual([
      "Add a transition that includes 'halted-stall' as a source or target state. No progress for N iterations",
      "Add a transition that includes 'in-acceptance' as a source or target state.",
      "Add a transition that includes 'done' as a source or target state.",
    ]);
  });
});

describe('the dogfood project and the examples', () => {
  const ROOT = join(import.meta.dirname, '..');
  const GRAPH_CODES = [
    'constraints-handoff-unhandled',
    'constraints-unknown-handoff-target',
    'graph-dead-end',
    'graph-self-loop-only',
    'graph-unreachable-state',
    'sim-error',
    'sim-self-loop-only',
    'sim-trapped-cycle',
    'sim-unreachable-terminal',
  ];
  for (const project of ['.', 'examples/loop', 'examples/loop-controller']) {
    it(`${project}: no dead end, unreachable island, trap, budget or handoff problem`, async () => {
      const result = await lint({ root: join(ROOT, project), only: GRAPH_CODES });
      expect(result.diagnostics.map((d) => `${d.code} ${d.file}:${d.line} ${d.message}`)).toEqual([]);
    });
  }
});
