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
