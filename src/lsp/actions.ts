/**
 * Code actions on loopkit's diagnostics: every `--fix` repair as a quick fix (one problem, or all
 * of a file's), "did you mean" replacements, and "disable this rule on this line" — a suppression
 * comment with a place for the reason, written where it keeps the markdown's structure (in the
 * frontmatter as a YAML comment, in a list at the item's indentation, around a table as a range).
 */
import { CodeActionKind, type CodeAction, type Diagnostic as LspDiagnostic, type Range, type TextEdit } from 'vscode-languageserver';
import type { Diagnostic } from '../engine/diagnostic.js';
import { fixText, repairable } from '../api/engine.js';
import { minimalEdit } from '../util/edits.js';
import { lineStarts, positionAt } from '../util/text.js';
import { wordAt } from './contract-index.js';
import type { FeatureContext } from './context.js';
import { position } from './convert.js';

/** What the user is asked to replace in an inserted suppression comment. */
export const REASON_PLACEHOLDER = '<reason>';

export interface ActionRequest {
  uri: string;
  /** 0-based lines of the request's range */
  fromLine: number;
  toLine: number;
  /** the diagnostics the client sent (to link each action to its diagnostic) */
  diagnostics: readonly LspDiagnostic[];
  /** the kinds the client asked for (empty: all) */
  only: readonly string[];
}

const FIX_ALL = `${CodeActionKind.SourceFixAll}.loopkit`;

/** The edit that turns `before` into `after`, in the protocol's terms. */
function textEdit(before: string, after: string): TextEdit | null {
  const e = minimalEdit(before, after);
  if (e === null) return null;
  const starts = lineStarts(before);
  const at = (offset: number) => {
    const p = positionAt(starts, offset);
    return position(p.line, p.column);
  };
  return { range: { start: at(e.start), end: at(e.end) }, newText: e.text };
}

function matching(req: ActionRequest, d: Diagnostic): LspDiagnostic[] {
  return req.diagnostics.filter((x) => x.code === d.code && x.range.start.line === position(d.line, d.column).line);
}

