/**
 * Navigation that follows the contract: go to definition (a state's declaration, a skill's
 * SKILL.md, a link's file or heading, a halt reason's or rule's declaration), find references,
 * highlights, document symbols (sections, transitions, states) and workspace symbols (skills,
 * states).
 */
import GithubSlugger from 'github-slugger';
import { existsSync } from 'node:fs';
import { join, posix } from 'node:path';
import {
  DocumentHighlightKind,
  SymbolKind,
  type DocumentHighlight,
  type DocumentSymbol,
  type Location,
  type SymbolInformation,
} from 'vscode-languageserver';
import { linkPlaces } from '../model/skill.js';
import type { Section, Transition } from '../model/types.js';
import { key, nameAt, type Occurrence } from './contract-index.js';
import { occurrenceLocation, splitText, type FeatureContext } from './context.js';
import { fileUri, location, range, rulePage, span, uriPath } from './convert.js';

/** The skill whose file is being edited (-1: none). */
function skillOf(ctx: FeatureContext): number {
  return ctx.check.files.roles.find((r) => r.path === ctx.path)?.skill ?? -1;
}

/**
 * Where a state is declared: its rows in SKILL.md state models (the edited skill's own first),
 * else the first transition that enters it, else the first that leaves it, else `.loopkit.yaml`.
 */
export function stateDeclarations(ctx: FeatureContext, state: string, skill = -1): Occurrence[] {
  const all = ctx.index.byName.get(key('state', state)) ?? [];
  const declared = all.filter((o) => o.role === 'declared');
  if (declared.length > 0) {
    const own = declared.filter((o) => o.skill === skill);
    return own.length > 0 ? own : declared;
  }
  const entering = ctx.check.graph.in.get(state)?.[0];
  if (entering) return all.filter((o) => o.role === 'to' && o.file === entering.file && o.line === entering.line).slice(0, 1);
  const first = all.find((o) => o.role === 'from') ?? all.find((o) => o.role === 'config');
  return first ? [first] : [];
}

/** The place of a skill: its `name:` in SKILL.md, else the file's start. */
export function skillLocation(ctx: FeatureContext, name: string, memo = new Map<string, readonly string[]>()): Location | null {
  const skill = ctx.index.skills.get(name);
  if (!skill) return null;
  const own = ctx.index.byName.get(key('skill', name))?.find((o) => o.role === 'name');
  return own ? occurrenceLocation(ctx, own, memo) : location(ctx.root, skill.skillFile.path, range(1, 1));
}

/** The link whose destination is under a place of the file, resolved to the file (and heading) it leads to. */
function linkTarget(ctx: FeatureContext, line: number, column: number): Location | null {
  const model = ctx.check.files.markdown.get(ctx.path)?.facts.file;
  const link = model?.localLinks.find((l) => l.line === line && column >= l.column && column <= l.column + l.url.length);
  if (!link) return null;
  const role = ctx.check.files.roles.find((r) => r.path === ctx.path);
  const skillDir = role && role.skill >= 0 ? ctx.check.project.skills[role.skill]!.dir : posix.dirname(ctx.path);
  const places = linkPlaces(link.path, link.fromSkillDir === true, ctx.path, skillDir);
  const place = places.find((p) => existsSync(join(ctx.root, p)));
  if (place === undefined) return null;
  let at = 1;
  if (link.anchor !== undefined) {
    const target = place === ctx.path ? ctx.lines.join('\n') : (ctx.text(place) ?? '');
    at = headingLine(splitText(target), link.anchor) ?? 1;
  }
  return location(ctx.root, place, range(at, 1));
}

