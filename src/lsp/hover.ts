/**
 * Hover: on a state, the transitions into and out of it (what a run may do from it, with triggers,
 * handoffs and halt bounds), whether it is an entry point, terminal or enforced; on a skill, its
 * description and how work reaches it; on a halt reason, where it is declared and which transitions
 * halt with it; on a rule code, the rule's summary; on a frontmatter key, what it means.
 */
import { MarkupKind, type Hover } from 'vscode-languageserver';
import type { Edge } from '../graph/graph.js';
import { ruleIndex } from '../api/engine.js';
import { FRONTMATTER_KEYS } from '../rules/lib/frontmatter-keys.js';
import { descriptionField } from '../rules/lib/frontmatter-fields.js';
import { nameAt } from './contract-index.js';
import type { FeatureContext } from './context.js';
import { fileUri, rulePage, span } from './convert.js';
import { legalMoves } from '../graph/moves.js';
import { stateDeclarations } from './navigation.js';

/** At most this many transitions are listed each way (a hub state has many). */
const MAX_LISTED = 12;

function where(ctx: FeatureContext, file: string, line: number): string {
  return `[${file}:${line}](${fileUri(ctx.root, file)}#L${line})`;
}

function edgeLine(ctx: FeatureContext, e: Edge, toward: 'out' | 'in'): string {
  const other = toward === 'out' ? `→ \`${e.to}\`` : `\`${e.from}\` →`;
  const parts = [
    e.trigger ? `trigger: ${e.trigger.text}` : '',
    e.handoff ? `handoff \`${e.handoff.skill}\` to \`${e.handoff.agent}\`` : '',
    e.halt ? `halt \`${e.halt.reason}\`${e.halt.after === null ? '' : ` after ${e.halt.after} iterations`}` : '',
  ].filter((p) => p !== '');
  return `- ${other}${parts.length > 0 ? ` — ${parts.join(' · ')}` : ''} (${e.skill}, ${where(ctx, e.file, e.line)})`;
}

function edgeList(ctx: FeatureContext, edges: readonly Edge[], toward: 'out' | 'in'): string[] {
  const out = edges.slice(0, MAX_LISTED).map((e) => edgeLine(ctx, e, toward));
  if (edges.length > MAX_LISTED) out.push(`- … and ${edges.length - MAX_LISTED} more`);
  return out;
}

function stateHover(ctx: FeatureContext, state: string): string {
  const { graph, project } = ctx.check;
  const marks: string[] = [];
  const legal = legalMoves(graph, state);
  const outs = legal.moves.flatMap((m) => m.edges);
  const ins = graph.in.get(state) ?? [];
  if (graph.entryPoints.includes(state)) marks.push('entry point');
  if (legal.terminal) marks.push(legal.halted ? 'terminal (halted)' : 'terminal');
  if (legal.bound) marks.push(`at most ${legal.bound.halt!.after} iterations here`);
  if (!graph.states.includes(state)) marks.push('in no transition');
  const enforced = project.config.enforced_states.find((e) => e.name === state);
  if (enforced) marks.push(`enforced${enforced.agent !== '' ? `, agent \`${enforced.agent}\`` : ''}`);
  const lines = [`**state** \`${state}\`${marks.length > 0 ? ` — ${marks.join(' · ')}` : ''}`];
  if (enforced && enforced.description !== '') lines.push('', enforced.description);
  const declared = stateDeclarations(ctx, state).filter((o) => o.role === 'declared');
  if (declared.length > 0) {
    lines.push(
      '',
      `Declared in ${declared.map((o) => `\`${project.skills[o.skill]?.name ?? o.file}\` (${where(ctx, o.file, o.line)})`).join(', ')}`,
    );
  }
  if (outs.length > 0) lines.push('', `**From here** a run may go:`, ...edgeList(ctx, outs, 'out'));
  else if (graph.states.includes(state)) lines.push('', 'No transition leaves it: a run that gets here ends here.');
  if (ins.length > 0) lines.push('', `**Into here**:`, ...edgeList(ctx, ins, 'in'));
  return lines.join('\n');
}

function skillHover(ctx: FeatureContext, name: string): string {
  const skill = ctx.index.skills.get(name);
  if (!skill) return `**skill** \`${name}\` — not a skill of this project`;
  const lines = [`**skill** \`${name}\` — ${where(ctx, skill.skillFile.path, 1)}`];
  const description = descriptionField(skill)?.text;
  if (description) lines.push('', description);
  const transitions = skill.loop?.transitions ?? skill.legacyHandoffs?.transitions ?? [];
  const states = [...new Set(transitions.flatMap((t) => [t.from, t.to]))];
  if (states.length > 0) lines.push('', `States: ${states.map((s) => `\`${s}\``).join(', ')}`);
  const handedIn = ctx.check.graph.edges.filter((e) => e.handoff?.skill === name);
  if (handedIn.length > 0) {
    lines.push(
      '',
      '**Work handed to it**:',
      ...handedIn
        .slice(0, MAX_LISTED)
        .map((e) => `- \`${e.from}\` → \`${e.to}\` by ${e.skill}, to \`${e.handoff!.agent}\` (${where(ctx, e.file, e.line)})`),
    );
  }
  return lines.join('\n');
}

