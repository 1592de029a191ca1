/**
 * The proof of a graph problem as related places: the steps of a witness run (numbered, in order:
 * SARIF code flows are made of them), or the transitions of a group of states (a trap, an island).
 */
import type { Related } from '../../engine/diagnostic.js';
import type { Edge } from '../../graph/graph.js';
import { haltText, type Step } from '../../graph/simulate.js';
import { edgeLabel } from './state-mention.js';

/** Numbered steps, starting after `from` steps already listed: transitions at their line, halt bounds at their directive. */
export function stepsRelated(steps: readonly (Edge | Step)[], from = 0): Related[] {
  return steps.map((s, i) => {
    const step = from + i + 1;
    if ('kind' in s && s.kind === 'halt') {
      const h = s.edge.halt!;
      return {
        message: `step ${step}: ${haltText(s.edge)} ends the loop in '${s.edge.from}'`,
        file: s.edge.file,
        line: h.line,
        column: h.column,
        step,
      };
    }
    const e = 'kind' in s ? s.edge : s;
    return { message: `step ${step}: ${edgeLabel(e)}`, file: e.file, line: e.line, column: e.column, step };
  });
}

/** The transitions of a group, each labelled `<label>: a → b`. */
export function edgesRelated(label: string, edges: readonly Edge[]): Related[] {
  return edges.map((e) => ({ message: `${label}: ${edgeLabel(e)}`, file: e.file, line: e.line, column: e.column }));
}