/** The replacement a message proposes for the name at the diagnostic's place ("… 'tpyo'; did you mean 'typo'?"). */
function suggestion(ctx: FeatureContext, d: Diagnostic): { range: Range; text: string } | null {
  if (d.line === null) return null;
  const m = /did you mean [`'"]([^`'"\s]+)[`'"]/iu.exec(`${d.message}\n${d.help}`);
  if (!m) return null;
  const lineText = ctx.lines[d.line - 1] ?? '';
  const w = wordAt(lineText, d.column ?? 1) ?? wordAt(lineText, (d.column ?? 1) + 1);
  if (!w || w.word === m[1]) return null;
  // only the name the message quotes as the wrong one
  const quoted = new RegExp(`[\`'"]${w.word.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}[\`'"]`, 'u');
  if (!quoted.test(d.message)) return null;
  return {
    range: { start: { line: d.line - 1, character: w.column - 1 }, end: { line: d.line - 1, character: w.column - 1 + w.word.length } },
    text: m[1]!,
  };
}

/** The 0-based line where the frontmatter closes (null: no frontmatter). */
function frontmatterEnd(lines: readonly string[]): number | null {
  if (lines[0]?.trimEnd() !== '---') return null;
  for (let i = 1; i < lines.length; i++) if (/^(?:---|\.\.\.)\s*$/u.test(lines[i]!)) return i;
  return null;
}

// the codes as the parser reads them (words up to ` -- `; a plugin's `<name>/<rule>` is one), never the comment's `-->`
const NEXT_LINE = /^(\s*(?:<!--|#)\s*loopkit-disable-next-line)((?:\s+[^\s,>-](?:[^\s,>-]|-(?!->))*,?)*)(.*)$/u;

/** The edits that silence `code` on a 0-based line. */
function suppressionEdits(ctx: FeatureContext, code: string, line: number): TextEdit[] | null {
  const { lines } = ctx;
  const text = lines[line];
  if (text === undefined) return null;
  const fmEnd = frontmatterEnd(lines);
  const inFrontmatter = fmEnd !== null && line > 0 && line <= fmEnd;
  if (fmEnd !== null && line === 0) return null;
  // a suppression comment right above: add the code to it
  const above = line > 0 ? NEXT_LINE.exec(lines[line - 1]!) : null;
  if (above) {
    const listed = above[2]!;
    const at = { line: line - 1, character: above[1]!.length + listed.length };
    // after a code a comma first; after none, or after a list that ends in one, a space
    return [{ range: { start: at, end: at }, newText: /^\s*$|,\s*$/u.test(listed) ? ` ${code}` : `, ${code}` }];
  }
  const indent = /^\s*/u.exec(text)![0];
  if (inFrontmatter) {
    return [
      {
        range: { start: { line, character: 0 }, end: { line, character: 0 } },
        newText: `${indent}# loopkit-disable-next-line ${code} -- ${REASON_PLACEHOLDER}\n`,
      },
    ];
  }
  // a table row below the header: a comment between rows would end the table, so the table is wrapped
  if (/^\s*\|/u.test(text) && line > 0 && /^\s*\|/u.test(lines[line - 1]!)) {
    let first = line;
    while (first > 0 && /^\s*\|/u.test(lines[first - 1]!)) first--;
    let last = line;
    while (last + 1 < lines.length && /^\s*\|/u.test(lines[last + 1]!)) last++;
    const afterLast = { line: last, character: lines[last]!.length };
    return [
      {
        range: { start: { line: first, character: 0 }, end: { line: first, character: 0 } },
        newText: `<!-- loopkit-disable ${code} -- ${REASON_PLACEHOLDER} -->\n`,
      },
      { range: { start: afterLast, end: afterLast }, newText: `\n<!-- loopkit-enable ${code} -->` },
    ];
  }
  // a list item after another: the comment goes at the item's content indentation, inside the list
  const item = /^(\s*)(?:[-*+]|\d{1,9}[.)])\s+/u.exec(text);
  const previous = line > 0 ? lines[line - 1]! : '';
  const inList = item !== null && previous.trim() !== '' && (/^\s*(?:[-*+]|\d{1,9}[.)])\s/u.test(previous) || /^\s+\S/u.test(previous));
  const at = inList ? ' '.repeat(item![0].length) : indent;
  return [
    {
      range: { start: { line, character: 0 }, end: { line, character: 0 } },
      newText: `${at}<!-- loopkit-disable-next-line ${code} -- ${REASON_PLACEHOLDER} -->\n`,
    },
  ];
}

export async function codeActions(ctx: FeatureContext, req: ActionRequest, diagnostics: readonly Diagnostic[]): Promise<CodeAction[]> {
  const wants = (kind: string) => req.only.length === 0 || req.only.some((k) => kind === k || kind.startsWith(`${k}.`));
  const out: CodeAction[] = [];
  const inFile = diagnostics.filter((d) => d.file === ctx.path);
  const text = ctx.source;
  const config = ctx.check.project.config;
  const rules = ctx.check.ruleSet;
  const edit = (edits: TextEdit[]) => ({ changes: { [req.uri]: edits } });
  const markdown = ctx.kind !== null && ctx.kind !== 'config' && ctx.kind !== 'script';

  if (wants(CodeActionKind.QuickFix)) {
    for (const d of inFile) {
      const line = d.line === null ? 0 : d.line - 1;
      if (line < req.fromLine || line > req.toLine) continue;
      const linked = matching(req, d);
      if (repairable(d, rules)) {
        const fixed = await fixText(ctx.path, text, [d], config, rules);
        const e = fixed === null ? null : textEdit(text, fixed);
        if (e)
          out.push({ title: `Fix: ${d.message}`, kind: CodeActionKind.QuickFix, diagnostics: linked, isPreferred: true, edit: edit([e]) });
      }
      const s = suggestion(ctx, d);
      if (s)
        out.push({
          title: `Change to '${s.text}'`,
          kind: CodeActionKind.QuickFix,
          diagnostics: linked,
          isPreferred: !repairable(d, rules),
          edit: edit([{ range: s.range, newText: s.text }]),
        });
      if (markdown && d.line !== null) {
        const edits = suppressionEdits(ctx, d.code, line);
        if (edits)
          out.push({ title: `Disable ${d.code} for this line`, kind: CodeActionKind.QuickFix, diagnostics: linked, edit: edit(edits) });
        // for the whole file: a `loopkit-disable` at the top of the body (it covers what follows it, so not the frontmatter)
        const top = (frontmatterEnd(ctx.lines) ?? -1) + 1;
        if (line >= top) {
          const at = { line: top, character: 0 };
          out.push({
            title: `Disable ${d.code} for this file`,
            kind: CodeActionKind.QuickFix,
            diagnostics: linked,
            edit: edit([{ range: { start: at, end: at }, newText: `<!-- loopkit-disable ${d.code} -- ${REASON_PLACEHOLDER} -->\n` }]),
          });
        }
      }
    }
  }
  const repairables = inFile.filter((d) => repairable(d, rules));
  // offered whenever --fix repairs something here (as ESLint's "fix all auto-fixable problems"), and when asked for by kind
  if (repairables.length > 0 && wants(FIX_ALL)) {
    const fixed = await fixText(ctx.path, text, repairables, config, rules);
    const e = fixed === null ? null : textEdit(text, fixed);
    if (e) out.push({ title: 'Fix all loopkit problems that --fix repairs in this file', kind: FIX_ALL, edit: edit([e]) });
  }
  return out;
}