function haltHover(ctx: FeatureContext, reason: string): string {
  const declared = ctx.check.project.config.halt_reasons.includes(reason);
  const lines = [
    `**halt reason** \`${reason}\` — ${declared ? 'declared in halt_reasons' : 'not declared in halt_reasons (loop-unknown-halt)'}`,
  ];
  const halting = ctx.check.graph.edges.filter((e) => e.halt?.reason === reason);
  if (halting.length > 0) lines.push('', '**Transitions that halt with it**:', ...edgeList(ctx, halting, 'out'));
  return lines.join('\n');
}

const rulesByCode = ruleIndex();

function codeHover(code: string): string | null {
  const rule = rulesByCode.get(code);
  if (!rule) return null;
  const m = rule.meta;
  const page = rulePage(m.code);
  const lines = [
    `**rule** \`${m.code}\` — ${m.defaultSeverity} by default · ${m.category}${m.fixable ? ' · --fix repairs it' : ''}`,
    '',
    m.description,
  ];
  if (m.code !== code) lines.push('', `(\`${code}\` is an alias of \`${m.code}\`)`);
  if (page !== null) lines.push('', `[Rule documentation](${page})`);
  return lines.join('\n');
}

/** A frontmatter key under the cursor in SKILL.md: its meaning. */
function frontmatterHover(ctx: FeatureContext, line: number, column: number): Hover | null {
  if (ctx.kind !== 'skill') return null;
  const role = ctx.check.files.roles.find((r) => r.path === ctx.path);
  const skill = role && role.skill >= 0 ? ctx.check.project.skills[role.skill] : undefined;
  const entry = skill?.frontmatter?.entries.find((e) => e.line === line && column >= e.column && column <= e.column + e.key.length);
  if (!entry) return null;
  const known = FRONTMATTER_KEYS.find((k) => k.key === entry.key);
  const text = known
    ? `**${known.key}** (${known.source})\n\n${known.meaning}`
    : entry.key.startsWith('x-')
      ? `**${entry.key}** — a custom key (\`x-\` prefix): no agent reads it`
      : `**${entry.key}** — no agent reads this key (skill-unknown-frontmatter-key)`;
  return { contents: { kind: MarkupKind.Markdown, value: text }, range: span(entry.line, entry.column, entry.key.length) };
}

export function hover(ctx: FeatureContext, line: number, column: number): Hover | null {
  const o = nameAt(ctx.index, ctx.path, ctx.lines, line, column);
  if (!o) {
    const fm = frontmatterHover(ctx, line, column);
    if (fm) return fm;
    // a rule code written where the index does not list it (a suppression comment being typed)
    const m = /[a-z][a-z0-9]*(?:-[a-z0-9]+)+/gu;
    for (const w of (ctx.lines[line - 1] ?? '').matchAll(m)) {
      if (column < w.index + 1 || column > w.index + w[0].length) continue;
      const text = codeHover(w[0]);
      if (text) return { contents: { kind: MarkupKind.Markdown, value: text }, range: span(line, w.index + 1, w[0].length) };
    }
    return null;
  }
  let text: string | null;
  if (o.kind === 'state') text = stateHover(ctx, o.name);
  else if (o.kind === 'skill') text = skillHover(ctx, o.name);
  else if (o.kind === 'halt') text = haltHover(ctx, o.name);
  else text = codeHover(o.name);
  if (text === null) return null;
  return { contents: { kind: MarkupKind.Markdown, value: text }, range: span(line, o.column, o.name.length) };
}