/** The line of the heading whose anchor (GitHub's slug, `-1`, `-2` … for repeats, or `{#id}`) is `anchor`. */
function headingLine(lines: readonly string[], anchor: string): number | null {
  // GitHub's slugs, as parse/links.ts's anchors() makes them: a repeated heading gets -1, -2 …
  const slugger = new GithubSlugger();
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const f = /^\s{0,3}(`{3,}|~{3,})/u.exec(text);
    if (f) {
      if (fence === null) fence = f[1]!;
      else if (f[1]!.startsWith(fence)) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/u.exec(text);
    if (!h) continue;
    const title = h[1]!;
    if (new RegExp(`\\{#${anchor.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}\\}`, 'u').test(title)) return i + 1;
    const slug = slugger.slug(
      title
        .replace(/\s*\{[#.][^}]*\}\s*$/u, '')
        .replace(/[*_`]/gu, '')
        .trim(),
    );
    if (slug === anchor) return i + 1;
  }
  return null;
}

export function definition(ctx: FeatureContext, line: number, column: number): Location[] | null {
  const link = linkTarget(ctx, line, column);
  if (link) return [link];
  const o = nameAt(ctx.index, ctx.path, ctx.lines, line, column);
  if (!o) return null;
  const memo = new Map<string, readonly string[]>();
  if (o.kind === 'state') {
    const found = stateDeclarations(ctx, o.name, skillOf(ctx)).map((d) => occurrenceLocation(ctx, d, memo));
    return found.length > 0 ? found : null;
  }
  if (o.kind === 'skill') {
    const at = skillLocation(ctx, o.name, memo);
    return at ? [at] : null;
  }
  if (o.kind === 'agent') {
    // the agent's file: at its `name:` (Claude Code), else its first line (OpenCode names an agent by its file)
    const agent = ctx.index.agents.get(o.name);
    if (!agent) return null;
    const named = (ctx.index.byName.get(key('agent', o.name)) ?? []).find((x) => x.role === 'name');
    return [named ? occurrenceLocation(ctx, named, memo) : location(ctx.root, agent.file, range(1, 1))];
  }
  if (o.kind === 'halt') {
    const declared = (ctx.index.byName.get(key('halt', o.name)) ?? []).filter((x) => x.role === 'config');
    return declared.length > 0 ? declared.map((d) => occurrenceLocation(ctx, d, memo)) : null;
  }
  const page = rulePage(o.name);
  const abs = page === null ? null : uriPath(page);
  return abs === null ? null : [{ uri: page!, range: range(1, 1) }];
}

export function references(ctx: FeatureContext, line: number, column: number, includeDeclaration: boolean): Location[] | null {
  const o = nameAt(ctx.index, ctx.path, ctx.lines, line, column);
  if (!o) return null;
  const memo = new Map<string, readonly string[]>();
  const all = ctx.index.byName.get(key(o.kind, o.name)) ?? [];
  const out = all
    .filter((x) => includeDeclaration || (x.role !== 'declared' && x.role !== 'name'))
    .map((x) => occurrenceLocation(ctx, x, memo));
  if (includeDeclaration && o.kind === 'skill' && !all.some((x) => x.role === 'name')) {
    const at = skillLocation(ctx, o.name, memo);
    if (at) out.unshift(at);
  }
  return out;
}

export function highlights(ctx: FeatureContext, line: number, column: number): DocumentHighlight[] | null {
  const o = nameAt(ctx.index, ctx.path, ctx.lines, line, column);
  if (!o) return null;
  const memo = new Map<string, readonly string[]>();
  return (ctx.index.byName.get(key(o.kind, o.name)) ?? [])
    .filter((x) => x.file === ctx.path)
    .map((x) => ({
      range: occurrenceLocation(ctx, x, memo).range,
      kind: x.role === 'declared' || x.role === 'name' || x.role === 'to' ? DocumentHighlightKind.Write : DocumentHighlightKind.Read,
    }));
}

/** The lines a transition's block takes (its line to its last directive). */
function transitionEnd(t: Transition): number {
  return Math.max(t.line, t.trigger?.line ?? 0, t.handoff?.line ?? 0, t.halt?.line ?? 0);
}

function transitionSymbol(ctx: FeatureContext, t: Transition): DocumentSymbol {
  const detail = [
    t.trigger ? `trigger ${t.trigger.text}` : '',
    t.handoff ? `handoff ${t.handoff.skill} to ${t.handoff.agent}` : '',
    t.halt ? `halt ${t.halt.reason}${t.halt.after === null ? '' : ` after ${t.halt.after}`}` : '',
  ]
    .filter((s) => s !== '')
    .join(' · ');
  const end = transitionEnd(t);
  const sym: DocumentSymbol = {
    name: `${t.from} → ${t.to}`,
    kind: SymbolKind.Event,
    range: { start: { line: t.line - 1, character: 0 }, end: { line: end - 1, character: (ctx.lines[end - 1] ?? '').length } },
    selectionRange: span(t.line, t.fromColumn, Math.max(1, t.toColumn - t.fromColumn + t.to.length)),
  };
  if (detail !== '') sym.detail = detail;
  return sym;
}

function sectionSymbol(ctx: FeatureContext, s: Section, children: DocumentSymbol[]): DocumentSymbol {
  return {
    name: s.title === '' ? '(untitled)' : s.title,
    kind: SymbolKind.Namespace,
    range: { start: { line: s.line - 1, character: 0 }, end: { line: s.endLine - 1, character: (ctx.lines[s.endLine - 1] ?? '').length } },
    selectionRange: span(s.line, s.column, (ctx.lines[s.line - 1] ?? '').length - s.column + 1),
    children,
  };
}

/** Sections with the symbols that lie in them; those before the first section stay at the top. */
function nest(ctx: FeatureContext, sections: readonly Section[], items: { line: number; symbol: DocumentSymbol }[]): DocumentSymbol[] {
  const top: DocumentSymbol[] = [];
  const bySection = sections.map((s) => sectionSymbol(ctx, s, []));
  for (const item of items) {
    const i = sections.findIndex((s) => item.line >= s.line && item.line <= s.endLine);
    if (i >= 0) bySection[i]!.children!.push(item.symbol);
    else top.push(item.symbol);
  }
  return [...top, ...bySection].sort((a, b) => a.range.start.line - b.range.start.line);
}

export function documentSymbols(ctx: FeatureContext): DocumentSymbol[] {
  const role = ctx.check.files.roles.find((r) => r.path === ctx.path);
  if (!role || role.skill < 0) return [];
  const skill = ctx.check.project.skills[role.skill]!;
  if (role.kind === 'loop' && skill.loop) {
    return nest(
      ctx,
      skill.loop.sections.filter((s) => s.depth === 2),
      skill.loop.transitions.map((t) => ({ line: t.line, symbol: transitionSymbol(ctx, t) })),
    );
  }
  if (role.kind === 'handoffs' && skill.legacyHandoffs) return skill.legacyHandoffs.transitions.map((t) => transitionSymbol(ctx, t));
  if (role.kind !== 'skill') return [];
  const items: { line: number; symbol: DocumentSymbol }[] = [];
  const fm = skill.frontmatter;
  if (fm) {
    const end = fm.endLine ?? fm.line;
    items.push({
      line: fm.line,
      symbol: {
        name: 'frontmatter',
        kind: SymbolKind.Object,
        range: { start: { line: fm.line - 1, character: 0 }, end: { line: end - 1, character: (ctx.lines[end - 1] ?? '').length } },
        selectionRange: span(fm.line, 1, 3),
        children: fm.entries.map((e) => ({
          name: e.key,
          kind: SymbolKind.Property,
          range: span(e.line, e.column, (ctx.lines[e.line - 1] ?? '').length - e.column + 1),
          selectionRange: span(e.line, e.column, e.key.length),
        })),
      },
    });
  }
  const memo = new Map<string, readonly string[]>();
  for (const o of ctx.index.byFile.get(ctx.path) ?? []) {
    if (o.role !== 'declared') continue;
    const r = occurrenceLocation(ctx, o, memo).range;
    items.push({ line: o.line, symbol: { name: o.name, detail: 'state', kind: SymbolKind.EnumMember, range: r, selectionRange: r } });
  }
  return nest(ctx, skill.sections, items);
}

/** Does `query` match `name` as a subsequence of its letters (case-insensitive), as editors filter symbols? */
function matches(name: string, query: string): boolean {
  const n = name.toLowerCase();
  let at = 0;
  for (const ch of query.toLowerCase()) {
    at = n.indexOf(ch, at) + 1;
    if (at === 0) return false;
  }
  return true;
}

/** The project's skills and states that match a query. */
export function workspaceSymbols(ctx: Omit<FeatureContext, 'path' | 'lines' | 'kind'>, query: string, limit = 1000): SymbolInformation[] {
  const out: SymbolInformation[] = [];
  for (const [name, skill] of ctx.index.skills) {
    if (out.length >= limit) break;
    if (!matches(name, query)) continue;
    const own = ctx.index.byName.get(key('skill', name))?.find((o) => o.role === 'name');
    out.push({
      name,
      kind: SymbolKind.Module,
      containerName: 'skill',
      location: { uri: fileUri(ctx.root, skill.skillFile.path), range: range(own?.line ?? 1, 1) },
    });
  }
  const full = { ...ctx, path: '', lines: [], kind: null } as FeatureContext;
  const memo = new Map<string, readonly string[]>();
  for (const state of ctx.index.states) {
    if (out.length >= limit) break;
    if (!matches(state, query)) continue;
    const decl = stateDeclarations(full, state)[0];
    if (!decl) continue;
    out.push({
      name: state,
      kind: SymbolKind.EnumMember,
      containerName: decl.skill >= 0 ? ctx.check.project.skills[decl.skill]!.name : 'state',
      location: occurrenceLocation(full, decl, memo),
    });
  }
  return out;
}
