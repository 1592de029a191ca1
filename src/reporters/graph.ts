/**
 * The combined state machine as a diagram: Mermaid `stateDiagram-v2` (renders in GitHub markdown),
 * Graphviz DOT (also the source of the SVG and HTML pictures), or JSON. All three draw a GraphView
 * (graph-view.ts): the whole graph or one skill and its neighbours, with entry, terminal, halted,
 * enforced and problem states styled differently. Entry points start from `[*]` (a dot in DOT);
 * terminal states that no transition leaves end in `[*]` (a double border in DOT); transitions are
 * labelled with their trigger (or halt) and the skill they hand off to.
 */
import type { Edge } from '../graph/graph.js';
import { stateKinds, type EdgeView, type GraphView, type StateView } from './graph-view.js';

const MAX_LABEL = 48;

/** `text` on one line, at most MAX_LABEL characters (cut with `ellipsis`). */
function cut(text: string, ellipsis: string): string {
  const clean = text.replace(/[\r\n]+/g, ' ').trim();
  const chars = Array.from(clean);
  return chars.length > MAX_LABEL ? `${chars.slice(0, MAX_LABEL - ellipsis.length).join('')}${ellipsis}` : clean;
}

/**
 * An edge's label: its trigger, or its halt (`halt stall after 3`). DOT cuts with ASCII dots: Graphviz
 * sizes labels by its own table of character widths, which has no `…`.
 */
function label(e: Edge, ellipsis = '…'): string {
  return cut(e.halt ? `halt ${e.halt.reason}${e.halt.after === null ? '' : ` after ${e.halt.after}`}` : (e.trigger?.text ?? ''), ellipsis);
}

/** `text` broken into lines of at most `width` characters (at spaces), for DOT labels. */
function wrap(text: string, width = 28): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && Array.from(line).length + 1 + Array.from(word).length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}

/** The skill an edge hands its target to, when it names one (not `done`). */
const handoffOf = (e: Edge) => (e.handoff && e.handoff.skill !== 'done' ? e.handoff.skill : undefined);

/** Colours: fills by kind of state, strokes by problem severity. */
export const COLORS = {
  entry: '#c8e6c9',
  terminal: '#bbdefb',
  halted: '#ffe0b2',
  enforced: '#e1bee7',
  state: '#ffffff',
  neighbour: '#f5f5f5',
  stroke: '#455a64',
  error: '#c62828',
  warning: '#ef6c00',
  halt: '#ef6c00',
  edge: '#607d8b',
  faint: '#90a4ae',
  exercised: '#2e7d32',
  possible: '#f9a825',
  never: '#c62828',
} as const;

/** `loopkit coverage`: the class (in the SVG), colour, line style and label of each mark of a transition. */
const COVERAGE_STYLE = {
  exercised: { class: 'covered', color: COLORS.exercised, style: 'solid', legend: 'exercised' },
  possible: { class: 'possibly-covered', color: COLORS.possible, style: 'dotted', legend: 'possibly exercised' },
  never: { class: 'not-covered', color: COLORS.never, style: 'dashed', legend: 'never exercised' },
} as const;

/** The fill of a state: halted, terminal, enforced with an agent, entry, or plain. */
function fillOf(s: StateView): string {
  if (s.terminal === 'halted') return COLORS.halted;
  if (s.terminal !== null) return COLORS.terminal;
  if (s.agent !== undefined) return COLORS.enforced;
  if (s.entry) return COLORS.entry;
  return s.neighbour ? COLORS.neighbour : COLORS.state;
}

/** Terminal states that no transition leaves: where runs end (`--> [*]`). */
const ends = (s: StateView) => s.sink && s.terminal !== null;

// --- Mermaid ---------------------------------------------------------------------------------

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

/** Mermaid class of a state's kind (one per state) and of its problems. */
function mermaidClasses(s: StateView): string[] {
  const out: string[] = [];
  if (s.terminal === 'halted') out.push('halted');
  else if (s.terminal !== null) out.push('terminal');
  else if (s.agent !== undefined) out.push('enforced');
  else if (s.entry) out.push('entry');
  if (s.worst === 'error') out.push('error');
  else if (s.worst === 'warning') out.push('warning');
  if (s.neighbour) out.push('neighbour');
  return out;
}

const MERMAID_CLASSDEF: Record<string, string> = {
  entry: `fill:${COLORS.entry},stroke:#2e7d32,stroke-width:2px`,
  terminal: `fill:${COLORS.terminal},stroke:#1565c0`,
  halted: `fill:${COLORS.halted},stroke:#e65100`,
  enforced: `fill:${COLORS.enforced},stroke:#6a1b9a`,
  error: `stroke:${COLORS.error},stroke-width:3px`,
  warning: `stroke:${COLORS.warning},stroke-width:3px`,
  neighbour: `stroke-dasharray:4 3,color:#607d8b`,
};

