/**
 * Halt-aware bounded simulation: from every entry point, can a run end — reach a terminal state (a
 * state with no outgoing transition) or be stopped by a declared halt bound — within
 * `max_iterations` iterations? Deterministic (edges in graph order), and it keeps the witness run so
 * a failure can be explained.
 *
 * Halt bounds. `halt <reason> after N iterations` on a transition out of state S bounds the loop that
 * runs through S: after N iterations the run halts. So:
 * - S has a way to end (the loop through it cannot run forever), even when every transition of the
 *   loop leads back into it;
 * - ending that way costs N iterations (counted from S, at least 1): when the transition's target is
 *   a terminal state, taking the transition *is* the halt and costs N; otherwise the transition is an
 *   ordinary step (1 iteration) and the bound is an extra way out of S that costs N;
 * - every other transition costs 1 iteration (the reference's budget semantics).
 * A halt without `after N` ("unbounded", the Loop Language's default) bounds nothing.
 */
import type { Edge, StateGraph } from './graph.js';

/** One step of a run: a transition taken, or the halt bound that stops the run in `edge.from`. */
export interface Step {
  kind: 'transition' | 'halt';
  edge: Edge;
  /** iterations the step takes */
  cost: number;
}

export interface Run {
  steps: Step[];
  /** iterations in total */
  cost: number;
}

export interface EntryResult {
  entry: string;
  /** the cheapest run to an end (a terminal state or a halt bound); null when none exists */
  run: Run | null;
  /** true when that run takes at most `budget` iterations */
  withinBudget: boolean;
}

/** The declared bound of a transition's halt (`after N`), or null when it has none. */
export function haltBound(e: Edge): number | null {
  return e.halt?.after ?? null;
}

const isSink = (g: StateGraph, s: string) => (g.out.get(s) ?? []).length === 0;

/** Iterations a halt bound takes: N, at least 1. */
const boundCost = (after: number) => Math.max(1, after);

/** Iterations a transition takes: its halt bound when it halts into a terminal state, else 1. */
export function transitionCost(g: StateGraph, e: Edge): number {
  const after = haltBound(e);
  return after !== null && isSink(g, e.to) ? boundCost(after) : 1;
}

/** True when some transition out of `state` carries a halt bound: the loop through it ends. */
export function hasHaltBound(g: StateGraph, state: string): boolean {
  return (g.out.get(state) ?? []).some((e) => haltBound(e) !== null);
}

/** A binary min-heap of [cost, state] (ties in any order: only the costs matter). */
class Heap {
  private readonly items: [number, string][] = [];
  get size(): number {
    return this.items.length;
  }
  push(item: [number, string]): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p]![0] <= a[i]![0]) break;
      [a[p], a[i]] = [a[i]!, a[p]!];
      i = p;
    }
  }
  pop(): [number, string] {
    const a = this.items;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l]![0] < a[m]![0]) m = l;
        if (r < a.length && a[r]![0] < a[m]![0]) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i]!, a[m]!];
        i = m;
      }
    }
    return top;
  }
}

/**
 * For every state from which a run can end, the fewest iterations it takes (0 for a terminal state).
 * States missing from the map can never end: every run from them loops forever.
 */
export function iterationsToEnd(g: StateGraph): Map<string, number> {
  const dist = new Map<string, number>();
  const heap = new Heap();
  const offer = (s: string, d: number) => {
    const cur = dist.get(s);
    if (cur !== undefined && cur <= d) return;
    dist.set(s, d);
    heap.push([d, s]);
  };
  for (const s of g.states) {
    if (isSink(g, s)) offer(s, 0);
    for (const e of g.out.get(s) ?? []) {
      const after = haltBound(e);
      if (after !== null) offer(s, boundCost(after));
    }
  }
  while (heap.size > 0) {
    const [d, s] = heap.pop();
    if (dist.get(s) !== d) continue;
    for (const e of g.in.get(s) ?? []) offer(e.from, d + transitionCost(g, e));
  }
  return dist;
}

/** States from which a run can end (reach a terminal state or a halt bound). */
export function canEnd(g: StateGraph): Set<string> {
  return new Set(iterationsToEnd(g).keys());
}

/**
 * The cheapest run from `start` to an end, given `iterationsToEnd`: at each state the first choice
 * in graph order that stays on a cheapest run (a transition, then that transition's halt bound).
 */
export function cheapestRun(g: StateGraph, start: string, dist: ReadonlyMap<string, number> = iterationsToEnd(g)): Run | null {
  let d = dist.get(start);
  if (d === undefined) return null;
  const total = d;
  const steps: Step[] = [];
  let s = start;
  while (d > 0) {
    let next: Step | undefined;
    for (const e of g.out.get(s) ?? []) {
      const cost = transitionCost(g, e);
      const rest = dist.get(e.to);
      if (rest !== undefined && cost + rest === d) {
        next = { kind: 'transition', edge: e, cost };
        break;
      }
      const after = haltBound(e);
      if (after !== null && boundCost(after) === d) {
        next = { kind: 'halt', edge: e, cost: d };
        break;
      }
    }
    // unreachable while `dist` was computed for `g`
    if (!next) throw new Error(`no cheapest step out of '${s}'`);
    steps.push(next);
    d -= next.cost;
    if (next.kind === 'halt') break;
    s = next.edge.to;
  }
  return { steps, cost: total };
}

export function simulate(g: StateGraph, budget: number): EntryResult[] {
  const dist = iterationsToEnd(g);
  return g.entryPoints.map((entry) => {
    const run = cheapestRun(g, entry, dist);
    return { entry, run, withinBudget: run !== null && run.cost <= budget };
  });
}

/** The halt directive of a step as written: `halt stall after 3 iterations`. */
export function haltText(e: Edge): string {
  const after = haltBound(e);
  return `halt ${e.halt!.reason}${after === null ? '' : ` after ${after} iteration${after === 1 ? '' : 's'}`}`;
}

/** A readable run: `a → b → c`; a halt bound that ends it is added as `, halted by \`halt stall after 3 iterations\``. */
export function describeRun(run: Run): string {
  if (run.steps.length === 0) return '';
  let out = run.steps[0]!.edge.from;
  for (const step of run.steps) {
    if (step.kind === 'transition') out += ` → ${step.edge.to}`;
    if (step.kind === 'halt' || step.cost > 1) out += `, halted by \`${haltText(step.edge)}\``;
  }
  return out;
}

/** A readable path: `a → b → c`. */
export function describePath(path: readonly Edge[]): string {
  if (path.length === 0) return '';
  return [path[0]!.from, ...path.map((e) => e.to)].join(' → ');
}

/** True when the run ends by a halt bound (a bounded halt step or a halting transition). */
export function endsByHalt(run: Run): boolean {
  const last = run.steps[run.steps.length - 1];
  return last !== undefined && (last.kind === 'halt' || haltBound(last.edge) !== null);
}
