/**
 * The combined state-transition graph over all skills. Built once from the contract model; pure
 * queries only. Orders are deterministic: states in order of first appearance in the edge list
 * (skills sorted by path, transitions in file order).
 */
import type { Project, Transition } from '../model/types.js';

export interface Edge extends Transition {
  /** the skill whose LOOP.md declares this transition */
  skill: string;
}

export interface StateGraph {
  readonly edges: readonly Edge[];
  /** every state, in order of first appearance */
  readonly states: readonly string[];
  readonly out: ReadonlyMap<string, readonly Edge[]>;
  readonly in: ReadonlyMap<string, readonly Edge[]>;
  /** states with outgoing edges but no incoming edge */
  readonly entryPoints: readonly string[];
  /** states with no outgoing edge */
  readonly terminals: readonly string[];
}

export function buildGraph(project: Project): StateGraph {
  const edges: Edge[] = [];
  for (const skill of project.skills) {
    const transitions = skill.loop?.transitions ?? skill.legacyHandoffs?.transitions ?? [];
    for (const t of transitions) edges.push({ ...t, skill: skill.name });
  }
  return graphFromEdges(edges);
}

export function graphFromEdges(edges: readonly Edge[]): StateGraph {
  const states: string[] = [];
  const out = new Map<string, Edge[]>();
  const inn = new Map<string, Edge[]>();
  const add = (s: string) => {
    if (!out.has(s)) {
      out.set(s, []);
      inn.set(s, []);
      states.push(s);
    }
  };
  for (const e of edges) {
    add(e.from);
    add(e.to);
    out.get(e.from)!.push(e);
    inn.get(e.to)!.push(e);
  }
  const entryPoints = states.filter((s) => out.get(s)!.length > 0 && inn.get(s)!.length === 0);
  const terminals = states.filter((s) => out.get(s)!.length === 0);
  return { edges, states, out, in: inn, entryPoints, terminals };
}

/** The first edge (in graph order) that mentions a state, as source or target. */
export function firstMention(g: StateGraph, state: string): { edge: Edge; asTarget: boolean } | undefined {
  for (const e of g.edges) {
    if (e.from === state) return { edge: e, asTarget: false };
    if (e.to === state) return { edge: e, asTarget: true };
  }
  return undefined;
}

/** True when there is a direct edge from → to. */
export function hasEdge(g: StateGraph, from: string, to: string): boolean {
  return (g.out.get(from) ?? []).some((e) => e.to === to);
}

/** States reachable from `start` — one state or several (the starts included). */
export function reachableFrom(g: StateGraph, start: string | readonly string[]): Set<string> {
  const queue = typeof start === 'string' ? [start] : [...start];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const s = queue.shift()!;
    for (const e of g.out.get(s) ?? []) {
      if (!seen.has(e.to)) {
        seen.add(e.to);
        queue.push(e.to);
      }
    }
  }
  return seen;
}

/** States from which some terminal is reachable. */
export function canReachTerminal(g: StateGraph): Set<string> {
  const ok = new Set(g.terminals);
  const queue = [...g.terminals];
  while (queue.length > 0) {
    const s = queue.shift()!;
    for (const e of g.in.get(s) ?? []) {
      if (!ok.has(e.from)) {
        ok.add(e.from);
        queue.push(e.from);
      }
    }
  }
  return ok;
}

/**
 * The shortest way (fewest transitions) a run gets from an entry point to `target`: the transitions
 * in order, [] when `target` is itself an entry point, null when no entry point leads to it.
 * Breadth-first from every entry point at once (graph order), so the witness is deterministic.
 */
export function pathFromEntries(g: StateGraph, target: string): Edge[] | null {
  if (g.entryPoints.includes(target)) return [];
  const via = new Map<string, Edge | null>(g.entryPoints.map((s) => [s, null]));
  const queue = [...g.entryPoints];
  for (let i = 0; i < queue.length; i++) {
    for (const e of g.out.get(queue[i]!) ?? []) {
      if (via.has(e.to)) continue;
      via.set(e.to, e);
      if (e.to === target) return unwind(via, e);
      queue.push(e.to);
    }
  }
  return null;
}

/** The path that ends with `last`, following `via` (state → the edge that first reached it) back to a start. */
function unwind(via: ReadonlyMap<string, Edge | null>, last: Edge): Edge[] {
  const path: Edge[] = [];
  let cur: Edge | null | undefined = last;
  while (cur) {
    path.unshift(cur);
    cur = via.get(cur.from);
  }
  return path;
}

/**
 * Split `states` into groups linked by transitions between them (in either direction). Groups and
 * their members are in graph order (of their first member).
 */
export function connectedGroups(g: StateGraph, states: readonly string[]): string[][] {
  const inSet = new Set(states);
  const seen = new Set<string>();
  const out: string[][] = [];
  for (const start of states) {
    if (seen.has(start)) continue;
    seen.add(start);
    const members = new Set([start]);
    const queue = [start];
    for (let i = 0; i < queue.length; i++) {
      const s = queue[i]!;
      const next = [...(g.out.get(s) ?? []).map((e) => e.to), ...(g.in.get(s) ?? []).map((e) => e.from)];
      for (const n of next) {
        if (inSet.has(n) && !seen.has(n)) {
          seen.add(n);
          members.add(n);
          queue.push(n);
        }
      }
    }
    out.push(states.filter((s) => members.has(s)));
  }
  return out;
}
