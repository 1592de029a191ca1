/**
 * Completion from the contract: in LOOP.md (and HANDOFFS.md) the DSL's keywords, states and `→`
 * after `transition`, skills (and `done`) after `handoff`, agents after `handoff <skill> to`, halt
 * reasons after `halt`, the configured step verbs in numbered steps, the canonical sections after
 * `## `; in SKILL.md the frontmatter keys with their meaning, states in backticks, the canonical
 * sections; rule codes in suppression comments and under `rules:` in `.loopkit.yaml`.
 */
import { CompletionItemKind, InsertTextFormat, MarkupKind, type CompletionItem, type Range } from 'vscode-languageserver';
import { posix } from 'node:path';
import { ruleIndex } from '../api/engine.js';
import { shownSkillDir, skillDirName } from '../model/skill-dir.js';
import { FRONTMATTER_KEYS } from '../rules/lib/frontmatter-keys.js';
import { sectionKey } from '../util/text.js';
import type { FeatureContext } from './context.js';
import { legalMoves } from '../graph/moves.js';

const KEYWORDS: readonly [string, string][] = [
  ['transition', 'transition <from> → <to>: a change of state'],
  ['trigger', 'trigger <condition>: when the transition above is taken'],
  ['handoff', 'handoff <skill> to <agent>: who owns the work after the transition above'],
  ['halt', 'halt <reason> after <N> iterations: the transition above stops the loop'],
];

const SUPPRESSION_VERBS = ['disable-next-line', 'disable-line', 'disable', 'enable'];

const codes = [...ruleIndex().keys()].sort();

/** The range of the partial name that ends at the cursor (letters, digits, `_`, `-`). */
function partial(prefix: string, line: number): { text: string; range: Range } {
  const m = /[\p{L}\p{M}\p{N}_-]*$/u.exec(prefix)!;
  const start = prefix.length - m[0].length;
  return { text: m[0], range: { start: { line, character: start }, end: { line, character: prefix.length } } };
}

function items(
  names: Iterable<string>,
  kind: CompletionItemKind,
  where: Range,
  detail: (name: string) => string | undefined = () => undefined,
  sort: (name: string) => string = (n) => n,
): CompletionItem[] {
  const out: CompletionItem[] = [];
  for (const name of new Set(names)) {
    const item: CompletionItem = { label: name, kind, textEdit: { range: where, newText: name }, sortText: sort(name) };
    const d = detail(name);
    if (d !== undefined) item.detail = d;
    out.push(item);
  }
  return out;
}

function stateDetail(ctx: FeatureContext): (state: string) => string {
  const { graph, project } = ctx.check;
  return (state) => {
    const marks: string[] = [];
    if (graph.entryPoints.includes(state)) marks.push('entry point');
    if (legalMoves(graph, state).terminal) marks.push('terminal');
    if (project.config.enforced_states.some((e) => e.name === state)) marks.push('enforced');
    if (!graph.states.includes(state)) marks.push('in no transition yet');
    return marks.length > 0 ? `state · ${marks.join(' · ')}` : 'state';
  };
}

/** The agents the project names: in enforced_states, and in every handoff. */
function agents(ctx: FeatureContext): string[] {
  const out = ctx.check.project.config.enforced_states.map((e) => e.agent).filter((a) => a !== '');
  for (const e of ctx.check.graph.edges) if (e.handoff) out.push(e.handoff.agent);
  return out;
}

/** The canonical sections a file does not have yet, in their order. */
function sectionItems(canonical: readonly string[], present: readonly string[], where: Range): CompletionItem[] {
  const have = new Set(present.map(sectionKey));
  return canonical
    .filter((s) => !have.has(sectionKey(s)))
    .map((s, i) => ({
      label: s,
      kind: CompletionItemKind.Module,
      detail: 'required section',
      textEdit: { range: where, newText: s },
      sortText: String(i).padStart(3, '0'),
    }));
}

