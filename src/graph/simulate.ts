/**
 * Bounded-iteration simulation: from every entry point, is some terminal state reachable within
 * `max_iterations` transitions? Breadth-first, deterministic (edges in graph order), and it keeps the
 * witness path so a failure can be explained.
 */
import type { Edge, StateGraph } from './graph.js';

export interface EntryResult {
  entry: string;
  /** shortest path (edges) to a terminal, or null when no terminal is reachable at all */
  path: Edge[] | null;
  /** true when a terminal is reachable in at most `budget` transitions */
  withinBudget: boolean;
}

/** Shortest path (fewest transitions) from `start` to any terminal, ignoring the budget. */
export function shortestPathToTerminal(g: StateGraph, start: string): Edge[] | null {
  const terminals = new Set(g.terminals);
  if (terminals.has(start)) return [];
  const via = new Map<string, Edge | null>([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const s = queue.shift()!;
    for (const e of g.out.get(s) ?? []) {
      if (via.has(e.to)) continue;
      via.set(e.to, e);
      if (terminals.has(e.to)) {
        const path: Edge[] = [];
        let cur: Edge | null | undefined = e;
        while (cur) {
          path.unshift(cur);
          cur = via.get(cur.from);
        }
        return path;
      }
      queue.push(e.to);
    }
  }
  return null;
}

export function simulate(g: StateGraph, budget: number): EntryResult[] {
  return g.entryPoints.map((entry) => {
    const path = shortestPathToTerminal(g, entry);
    return { entry, path, withinBudget: path !== null && path.length <= budget };
  });
}

/** A readable path: `a → b → c`. */
export function describePath(path: readonly Edge[]): string {
  if (path.length === 0) return '';
  return [path[0]!.from, ...path.map((e) => e.to)].join(' → ');
}
