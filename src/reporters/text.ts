/**
 * The terminal report: problems grouped by file (a header line per file), one line per problem
 * starting with `file:line:col`, then severity, message and code; the hint and any related places
 * under it; then a one-line summary.
 */
import { Chalk, type ChalkInstance } from 'chalk';
import type { Diagnostic } from '../engine/diagnostic.js';
import { ruleDocsPath } from './docs.js';
import { displayPath } from './paths.js';
import type { Report, ReportOptions } from './types.js';
import { escapeControls } from '../util/text.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A checked project's text for the terminal: never an escape sequence it would obey (a message keeps its line breaks). */
const safe = (text: string) => escapeControls(text, '\n');

export function location(root: string, d: { file: string; line: number | null; column: number | null }): string {
  const p = escapeControls(displayPath(root, d.file));
  if (d.line === null) return p;
  return `${p}:${d.line}:${d.column ?? 1}`;
}

/** The lines of one problem: `file:line:col: severity: message  [code]`, then its hint, related places and (with `docs`) its page. */
export function diagnosticLines(d: Diagnostic, root: string, c: ChalkInstance, docs: boolean): string[] {
  const sev = d.severity === 'error' ? c.red('error') : d.severity === 'warning' ? c.yellow('warning') : c.blue('info');
  const out = [`${location(root, d)}: ${sev}: ${safe(d.message).replace(/\n/g, '\n    ')}  ${c.dim(`[${d.code}]`)}`];
  if (d.help) out.push(c.dim(`    hint: ${safe(d.help).replace(/\n/g, '\n          ')}`));
  for (const r of d.related ?? []) out.push(c.dim(`    at ${location(root, r)}: ${escapeControls(r.message)}`));
  // a plugin's code (`<plugin>/<rule>`) has its page where the plugin says: `explain` shows it
  if (docs && d.code !== 'internal-error')
    out.push(
      c.dim(d.code.includes('/') ? `    docs: loopkit explain ${d.code}` : `    docs: ${ruleDocsPath(d.code)} · loopkit explain ${d.code}`),
    );
  return out;
}

/** The summary line: PASS or FAIL, the counts, and what was checked. */
export function summaryLine(
  c: ChalkInstance,
  counts: { errors: number; warnings: number; info: number },
  counted: string,
  notes = '',
): string {
  const status = counts.errors > 0 ? c.bold.red('FAIL') : c.bold.green('PASS');
  const line = [
    counts.errors > 0 ? c.red(plural(counts.errors, 'error')) : plural(counts.errors, 'error'),
    counts.warnings > 0 ? c.yellow(plural(counts.warnings, 'warning')) : plural(counts.warnings, 'warning'),
    counts.info > 0 ? c.blue(`${counts.info} info`) : `${counts.info} info`,
  ].join(', ');
  return `${status}  ${line}${notes}  ${c.dim('·')}  ${counted}`;
}

export function textReport(result: Report, options: ReportOptions): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const root = result.project.displayRoot;
  const out: string[] = [];
  let current: string | null = null;
  const hidden = options.hideInfo === true ? result.diagnostics.filter((d) => d.severity === 'info').length : 0;
  for (const d of result.diagnostics) {
    if (hidden > 0 && d.severity === 'info') continue;
    if (d.file !== current) {
      if (current !== null) out.push('');
      current = d.file;
      out.push(c.underline(escapeControls(displayPath(root, d.file))));
    }
    out.push(...diagnosticLines(d, root, c, options.docs === true));
  }
  if (out.length > 0) out.push('');
  const notes = [result.suppressed > 0 ? `${result.suppressed} suppressed` : '', result.baselined ? `${result.baselined} in baseline` : ''];
  // the info findings left out are counted in the line, which says how to see them
  const shown = [hidden > 0 ? 'not shown: run with --verbose to see them' : '', notes.filter(Boolean).join(', ')].filter(Boolean);
  const suppressed = shown.length > 0 ? c.dim(` (${shown.join('; ')})`) : '';
  const counted = result.counted ?? `${plural(result.project.skills.length, 'skill')}, ${plural(result.verifications, 'verification')}`;
  out.push(summaryLine(c, result, counted, suppressed));
  return `${out.join('\n')}\n`;
}
