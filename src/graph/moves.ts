/**
 * What is legal from a state — the one answer every front end gives: `loopkit trace` and `watch`
 * judge a run's moves with it, the MCP server's `next` and `step` tools answer an agent with it,
 * `coverage` counts what a run exercised with it, and an editor's hover shows it. Pure queries on
 * the graph, cached per graph.
 *
 * - `legalMoves(graph, state)`: the declared transitions out of a state (grouped by target, with
 *   their triggers, handoffs and halts), whether a run ends there, and the halt bound that limits
 *   the iterations a run may spend in it;
 * - `judgeMove(graph, from, to, …)`: is the move from → to declared, and does the handoff it
 *   declares go to a skill that handles the new state (and to the skill and agent that took over,
 *   when the run names them)?
 */
import type { Edge, StateGraph } from './graph.js';
import { DONE_TARGET, terminalKind, type TerminalConfig } from './terminal.js';

/** The declared transitions from a state to one target (several skills may declare the same change). */
export interface Move {
  to: string;
  /** in graph order */
  edges: readonly Edge[];
}

export interface Legal {
  state: string;
  /** the graph has this state */
  known: boolean;
  /** the transitions out of it, grouped by target, in graph order (a declared self-loop is a move to the state itself) */
  moves: readonly Move[];
  /** no transition leaves it: a run ends here */
  terminal: boolean;
  /** a transition with a halt enters it: a run that ends here halted */
  halted: boolean;
  /** the halt transition out of it with the smallest bound: a run may spend at most `bound.halt.after` iterations in the state */
  bound: Edge | null;
}

interface Index {
  legal: Map<string, Legal>;
  halted: Set<string>;
}

const indexes = new WeakMap<StateGraph, Index>();

function indexOf(graph: StateGraph): Index {
  let index = indexes.get(graph);
  if (!index) {
    const halted = new Set<string>();
    for (const e of graph.edges) if (e.halt) halted.add(e.to);
    indexes.set(graph, (index = { legal: new Map(), halted }));
  }
  return index;
}

/** What a run may do from `state`: the one answer of trace, watch, coverage, the MCP server and the editor. */
export function legalMoves(graph: StateGraph, state: string): Legal {
  const index = indexOf(graph);
  const cached = index.legal.get(state);
  if (cached) return cached;
  const out = graph.out.get(state);
  const moves: Move[] = [];
  let bound: Edge | null = null;
  for (const e of out ?? []) {
    const move = moves.find((m) => m.to === e.to);
    if (move) (move.edges as Edge[]).push(e);
    else moves.push({ to: e.to, edges: [e] });
    if (e.halt?.after != null && (bound === null || bound.halt!.after! > e.halt.after)) bound = e;
  }
  const legal: Legal = {
    state,
    known: out !== undefined,
    moves,
    terminal: out !== undefined && out.length === 0,
    halted: index.halted.has(state),
    bound,
  };
  index.legal.set(state, legal);
  return legal;
}

/** Does a run end where it is: is every state it may be in terminal or halted (none: not known)? */
export function runEnded(graph: StateGraph, states: readonly string[]): boolean {
  return (
    states.length > 0 &&
    states.every((s) => {
      const legal = legalMoves(graph, s);
      return legal.known && (legal.terminal || legal.halted);
    })
  );
}

/** The transitions of a move as the contract writes them (`a → b`), distinct, in graph order. */
export function moveNames(legal: Legal): string[] {
  return legal.moves.map((m) => `${legal.state} → ${m.to}`);
}

/** Who took over after a move, as the run names them (either may be absent). */
export interface MoveBy {
  skill?: string;
  agent?: string;
}

/** What the handoff of a move says is wrong. */
export type HandoffProblem =
  /** the run names another skill or agent than the handoff declares */
  | { kind: 'mismatch'; field: 'skill' | 'agent'; want: string; got: string; edge: Edge }
  /** the skill the handoff names has no transition out of the new state in its own contract */
  | { kind: 'unhandled'; skill: string; handlers: readonly string[]; edge: Edge };

