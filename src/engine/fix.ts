/**
 * `--fix`: the mechanical repairs of the rules' fix parts, file by file, checked before anything is
 * written.
 *
 * 1. The project is checked; the problems of fixable rules (after suppressions, severities and
 *    `--rule`) select the files and tell each fix part what to repair.
 * 2. Each such file is fixed in passes: parsed, every fix part with problems in it returns edits for
 *    the text as it is now, the edits that do not conflict are applied, and the next pass starts
 *    from the new text — until no part has edits (at most MAX_PASSES).
 * 3. A fixed file whose syntax reads worse than before (its frontmatter no longer valid YAML, more
 *    LOOP.md lines that do not parse) is left as it was. The project is then checked again with the
 *    fixed texts in place of the files (nothing is written yet); a file whose fixed problems are
 *    not all gone is left as it was too.
 *
 * Nothing here writes: the caller writes the fixed texts (--fix) or shows them (--fix-dry-run).
 */
import { join } from 'node:path';
import type { FileKind } from '../model/types.js';
import { extractFile } from '../parse/extract.js';
import { readText } from '../parse/fs.js';
import { applyEdits, compatibleEdits, type TextEdit } from '../util/edits.js';
import type { Diagnostic } from './diagnostic.js';
import type { FixProblem, Rule } from './rule.js';
import { lint, type LintOptions, type LintResult } from './run.js';

export const MAX_PASSES = 20;

/**
 * Does the fixed text read worse than the original: a frontmatter that was valid YAML no longer
 * is (or is gone), or LOOP.md has more lines that do not parse? Such a fix is undone.
 */
function breaks(path: string, kind: FileKind, before: string, after: string): boolean {
  const a = extractFile(path, kind, before).facts;
  const b = extractFile(path, kind, after).facts;
  if (kind === 'skill') {
    const fa = a.skill?.frontmatter ?? null;
    const fb = b.skill?.frontmatter ?? null;
    if (fa !== null && (fb === null || (fa.endLine !== null && fb.endLine === null))) return true;
    if (fa?.error === undefined && fb?.error !== undefined) return true;
  }
  if (kind === 'loop') return (b.loop?.malformed.length ?? 0) > (a.loop?.malformed.length ?? 0);
  return false;
}

export interface FileFix {
  /** project-relative path */
  path: string;
  before: string;
  after: string;
  /** code → problems fixed */
  fixed: Record<string, number>;
}

export interface FixRun {
  /** the files that change, by path */
  fixes: FileFix[];
  /** files whose fix was undone, and why */
  skipped: { path: string; reason: string }[];
  /** the check of the project as it is after the fixes */
  result: LintResult;
}

export interface FixOptions extends LintOptions {
  /** fix only these files (project-relative); all files when absent */
  files?: ReadonlySet<string>;
}

/** The kind a file has for the fix parts, by its name. */
export function kindOf(path: string): FileKind | null {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (name === 'SKILL.md') return 'skill';
  if (name === 'LOOP.md') return 'loop';
  return null;
}

const fixableBySet = new WeakMap<readonly Rule[], ReadonlyMap<string, Rule>>();

/** The rules of a rule set that have a fix part, by code. */
function fixable(ruleSet: readonly Rule[]): ReadonlyMap<string, Rule> {
  let m = fixableBySet.get(ruleSet);
  if (!m) fixableBySet.set(ruleSet, (m = new Map(ruleSet.filter((r) => r.fix).map((r) => [r.meta.code, r]))));
  return m;
}

/** Is this diagnostic one its rule's fix part repairs (a rule of `ruleSet`)? */
export function repairable(d: Diagnostic, ruleSet: readonly Rule[]): boolean {
  const part = fixable(ruleSet).get(d.code)?.fix;
  if (!part || d.messageId === undefined) return false;
  return part.messages === undefined || (part.messages as readonly string[]).includes(d.messageId);
}

function countByFileCode(diagnostics: readonly Diagnostic[], ruleSet: readonly Rule[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const d of diagnostics) if (repairable(d, ruleSet)) m.set(`${d.file}\u0000${d.code}`, (m.get(`${d.file}\u0000${d.code}`) ?? 0) + 1);
  return m;
}

