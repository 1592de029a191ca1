/**
 * Baseline: the problems a project has today, recorded so that only new ones fail a run.
 *
 * A problem is recorded by its code, its file and the contract element it is about — the
 * transition, the section, the frontmatter or configuration key — plus the names its message
 * quotes (`'stalled'`, `'## Rules'`), never by line: edits elsewhere in the file keep the baseline
 * valid. Each key has a count. A run that finds more problems of a key than recorded reports the
 * extra ones (the last in output order); recorded problems that are gone are stale entries.
 */
import type { Project, Section, Transition } from '../model/types.js';
import type { Diagnostic } from './diagnostic.js';
import type { LintResult } from './run.js';

export interface BaselineEntry {
  code: string;
  /** project-relative path */
  file: string;
  /** the contract element: `transition a → b`, `section Title`, `key name`, `frontmatter`, `body`, `config key`, `file` */
  element: string;
  /** the names the message quotes, joined (may be '') */
  subject: string;
  count: number;
  /** the message of the first problem, for people reading the file (not matched) */
  message: string;
}

export interface Baseline {
  version: 1;
  problems: BaselineEntry[];
}

/** What a baseline is applied to: a check's problems, the rules that ran and the project (a LintResult, a session's check). */
export type Checked = Pick<LintResult, 'project' | 'diagnostics' | 'rules' | 'errors' | 'warnings' | 'info'> & { baselined?: number };

export interface BaselineOutcome<R extends Checked = LintResult> {
  result: R;
  /** problems the baseline matched (not reported) */
  matched: number;
  /** recorded problems that no longer occur: the entry, and how many of its count are gone */
  stale: { entry: BaselineEntry; gone: number }[];
}

const inLines = (line: number, from: number, to: number) => line >= from && line <= to;

function transitionAt(transitions: readonly Transition[], line: number): Transition | undefined {
  return transitions.find((t) => t.line === line || t.trigger?.line === line || t.handoff?.line === line || t.halt?.line === line);
}

function sectionAt(sections: readonly Section[], line: number): Section | undefined {
  let found: Section | undefined;
  for (const s of sections) if (inLines(line, s.line, s.endLine)) found = s;
  return found;
}

/** The configuration key written at a line (the deepest), list items named by their `name`/`path`. */
function configKeyAt(project: Project, line: number): string | undefined {
  let best: string | undefined;
  for (const [path, pos] of project.configPositions) {
    if (pos.line !== line) continue;
    if (best === undefined || path.split('.').length > best.split('.').length) best = path;
  }
  if (best === undefined) return undefined;
  const parts = best.split('.');
  const out: string[] = [];
  let value: unknown = project.config;
  for (const p of parts) {
    const item = Array.isArray(value) && /^\d+$/u.test(p) ? (value[Number(p)] as unknown) : undefined;
    const named =
      item && typeof item === 'object'
        ? ((item as { name?: unknown; path?: unknown }).name ?? (item as { path?: unknown }).path)
        : undefined;
    out.push(typeof named === 'string' ? `[${named}]` : p);
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[p] : undefined;
  }
  return out.join('.').replace(/\.\[/gu, '[');
}

/** The contract element a problem is about (see the module comment). */
export function contractElement(d: Diagnostic, project: Project): string {
  if (d.element !== undefined) return d.element;
  const line = d.line;
  if (line === null) return 'file';
  if (project.configFile !== null && d.file === project.configFile) {
    const key = configKeyAt(project, line);
    return key === undefined ? 'config' : `key ${key}`;
  }
  for (const skill of project.skills) {
    if (skill.loop && d.file === skill.loop.file.path) {
      const t = transitionAt(skill.loop.transitions, line);
      if (t) return `transition ${t.from} → ${t.to}`;
      const s = sectionAt(skill.loop.sections, line);
      return s ? `section ${s.title}` : 'preamble';
    }
    if (skill.legacyHandoffs && d.file === skill.legacyHandoffs.file.path) {
      const t = transitionAt(skill.legacyHandoffs.transitions, line);
      return t ? `transition ${t.from} → ${t.to}` : 'file';
    }
    if (d.file === skill.skillFile.path) {
      const fm = skill.frontmatter;
      if (fm) {
        const keys = [...fm.nested, ...fm.entries].filter((e) => e.line === line);
        const deepest = keys.sort((a, b) => b.path.length - a.path.length)[0];
        if (deepest) return `key ${deepest.key}`;
        if (inLines(line, fm.line, fm.endLine ?? fm.line)) return 'frontmatter';
      }
      const s = sectionAt(skill.sections, line);
      return s ? `section ${s.title}` : 'body';
    }
  }
  return 'file';
}

/** The names a message quotes in single quotes, in order. */
export function messageSubject(message: string): string {
  return [...message.matchAll(/'([^'\n]+)'/gu)].map((m) => m[1]).join(' ');
}

const keyOf = (e: { code: string; file: string; element: string; subject: string }) =>
  `${e.code}\u0000${e.file}\u0000${e.element}\u0000${e.subject}`;

/** The baseline of a result's problems; entries of `keep` whose codes did not run are kept as they are. */
export function createBaseline(result: LintResult, keep: readonly BaselineEntry[] = []): Baseline {
  const ran = new Set(result.rules.map((r) => r.code));
  const byKey = new Map<string, BaselineEntry>();
  for (const e of keep) if (!ran.has(e.code)) byKey.set(keyOf(e), { ...e });
  for (const d of result.diagnostics) {
    const e = { code: d.code, file: d.file, element: contractElement(d, result.project), subject: messageSubject(d.message) };
    const k = keyOf(e);
    const have = byKey.get(k);
    if (have && ran.has(d.code)) have.count++;
    else byKey.set(k, { ...e, count: 1, message: d.message });
  }
  const problems = [...byKey.values()].sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) ||
      (a.element < b.element ? -1 : a.element > b.element ? 1 : 0) ||
      (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0),
  );
  return { version: 1, problems };
}