export function mermaidGraph(view: GraphView): string {
  const ids = mermaidIds(view.states.map((s) => s.name));
  const out = ['stateDiagram-v2'];
  for (const s of view.states) out.push(`  state "${s.name.replace(/"/g, "'")}" as ${ids.get(s.name)}`);
  for (const s of view.states) if (s.entry) out.push(`  [*] --> ${ids.get(s.name)}`);
  for (const { edge: e } of view.edges) {
    const parts = [label(e), handoffOf(e) ? `handoff ${handoffOf(e)}` : ''].filter(Boolean);
    const l = parts.join(', ').replace(/[:;#]/g, ' ');
    out.push(`  ${ids.get(e.from)} --> ${ids.get(e.to)}${l ? ` : ${l}` : ''}`);
  }
  for (const s of view.states) if (ends(s)) out.push(`  ${ids.get(s.name)} --> [*]`);
  // styles: one classDef per class in use (fixed order), then the states of each class
  const members = new Map<string, string[]>();
  for (const s of view.states) for (const c of mermaidClasses(s)) members.set(c, [...(members.get(c) ?? []), ids.get(s.name)!]);
  for (const c of Object.keys(MERMAID_CLASSDEF)) if (members.has(c)) out.push(`  classDef ${c} ${MERMAID_CLASSDEF[c]}`);
  for (const c of Object.keys(MERMAID_CLASSDEF)) if (members.has(c)) out.push(`  class ${members.get(c)!.join(',')} ${c}`);
  return `${out.join('\n')}\n`;
}

// --- DOT -------------------------------------------------------------------------------------

const dotString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n')}"`;

/** A node of the start point (DOT ids of states are their quoted names, so this one cannot clash with `"…"`). */
const START = '__loopkit_start';
const LEGEND = '__loopkit_legend';

export interface DotOptions {
  /** add a legend of the styles (for the rendered pictures) */
  legend?: boolean;
}

/** A state's tooltip: its name, what it is, and its problems. */
function stateTooltip(s: StateView): string {
  const kinds = stateKinds(s).filter((k) => k !== 'problem');
  const lines = [`${s.name}${kinds.length > 0 ? ` (${kinds.join(', ')}${s.agent ? `: ${s.agent}` : ''})` : ''}`];
  for (const d of s.problems) lines.push(`${d.severity}: ${d.message} [${d.code}]`);
  return lines.join('\n');
}

function edgeTooltip(v: EdgeView): string {
  const e = v.edge;
  const lines = [`${e.from} → ${e.to}`, `${e.skill}: ${e.file}:${e.line}`];
  if (e.trigger) lines.push(`trigger ${e.trigger.text}`);
  if (e.handoff) lines.push(`handoff ${e.handoff.skill} to ${e.handoff.agent}`);
  if (e.halt) lines.push(`halt ${e.halt.reason}${e.halt.after === null ? '' : ` after ${e.halt.after} iterations`}`);
  const c = v.coverage;
  if (c) {
    lines.push(c.mark === 'exercised' ? `exercised ${c.times} time${c.times === 1 ? '' : 's'}` : COVERAGE_STYLE[c.mark].legend);
    if (c.peak !== undefined && e.halt?.after != null) lines.push(`at most ${c.peak} of ${e.halt.after} iterations spent in ${e.from}`);
  }
  for (const d of v.problems) lines.push(`${d.severity}: ${d.message} [${d.code}]`);
  return lines.join('\n');
}

function stateAttrs(s: StateView): string[] {
  const style = ['rounded', 'filled'];
  const attrs = [`id=${dotString(s.id)}`];
  if (s.agent !== undefined) attrs.push(`label=${dotString(`${s.name}\n(${s.agent})`)}`);
  if (s.terminal === 'halted') attrs.push('shape=octagon');
  else if (s.terminal !== null) attrs.push('peripheries=2');
  attrs.push(`fillcolor=${dotString(fillOf(s))}`);
  if (s.worst === 'error' || s.worst === 'warning') attrs.push(`color=${dotString(COLORS[s.worst])}`, 'penwidth=3');
  else if (s.entry) attrs.push('penwidth=2');
  if (s.neighbour) {
    style.push('dashed');
    attrs.push(`fontcolor=${dotString(COLORS.faint)}`);
  }
  attrs.push(`style=${dotString(style.join(','))}`, `tooltip=${dotString(stateTooltip(s))}`);
  return attrs;
}

function edgeAttrs(v: EdgeView): string[] {
  const e = v.edge;
  const lines = [wrap(label(e, '...')), handoffOf(e) ? `handoff ${handoffOf(e)}` : ''].filter(Boolean);
  const attrs = [`id=${dotString(v.id)}`];
  const c = v.coverage;
  if (c) {
    // coverage draws exercised and never-exercised transitions apart: colour, line and class say which
    const style = COVERAGE_STYLE[c.mark];
    if (c.mark === 'exercised') lines.push(`×${c.times}`);
    if (lines.length > 0) attrs.push(`label=${dotString(lines.join('\n'))}`);
    attrs.push(
      `class=${dotString(style.class)}`,
      `color=${dotString(style.color)}`,
      `style=${style.style}`,
      `penwidth=${c.mark === 'never' ? 1.5 : 2.5}`,
    );
    if (v.neighbour) attrs.push(`fontcolor=${dotString(COLORS.faint)}`);
    attrs.push(`tooltip=${dotString(edgeTooltip(v))}`);
    return attrs;
  }
  if (lines.length > 0) attrs.push(`label=${dotString(lines.join('\n'))}`);
  if (v.worst === 'error' || v.worst === 'warning') attrs.push(`color=${dotString(COLORS[v.worst])}`, 'penwidth=2');
  else if (e.halt) attrs.push(`color=${dotString(COLORS.halt)}`);
  if (e.halt || v.neighbour) attrs.push('style=dashed');
  if (v.neighbour) attrs.push(`fontcolor=${dotString(COLORS.faint)}`);
  attrs.push(`tooltip=${dotString(edgeTooltip(v))}`);
  return attrs;
}

/** The legend: one row of swatches, as a Graphviz HTML-like label (with `coverage`, the marks of the transitions too). */
function legendNode(coverage: boolean): string {
  const cell = (fill: string, text: string, border: string = COLORS.stroke) =>
    `<TD BGCOLOR="${fill}" COLOR="${border}" BORDER="${border === COLORS.stroke ? 1 : 2}" STYLE="rounded">${text}</TD>`;
  const cells = [
    cell(COLORS.entry, 'entry'),
    cell(COLORS.state, 'state'),
    cell(COLORS.enforced, 'enforced (agent)'),
    cell(COLORS.terminal, 'terminal'),
    cell(COLORS.halted, 'halted'),
    cell(COLORS.state, 'error', COLORS.error),
    cell(COLORS.state, 'warning', COLORS.warning),
    ...(coverage
      ? Object.values(COVERAGE_STYLE).map(
          (m) =>
            `<TD><FONT COLOR="${m.color}">${m.style === 'solid' ? '───' : m.style === 'dotted' ? '···' : '- - -'} ${m.legend}</FONT></TD>`,
        )
      : []),
  ].join('');
  return `  ${LEGEND} [shape=plaintext, fontsize=9, tooltip="legend", label=<<TABLE BORDER="0" CELLSPACING="6" CELLPADDING="5"><TR>${cells}</TR></TABLE>>];`;
}

export function dotGraph(view: GraphView, options: DotOptions = {}): string {
  const out = [
    'digraph loopkit {',
    '  rankdir=TB;',
    '  graph [fontname="Helvetica", nodesep=0.35, ranksep=0.45, pad=0.3];',
    `  node [shape=box, style="rounded,filled", fillcolor="${COLORS.state}", color="${COLORS.stroke}", fontname="Helvetica", fontsize=11];`,
    `  edge [color="${COLORS.edge}", fontname="Helvetica", fontsize=9, fontcolor="#37474f"];`,
  ];
  if (options.legend) out.push(legendNode(view.edges.some((v) => v.coverage !== undefined)));
  const entries = view.states.filter((s) => s.entry);
  if (entries.length > 0) {
    out.push(
      `  ${START} [shape=point, width=0.14, style=filled, fillcolor="${COLORS.stroke}", color="${COLORS.stroke}", tooltip="start"];`,
    );
  }
  for (const s of view.states) out.push(`  ${dotString(s.name)} [${stateAttrs(s).join(', ')}];`);
  for (const s of entries) out.push(`  ${START} -> ${dotString(s.name)};`);
  for (const v of view.edges) out.push(`  ${dotString(v.edge.from)} -> ${dotString(v.edge.to)} [${edgeAttrs(v).join(', ')}];`);
  out.push('}');
  return `${out.join('\n')}\n`;
}

// --- JSON ------------------------------------------------------------------------------------

export function jsonGraph(view: GraphView, terminals: readonly string[]): string {
  const problem = (d: StateView['problems'][number]) => ({
    severity: d.severity,
    code: d.code,
    message: d.message,
    location: { path: d.file, line: d.line, column: d.column },
  });
  const inView = new Set(view.states.map((s) => s.name));
  const doc = {
    ...(view.skill !== undefined ? { skill: view.skill } : {}),
    states: view.states.map((s) => s.name),
    entryPoints: view.states.filter((s) => s.entry).map((s) => s.name),
    /** states no transition leaves (whether or not they are terminal) */
    terminals: terminals.filter((s) => inView.has(s)),
    transitions: view.edges.map(({ edge: e, problems }) => ({
      from: e.from,
      to: e.to,
      skill: e.skill,
      location: { path: e.file, line: e.line, column: e.column },
      ...(e.trigger ? { trigger: e.trigger.text } : {}),
      ...(e.handoff ? { handoff: { skill: e.handoff.skill, agent: e.handoff.agent } } : {}),
      ...(e.halt ? { halt: { reason: e.halt.reason, after: e.halt.after } } : {}),
      ...(problems.length > 0 ? { problems: problems.map(problem) } : {}),
    })),
    details: view.states.map((s) => ({
      state: s.name,
      kinds: stateKinds(s),
      ...(s.terminal !== null ? { terminal: s.terminal } : {}),
      ...(s.agent !== undefined ? { agent: s.agent } : {}),
      ...(s.neighbour ? { neighbour: true } : {}),
      problems: s.problems.map(problem),
    })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
