/** Unit tests of the combined graph (src/graph/graph.ts) and the bounded simulation (src/graph/simulate.ts). */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lint } from '../src/engine/run.js';
import { canReachTerminal, firstMention, graphFromEdges, hasEdge, reachableFrom, type Edge } from '../src/graph/graph.js';
import { describePath, shortestPathToTerminal, simulate } from '../src/graph/simulate.js';
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

/** A graph from `a>b` shorthands. */
function g(...pairs: string[]) {
  nextLine = 1;
  return graphFromEdges(
    pairs.map((p) => {
      const [from, to] = p.split('>');
      return e(from!, to!);
    }),
  );
}

const lines = (path: readonly Edge[] | null) => path?.map((x) => x.line) ?? null;

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

describe('shortestPathToTerminal', () => {
  it('returns the fewest transitions, preferring earlier edges on ties', () => {
    const graph = g('s>long1', 'long1>long2', 'long2>done', 's>short', 'short>done', 's>alt', 'alt>halted');
    expect(lines(shortestPathToTerminal(graph, 's'))).toEqual([4, 5]);
    expect(describePath(shortestPathToTerminal(graph, 's')!)).toBe('s → short → done');
  });

  it('finds a path through a cycle', () => {
    const graph = g('s>a', 'a>b', 'b>a', 'b>done');
    expect(describePath(shortestPathToTerminal(graph, 's')!)).toBe('s → a → b → done');
  });

  it('is empty for a terminal start and null when no terminal is reachable', () => {
    const graph = g('s>a', 'a>s', 'x>done');
    expect(shortestPathToTerminal(graph, 'done')).toEqual([]);
    expect(shortestPathToTerminal(graph, 's')).toBeNull();
    expect(shortestPathToTerminal(g('a>a'), 'a')).toBeNull();
  });
});

describe('simulate (budget = max_iterations)', () => {
  // entry s needs exactly 3 transitions: s → a → b → done
  const chain = g('s>a', 'a>b', 'b>done', 'b>a');

  it('budget 0 fails every entry point, even one a single transition from a terminal', () => {
    const [r] = simulate(g('s>done'), 0);
    expect(r).toMatchObject({ entry: 's', withinBudget: false });
    expect(lines(r!.path)).toEqual([1]);
  });

  it('a path exactly as long as the budget passes', () => {
    expect(simulate(chain, 3)).toEqual([{ entry: 's', path: chain.edges.slice(0, 3), withinBudget: true }]);
  });

  it('a path one transition longer than the budget fails but keeps its witness', () => {
    const [r] = simulate(chain, 2);
    expect(r!.withinBudget).toBe(false);
    expect(describePath(r!.path!)).toBe('s → a → b → done');
  });

  it('a large budget passes', () => {
    expect(simulate(chain, 4294967295)[0]!.withinBudget).toBe(true);
  });

  it('reports every entry point in graph order, with null paths when nothing is reachable', () => {
    const graph = g('x>loop', 'loop>loop', 's>done', 'y>x');
    const results = simulate(graph, 20);
    expect(results.map((r) => [r.entry, r.withinBudget, r.path === null])).toEqual([
      ['s', true, false],
      ['y', false, true],
    ]);
  });

  it('has no entries to check when there are no entry points', () => {
    expect(simulate(g('a>b', 'b>a'), 20)).toEqual([]);
    expect(simulate(g(), 20)).toEqual([]);
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
      { message: 'in-dev → in-deskcheck', file: 'skills/running-a/LOOP.md', line: 2, column: 1 },
      { message: 'in-deskcheck → in-qa', file: 'skills/running-a/LOOP.md', line: 3, column: 1 },
      { message: 'in-qa → done', file: 'skills/running-a/LOOP.md', line: 4, column: 1 },
    ]);
  });

  it('sim-unreachable-terminal uses the singular for a one-transition path and says when no path exists', async () => {
    expect((await run('sim-unreachable-terminal', 'invalid', 'zero-budget'))[0]!.help).toContain(
      'needs 1 transition (in-dev → done), but max_iterations is 0.',
    );
    const noPath = await run('sim-unreachable-terminal', 'invalid', 'no-path-at-all');
    expect(noPath[0]!.help).toContain("No sequence of transitions leads from 'in-dev' to a terminal state");
    expect(noPath[0]!.related).toBeUndefined();
  });

  it('sim-trapped-cycle lists the transitions inside the region', async () => {
    const [d] = await run('sim-trapped-cycle', 'invalid', 'trap-region');
    expect(d!.help).toContain('in-dev → in-review can never finish');
    expect(d!.related?.map((r) => [r.message, r.line])).toEqual([
      ['in-review → in-rework', 4],
      ['in-rework → in-review', 5],
    ]);
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