export type Verdict =
  /** the run stays in the state (always allowed; `edges` are the declared self-loops) */
  | { kind: 'stay'; allowed: true; edges: readonly Edge[] }
  /** a declared transition; `handoff` lists what its handoff says is wrong */
  | { kind: 'transition'; allowed: true; edges: readonly Edge[]; handoff: readonly HandoffProblem[] }
  /** `from` is a state the contract does not know */
  | { kind: 'unknown-from'; allowed: false; from: Legal }
  /** `to` is a state the contract does not know */
  | { kind: 'unknown-to'; allowed: false; from: Legal }
  /** no transition leaves `from` */
  | { kind: 'from-terminal'; allowed: false; from: Legal }
  /** no transition from → to is declared */
  | { kind: 'undeclared'; allowed: false; from: Legal };

export interface JudgeOptions {
  /** who the run says took over (for the handoff check) */
  by?: MoveBy;
  /**
   * For the check that the skill a handoff names handles the new state: the combined graph (the
   * moves may be judged on one skill's transitions), the configuration that says what is terminal,
   * and the skills of the project (a handoff to an unknown skill is another check's).
   */
  handlers?: { graph: StateGraph; config: TerminalConfig; skills: ReadonlySet<string> };
}

/** Is the move from → to legal? The answer of trace, watch, coverage and the MCP `step` tool. */
export function judgeMove(graph: StateGraph, from: string, to: string, options: JudgeOptions = {}): Verdict {
  const legal = legalMoves(graph, from);
  if (!legal.known) return { kind: 'unknown-from', allowed: false, from: legal };
  const edges = legal.moves.find((m) => m.to === to)?.edges;
  if (from === to) return { kind: 'stay', allowed: true, edges: edges ?? [] };
  if (!graph.out.has(to)) return { kind: 'unknown-to', allowed: false, from: legal };
  if (!edges) return { kind: legal.terminal ? 'from-terminal' : 'undeclared', allowed: false, from: legal };
  return { kind: 'transition', allowed: true, edges, handoff: handoffProblems(edges, to, options) };
}

/**
 * A handoff is kept when some declared edge of the change agrees with the run, has no handoff, or
 * hands off to `done` (the story is finished: nobody takes over).
 */
function handoffProblems(edges: readonly Edge[], to: string, options: JudgeOptions): HandoffProblem[] {
  if (edges.some((e) => !e.handoff || e.handoff.skill === DONE_TARGET)) return [];
  const problems: HandoffProblem[] = [];
  const first = edges[0]!;
  for (const field of ['skill', 'agent'] as const) {
    const named = options.by?.[field];
    if (named === undefined || edges.some((e) => e.handoff![field] === named)) continue;
    problems.push({ kind: 'mismatch', field, want: first.handoff![field], got: named, edge: first });
  }
  const h = options.handlers;
  if (h && !edges.some((e) => handlesState(h, e.handoff!.skill, to))) {
    problems.push({ kind: 'unhandled', skill: first.handoff!.skill, handlers: [...handlersOf(h.graph, to)], edge: first });
  }
  return problems;
}

/**
 * Does `skill` handle `state` when a handoff gives it the state — the answer of `check`
 * (constraints-handoff-unhandled) and of a run's move alike: it has a transition out of it, or the
 * state is terminal, has no transition out at all (a dead end is another check's), or the skill is
 * not one of the project (another check's too).
 */
export function handlesState(h: NonNullable<JudgeOptions['handlers']>, skill: string, state: string): boolean {
  if (!h.skills.has(skill) || terminalKind(state, h.config, h.graph) !== null) return true;
  const leaving = handlersOf(h.graph, state);
  return leaving.length === 0 || leaving.includes(skill);
}

const leavers = new WeakMap<StateGraph, Map<string, readonly string[]>>();

/**
 * The skills with a transition out of a state, each once, in the order of their first transition
 * out of it (kept per graph: a state many skills share has as many edges out).
 */
export function handlersOf(graph: StateGraph, state: string): readonly string[] {
  let byState = leavers.get(graph);
  if (!byState) leavers.set(graph, (byState = new Map()));
  let skills = byState.get(state);
  if (!skills) byState.set(state, (skills = [...new Set((graph.out.get(state) ?? []).map((e) => e.skill))]));
  return skills;
}