/** One file through the passes; returns the fixed text and the rules that changed it. */
async function fixFile(
  path: string,
  kind: FileKind,
  text: string,
  problems: ReadonlyMap<Rule, FixProblem<string>[]>,
  config: LintResult['project']['config'],
): Promise<{ text: string; changedBy: Set<string> }> {
  const changedBy = new Set<string>();
  let current = text;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const { source, facts } = extractFile(path, kind, current);
    const proposed: (TextEdit & { code: string })[] = [];
    for (const [rule, list] of problems) {
      const part = rule.fix!;
      if (!part.kinds.includes(kind)) continue;
      const edits = await part.fix({ file: source, kind, facts, config, problems: list });
      for (const e of edits) proposed.push({ ...e, code: rule.meta.code });
    }
    const chosen = compatibleEdits(proposed);
    if (chosen.length === 0) break;
    const next = applyEdits(current, chosen);
    if (next === current) break;
    for (const e of chosen) changedBy.add(e.code);
    current = next;
  }
  return { text: current, changedBy };
}

/** Add a repairable problem to the problems of a file, by the rule that repairs it. */
function addProblem(problems: Map<Rule, FixProblem<string>[]>, d: Diagnostic, ruleSet: readonly Rule[]): void {
  const rule = fixable(ruleSet).get(d.code)!;
  const list = problems.get(rule) ?? [];
  list.push({ messageId: d.messageId!, data: d.data ?? {}, line: d.line, column: d.column });
  problems.set(rule, list);
}

/**
 * One file's text with some of its problems (repairable ones, found in this text) repaired; null
 * when nothing changes or the fix would break the file's syntax. The language server's quick fixes.
 */
export async function fixText(
  path: string,
  text: string,
  diagnostics: readonly Diagnostic[],
  config: LintResult['project']['config'],
  ruleSet: readonly Rule[],
): Promise<string | null> {
  const kind = kindOf(path);
  if (kind === null) return null;
  const problems = new Map<Rule, FixProblem<string>[]>();
  for (const d of diagnostics) if (repairable(d, ruleSet) && d.file === path) addProblem(problems, d, ruleSet);
  if (problems.size === 0) return null;
  const fixed = (await fixFile(path, kind, text, problems, config)).text;
  return fixed === text || breaks(path, kind, text, fixed) ? null : fixed;
}

export async function computeFixes(options: FixOptions): Promise<FixRun> {
  const { files, ...lintOptions } = options;
  const before = await lint(lintOptions);
  const root = before.project.root;
  // the problems to repair, by file and rule
  const byFile = new Map<string, Map<Rule, FixProblem<string>[]>>();
  for (const d of before.diagnostics) {
    if (!repairable(d, options.ruleSet) || (files && !files.has(d.file))) continue;
    let m = byFile.get(d.file);
    if (!m) byFile.set(d.file, (m = new Map()));
    addProblem(m, d, options.ruleSet);
  }
  const candidates = new Map<string, { before: string; after: string; changedBy: Set<string> }>();
  const skipped: FixRun['skipped'] = [];
  for (const [path, problems] of [...byFile].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const kind = kindOf(path);
    if (kind === null) continue;
    const read = readText(join(root, path), root);
    if (!('text' in read)) continue;
    const { text, changedBy } = await fixFile(path, kind, read.text, problems, before.project.config);
    if (text === read.text) continue;
    if (breaks(path, kind, read.text, text)) skipped.push({ path, reason: 'the fix would break the syntax of the file' });
    else candidates.set(path, { before: read.text, after: text, changedBy });
  }

  // check the project with the fixed texts; undo the fixes that did not do what they should
  const beforeCounts = countByFileCode(before.diagnostics, options.ruleSet);
  let after = before;
  // each round undoes at least one file, so this ends
  while (candidates.size > 0) {
    after = await lint({ ...lintOptions, overlay: new Map([...candidates].map(([p, c]) => [p, c.after])) });
    const afterCounts = countByFileCode(after.diagnostics, options.ruleSet);
    let undone = false;
    for (const [path, c] of [...candidates]) {
      const stuck = [...c.changedBy].filter((code) => (afterCounts.get(`${path}\u0000${code}`) ?? 0) > 0);
      if (stuck.length === 0) continue;
      candidates.delete(path);
      skipped.push({ path, reason: `the fix does not remove every ${stuck.join(', ')} problem` });
      undone = true;
    }
    if (!undone) break;
    if (candidates.size === 0) after = before;
  }
  const afterCounts = countByFileCode(after.diagnostics, options.ruleSet);
  const fixes: FileFix[] = [...candidates].map(([path, c]) => {
    const fixed: Record<string, number> = {};
    for (const code of [...c.changedBy].sort()) {
      const n = (beforeCounts.get(`${path}\u0000${code}`) ?? 0) - (afterCounts.get(`${path}\u0000${code}`) ?? 0);
      if (n > 0) fixed[code] = n;
    }
    return { path, before: c.before, after: c.after, fixed };
  });
  return { fixes, skipped, result: after };
}
