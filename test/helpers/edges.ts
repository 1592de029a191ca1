/** Transitions written by tests: a declaration on a line of a skill's LOOP.md, as the parser would give it. */
import type { Edge } from '../../src/graph/graph.js';

/** `transition <from> → <to>` on `line` of `skills/<skill>/LOOP.md` (column 1; `extra` adds a handoff, a halt …). */
export function declaredEdge(from: string, to: string, skill: string, line: number, extra: Partial<Edge> = {}): Edge {
  return {
    from,
    to,
    arrow: '→',
    file: `skills/${skill}/LOOP.md`,
    line,
    column: 1,
    fromColumn: 12,
    toColumn: 20,
    section: 'State Transition Rule',
    skill,
    ...extra,
  };
}
