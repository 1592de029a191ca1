/**
 * What a state is to the Loop Language, beyond its place in the graph: a terminal state (where a
 * story legitimately ends), an enforced state with an agent (where that agent works), or neither.
 *
 * Terminal states (the Loop Language and the `.loopkit.yaml` reference decide; no name is hard-coded
 * beyond the language's own):
 * - `done`: the Loop Language's end of a story (the special handoff target `done`: "the story is
 *   finished and requires no further skill invocation");
 * - `halted-<reason>` for every reason in `halt_reasons` (the DSL halts with
 *   `transition <from> → <halted-*>` and `halt <reason> …`);
 * - every `enforced_states` entry with an empty `agent`: a state no agent works in ("Your terminal
 *   state is called shipped not done? Configure it.");
 * - with the graph at hand: a state entered by a transition with `handoff done to <agent>` (the
 *   contract itself says the story is finished there).
 */
import type { Config } from '../config/schema.js';
import type { StateGraph } from './graph.js';

export type TerminalKind = 'done' | 'halted' | 'enforced' | 'handoff-done';

/** The special handoff target that ends the story (Loop Language). */
export const DONE_TARGET = 'done';

/** The part of the configuration that decides what is terminal. */
export type TerminalConfig = Pick<Config, 'enforced_states' | 'halt_reasons'>;

/** Why `state` is a terminal state, or null when it is not one (`graph`: also read the handoffs into it). */
export function terminalKind(state: string, config: TerminalConfig, graph?: StateGraph): TerminalKind | null {
  if (state === 'done') return 'done';
  if (state.startsWith('halted-') && config.halt_reasons.some((r) => `halted-${r.toLowerCase()}` === state)) return 'halted';
  if (config.enforced_states.some((e) => e.name === state && e.agent.trim() === '')) return 'enforced';
  if (graph && endedByHandoff(graph).has(state)) return 'handoff-done';
  return null;
}

const ended = new WeakMap<StateGraph, ReadonlySet<string>>();

/**
 * The states a transition with `handoff done` enters, once per graph: a state many skills share is
 * entered by as many edges, and terminalKind is asked of every edge's state.
 */
function endedByHandoff(graph: StateGraph): ReadonlySet<string> {
  let set = ended.get(graph);
  if (!set) {
    const states = new Set<string>();
    for (const e of graph.edges) if (e.handoff?.skill === DONE_TARGET) states.add(e.to);
    ended.set(graph, (set = states));
  }
  return set;
}

/** The agent of an enforced state that names one (trimmed), else undefined. */
export function enforcedAgent(state: string, config: TerminalConfig): string | undefined {
  const agent = config.enforced_states.find((e) => e.name === state && e.agent.trim() !== '')?.agent.trim();
  return agent;
}

/** `halted-<word>` whose word is not a configured halt reason (so the state is not terminal), else undefined. */
export function unknownHaltedReason(state: string, config: TerminalConfig): string | undefined {
  if (!state.startsWith('halted-') || terminalKind(state, config) !== null) return undefined;
  return state.slice('halted-'.length);
}