function suppressionItems(prefix: string, line: number): CompletionItem[] | null {
  const open = /<!--\s*loopkit-([a-z-]*)$/u.exec(prefix) ?? /^\s*#\s*loopkit-([a-z-]*)$/u.exec(prefix);
  if (open)
    return items(
      SUPPRESSION_VERBS.map((v) => `loopkit-${v}`),
      CompletionItemKind.Keyword,
      partialFrom(prefix, line, open[1]!.length + 'loopkit-'.length),
    );
  const m = /(?:<!--|^\s*#)\s*loopkit-(?:disable-next-line|disable-line|disable|enable)\s+(?:[a-z0-9-]+[\s,]+)*([a-z0-9-]*)$/u.exec(prefix);
  if (!m) return null;
  return items(codes, CompletionItemKind.Value, partial(prefix, line).range, (c) => ruleIndex().get(c)?.meta.description);
}

function partialFrom(prefix: string, line: number, length: number): Range {
  return { start: { line, character: prefix.length - length }, end: { line, character: prefix.length } };
}

function loopItems(ctx: FeatureContext, prefix: string, line: number): CompletionItem[] {
  const here = partial(prefix, line);
  // the line as the DSL reads it: list marker and backticks aside
  const body = prefix.replace(/`/gu, '').replace(/^\s*(?:[-*+]|\d{1,9}[.)])?\s*/u, '');
  const states = ctx.index.states;
  const byLegal = (from: string) => {
    const next = new Set(legalMoves(ctx.check.graph, from).moves.map((m) => m.to));
    return (s: string) => `${next.has(s) ? '0' : '1'}${s}`;
  };
  let m: RegExpExecArray | null;
  if ((m = /^transition\s+(\S+)\s*(?:→|--->|->)\s*[^\s→>]*$/u.exec(body))) {
    return items(states, CompletionItemKind.EnumMember, here.range, stateDetail(ctx), byLegal(m[1]!));
  }
  if (/^transition\s+\S+\s+-{0,3}$/u.test(body)) {
    const dashes = /-*$/u.exec(prefix)![0].length;
    const r = partialFrom(prefix, line, dashes);
    return [
      { label: '→', kind: CompletionItemKind.Operator, detail: 'arrow', textEdit: { range: r, newText: '→ ' }, sortText: '0' },
      { label: '->', kind: CompletionItemKind.Operator, detail: 'arrow', textEdit: { range: r, newText: '-> ' }, sortText: '1' },
    ];
  }
  if (/^transition\s+[^\s→>]*$/u.test(body)) return items(states, CompletionItemKind.EnumMember, here.range, stateDetail(ctx));
  if (/^handoff\s+\S+\s+to\s+[\p{L}\p{M}\p{N}_-]*$/u.test(body))
    return items(agents(ctx), CompletionItemKind.Value, here.range, () => 'agent');
  if (/^handoff\s+\S+\s+t?$/u.test(body))
    return [{ label: 'to', kind: CompletionItemKind.Keyword, textEdit: { range: here.range, newText: 'to ' } }];
  if (/^handoff\s+[\p{L}\p{M}\p{N}_-]*$/u.test(body)) {
    const skills = items(
      ctx.index.skills.keys(),
      CompletionItemKind.Module,
      here.range,
      (s) => `skill · ${shownSkillDir(ctx.index.skills.get(s)!.dir)}`,
    );
    skills.push({
      label: 'done',
      kind: CompletionItemKind.Keyword,
      detail: 'the work is finished: no skill takes over',
      textEdit: { range: here.range, newText: 'done' },
      sortText: '~done',
    });
    return skills;
  }
  if (/^halt\s+\S+\s+$/u.test(body)) {
    return [
      {
        label: 'after N iterations',
        kind: CompletionItemKind.Snippet,
        insertTextFormat: InsertTextFormat.Snippet,
        textEdit: { range: here.range, newText: 'after ${1:3} iterations' },
      },
    ];
  }
  if (/^halt\s+[\p{L}\p{M}\p{N}_-]*$/u.test(body)) {
    const declared = new Set(ctx.check.project.config.halt_reasons);
    return items(ctx.index.haltReasons, CompletionItemKind.EnumMember, here.range, (r) =>
      declared.has(r) ? 'halt reason' : 'halt reason · not declared in halt_reasons',
    );
  }
  if (/^\s*#{2}\s+[^#]*$/u.test(prefix)) {
    const skill = ctx.check.files.roles.find((r) => r.path === ctx.path);
    const loop = skill && skill.skill >= 0 ? ctx.check.project.skills[skill.skill]!.loop : null;
    const r = partialFrom(prefix, line, prefix.replace(/^\s*#{2}\s+/u, '').length);
    return sectionItems(ctx.check.project.config.canonical_loop_sections, loop?.sections.map((s) => s.title) ?? [], r);
  }
  // a numbered step: the configured verbs
  if (/^\s*\d{1,9}[.)]\s+[\p{L}]*$/u.test(prefix)) {
    return items(ctx.check.project.config.standard_verbs, CompletionItemKind.Function, here.range, () => 'step verb (standard_verbs)');
  }
  if (/^\s*(?:[-*+]\s+)?`?[a-z]*$/u.test(prefix)) {
    return KEYWORDS.filter(([k]) => k.startsWith(here.text)).map(([k, doc]) => ({
      label: k,
      kind: CompletionItemKind.Keyword,
      documentation: doc,
      textEdit: { range: here.range, newText: `${k} ` },
    }));
  }
  return [];
}

/** Is the line (0-based) inside the frontmatter block of the file? */
function inFrontmatter(lines: readonly string[], line: number): boolean {
  if (lines[0]?.trimEnd() !== '---' || line === 0) return false;
  for (let i = 1; i < lines.length; i++) if (/^(?:---|\.\.\.)\s*$/u.test(lines[i]!)) return line < i;
  return true;
}

function skillItems(ctx: FeatureContext, prefix: string, line: number): CompletionItem[] {
  const here = partial(prefix, line);
  if (inFrontmatter(ctx.lines, line)) {
    if (/^[\p{L}\p{N}_-]*$/u.test(prefix)) {
      return FRONTMATTER_KEYS.map((k, i) => ({
        label: k.key,
        kind: CompletionItemKind.Property,
        detail: k.source,
        documentation: { kind: MarkupKind.Markdown, value: k.meaning },
        textEdit: { range: here.range, newText: `${k.key}: ` },
        sortText: String(i).padStart(3, '0'),
      }));
    }
    if (/^name:\s*[\p{L}\p{N}_-]*$/u.test(prefix)) {
      // a root SKILL.md (a repository that is one skill): the project folder's name, as loopkit names the skill without one
      const dir = skillDirName(posix.dirname(ctx.path) === '.' ? '' : posix.dirname(ctx.path), ctx.root);
      return dir ? items([dir], CompletionItemKind.Value, here.range, () => 'the folder name') : [];
    }
    return [];
  }
  if (/`[\p{L}\p{M}\p{N}_-]*$/u.test(prefix)) return items(ctx.index.states, CompletionItemKind.EnumMember, here.range, stateDetail(ctx));
  if (/^\s*#{2}\s+[^#]*$/u.test(prefix)) {
    const role = ctx.check.files.roles.find((r) => r.path === ctx.path);
    const skill = role && role.skill >= 0 ? ctx.check.project.skills[role.skill] : undefined;
    const r = partialFrom(prefix, line, prefix.replace(/^\s*#{2}\s+/u, '').length);
    return sectionItems(ctx.check.project.config.canonical_skill_sections, skill?.sections.map((s) => s.title) ?? [], r);
  }
  return [];
}

/** `.loopkit.yaml`: rule codes as keys under `rules:`, severities as their values. */
function configItems(ctx: FeatureContext, prefix: string, line: number): CompletionItem[] {
  let parent: string | null = null;
  for (let i = line - 1; i >= 0; i--) {
    const m = /^([\w-]+)\s*:/u.exec(ctx.lines[i]!);
    if (m) {
      parent = m[1]!;
      break;
    }
  }
  if (parent !== 'rules') return [];
  const here = partial(prefix, line);
  if (/^\s+[a-z0-9-]+\s*:\s*[a-z]*$/u.test(prefix)) {
    return items(['off', 'info', 'warning', 'error'], CompletionItemKind.EnumMember, here.range);
  }
  if (/^\s+[a-z0-9-]*$/u.test(prefix)) {
    return codes.map((c) => ({
      label: c,
      kind: CompletionItemKind.Property,
      detail: ruleIndex().get(c)?.meta.description ?? '',
      textEdit: { range: here.range, newText: `${c}: ` },
    }));
  }
  return [];
}

export function completion(ctx: FeatureContext, line: number, character: number): CompletionItem[] {
  const prefix = (ctx.lines[line] ?? '').slice(0, character);
  if (ctx.kind === 'config') return configItems(ctx, prefix, line);
  if (ctx.kind === null || ctx.kind === 'script') return [];
  const suppression = suppressionItems(prefix, line);
  if (suppression) return suppression;
  if (ctx.kind === 'loop' || ctx.kind === 'handoffs') return loopItems(ctx, prefix, line);
  if (ctx.kind === 'skill') return skillItems(ctx, prefix, line);
  return [];
}