/** The result without the problems the baseline records; what the baseline records but the run did not find. */
export function applyBaseline<R extends Checked>(result: R, baseline: Baseline): BaselineOutcome<R> {
  const ran = new Set(result.rules.map((r) => r.code));
  const left = new Map<string, { entry: BaselineEntry; left: number }>();
  for (const e of baseline.problems) {
    const k = keyOf(e);
    const have = left.get(k);
    if (have) have.left += e.count;
    else left.set(k, { entry: e, left: e.count });
  }
  const kept: Diagnostic[] = [];
  let matched = 0;
  for (const d of result.diagnostics) {
    const slot = left.get(
      keyOf({ code: d.code, file: d.file, element: contractElement(d, result.project), subject: messageSubject(d.message) }),
    );
    if (slot && slot.left > 0) {
      slot.left--;
      matched++;
    } else kept.push(d);
  }
  const stale = [...left.values()].filter((s) => s.left > 0 && ran.has(s.entry.code)).map((s) => ({ entry: s.entry, gone: s.left }));
  const count = (sev: Diagnostic['severity']) => kept.filter((d) => d.severity === sev).length;
  return {
    result: { ...result, diagnostics: kept, errors: count('error'), warnings: count('warning'), info: count('info'), baselined: matched },
    matched,
    stale,
  };
}

/** A baseline read from JSON text; throws an Error saying what is wrong. */
export function parseBaseline(text: string): Baseline {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new Error(`not valid JSON (${(e as Error).message})`, { cause: e });
  }
  const doc = data as { version?: unknown; problems?: unknown };
  if (!doc || typeof doc !== 'object' || doc.version !== 1 || !Array.isArray(doc.problems)) {
    throw new Error('not a loopkit baseline (expected {"version": 1, "problems": [...]})');
  }
  doc.problems.forEach((p: unknown, i) => {
    const e = p as Partial<BaselineEntry>;
    const ok =
      e &&
      typeof e.code === 'string' &&
      typeof e.file === 'string' &&
      typeof e.element === 'string' &&
      typeof e.subject === 'string' &&
      typeof e.count === 'number' &&
      Number.isInteger(e.count) &&
      e.count > 0;
    if (!ok) throw new Error(`problems[${i}] needs code, file, element, subject (strings) and count (a whole number above 0)`);
  });
  return {
    version: 1,
    problems: (doc.problems as BaselineEntry[]).map((e) => ({ ...e, message: typeof e.message === 'string' ? e.message : '' })),
  };
}

export function baselineText(b: Baseline): string {
  return `${JSON.stringify(b, null, 2)}\n`;
}
