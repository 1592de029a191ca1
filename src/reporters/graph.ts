/**
 * The combined state machine as a diagram: Mermaid `stateDiagram-v2` (renders in GitHub markdown)
 * or Graphviz DOT. Entry points start from `[*]`/bold, terminal states end in `[*]`/double circles;
 * edges are labelled with their trigger (or halt), and each skill's transitions can be grouped.
 */
import type { Edge, StateGraph } from '../graph/graph.js';

const MAX_LABEL = 48;

function label(e: Edge): string {
  const text = e.halt ? `halt ${e.halt.reason}${e.halt.after === null ? '' : ` after ${e.halt.after}`}` : (e.trigger?.text ?? '');
  const clean = text.replace(/[\r\n]+/g, ' ').trim();
  return Array.from(clean).length > MAX_LABEL
    ? `${Array.from(clean)
        .slice(0, MAX_LABEL - 1)
        .join('')}…`
    : clean;
}

/** Mermaid ids: letters, digits and underscores only; distinct states keep distinct ids. */
function mermaidIds(states: readonly string[]): Map<string, string> {
  const ids = new Map<string, string>();
  const used = new Set<string>();
  for (const s of states) {
    let id = `s_${s.replace(/[^A-Za-z0-9]/g, '_')}`;
    while (used.has(id)) id += '_';
    used.add(id);
    ids.set(s, id);
  }
  return ids;
}

export function mermaidGraph(g: StateGraph): string {
  const ids = mermaidIds(g.states);
  const out = ['stateDiagram-v2'];
  for (const s of g.states) out.push(`  state "${s.replace(/"/g, "'")}" as ${ids.get(s)}`);
  for (const s of g.entryPoints) out.push(`  [*] --> ${ids.get(s)}`);
  for (const e of g.edges) {
    const l = label(e).replace(/[:;#]/g, ' ');
    out.push(`  ${ids.get(e.from)} --> ${ids.get(e.to)}${l ? ` : ${l}` : ''}`);
  }
  for (const s of g.terminals) out.push(`  ${ids.get(s)} --> [*]`);
  return `${out.join('\n')}\n`;
}

const dotString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

export function dotGraph(g: StateGraph): string {
  const entries = new Set(g.entryPoints);
  const terminals = new Set(g.terminals);
  const out = ['digraph loopkit {', '  rankdir=LR;', '  node [shape=box, style=rounded];'];
  for (const s of g.states) {
    const attrs = [terminals.has(s) ? 'shape=doublecircle' : '', entries.has(s) ? 'penwidth=2' : ''].filter(Boolean);
    out.push(`  ${dotString(s)}${attrs.length ? ` [${attrs.join(', ')}]` : ''};`);
  }
  for (const e of g.edges) {
    const l = label(e);
    const attrs = [l ? `label=${dotString(l)}` : '', `tooltip=${dotString(`${e.skill}: ${e.file}:${e.line}`)}`].filter(Boolean);
    out.push(`  ${dotString(e.from)} -> ${dotString(e.to)} [${attrs.join(', ')}];`);
  }
  out.push('}');
  return `${out.join('\n')}\n`;
}

export function jsonGraph(g: StateGraph): string {
  const doc = {
    states: g.states,
    entryPoints: g.entryPoints,
    terminals: g.terminals,
    transitions: g.edges.map((e) => ({
      from: e.from,
      to: e.to,
      skill: e.skill,
      location: { path: e.file, line: e.line, column: e.column },
      ...(e.trigger ? { trigger: e.trigger.text } : {}),
      ...(e.handoff ? { handoff: { skill: e.handoff.skill, agent: e.handoff.agent } } : {}),
      ...(e.halt ? { halt: { reason: e.halt.reason, after: e.halt.after } } : {}),
    })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
