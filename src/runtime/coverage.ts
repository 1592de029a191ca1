/**
 * Contract coverage, as code coverage is for tests: which transitions, handoffs and halt bounds of
 * the contract recorded runs exercised, and which never ran — per skill and in total. Fed with what
 * the run judge says each step did (run-judge.ts), so a run counts exactly the moves `trace` and
 * `watch` accept: an undeclared move exercises nothing.
 *
 * - a transition is exercised when a run certainly took it; "possibly" when a run may have (a state
 *   file whose value stands for several states), which does not count as exercised;
 * - a handoff (a transition with `handoff …`) is exercised when its transition is;
 * - a halt bound (`halt <reason> after N iterations`) is exercised when a run took its halting
 *   transition; for each, the most iterations any run spent in its state is kept (how close the
 *   runs came to the bound).
 */
import type { Edge, StateGraph } from '../graph/graph.js';
import type { StepOutcome } from './run-judge.js';

export interface EdgeCoverage {
  edge: Edge;
  /** times runs certainly took it */
  times: number;
  /** runs that certainly took it */
  runs: number;
  /** some run may have taken it (and none certainly did) */
  possible: boolean;
  /** a halt bound: the most iterations a run spent in its state */
  peak?: number;
}

export interface Tally {
  declared: number;
  exercised: number;
  possible: number;
}

export interface KindTallies {
  transitions: Tally;
  handoffs: Tally;
  halts: Tally;
}

export interface Coverage {
  /** every transition of the contract, in graph order */
  edges: EdgeCoverage[];
  /** per skill, in the order of the project's skills */
  skills: ({ skill: string } & KindTallies)[];
  total: KindTallies;
  runs: number;
}

export const isHaltBound = (e: Edge) => e.halt !== undefined && e.halt.after !== null;

/** The percentage of a tally, to one decimal (null: nothing declared). */
export function percent(t: Tally): number | null {
  return t.declared === 0 ? null : Math.round((t.exercised / t.declared) * 1000) / 10;
}

export class CoverageCounter {
  private readonly byEdge = new Map<Edge, EdgeCoverage>();
  private runs = 0;
  /** the edges the current run took */
  private taken = new Set<Edge>();

  constructor(
    private readonly graph: StateGraph,
    private readonly skills: readonly string[],
  ) {
    for (const edge of graph.edges)
      this.byEdge.set(edge, { edge, times: 0, runs: 0, possible: false, ...(isHaltBound(edge) ? { peak: 0 } : {}) });
  }

  /** What a step of the current run did. */
  step(outcome: StepOutcome): void {
    for (const e of outcome.taken) {
      const c = this.byEdge.get(e);
      if (!c) continue;
      c.times++;
      this.taken.add(e);
    }
    for (const e of outcome.possible) {
      const c = this.byEdge.get(e);
      if (c) c.possible = true;
    }
  }

  /** The end of a run: `spentIn` tells the iterations it spent in each state. */
  endRun(spentIn: (state: string) => number): void {
    this.runs++;
    for (const e of this.taken) this.byEdge.get(e)!.runs++;
    this.taken = new Set();
    for (const c of this.byEdge.values()) if (c.peak !== undefined) c.peak = Math.max(c.peak, spentIn(c.edge.from));
  }

  result(): Coverage {
    const edges = this.graph.edges.map((e) => {
      const c = this.byEdge.get(e)!;
      return { ...c, possible: c.possible && c.times === 0 };
    });
    const tallies = (list: readonly EdgeCoverage[]): KindTallies => {
      const tally = (keep: (e: Edge) => boolean): Tally => {
        const mine = list.filter((c) => keep(c.edge));
        return {
          declared: mine.length,
          exercised: mine.filter((c) => c.times > 0).length,
          possible: mine.filter((c) => c.possible).length,
        };
      };
      return { transitions: tally(() => true), handoffs: tally((e) => e.handoff !== undefined), halts: tally(isHaltBound) };
    };
    return {
      edges,
      skills: this.skills.map((skill) => ({ skill, ...tallies(edges.filter((c) => c.edge.skill === skill)) })),
      total: tallies(edges),
      runs: this.runs,
    };
  }
}
