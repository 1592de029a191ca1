/**
 * The terminal report: problems grouped by file (a header line per file), one line per problem
 * starting with `file:line:col`, then severity, message and code; the hint and any related places
 * under it; then a one-line summary.
 */
import { Chalk } from 'chalk';
import type { Diagnostic } from '../engine/diagnostic.js';
import { ruleDocsPath } from './docs.js';
import { displayPath } from './paths.js';
import type { Report, ReportOptions } from './types.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function location(root: string, d: { file: string; line: number | null; column: number | null }): string {
  const p = displayPath(root, d.file);
  if (d.line === null) return p;
  return `${p}:${d.line}:${d.column ?? 1}`;
}

export function textReport(result: Report, options: ReportOptions): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const root = result.project.displayRoot;
  const out: string[] = [];
  let current: string | null = null;
  const sev = (d: Diagnostic) =>
    d.severity === 'error' ? c.red('error') : d.severity === 'warning' ? c.yellow('warning') : c.blue('info');
  for (const d of result.diagnostics) {
    if (d.file !== current) {
      if (current !== null) out.push('');
      current = d.file;
      out.push(c.underline(displayPath(root, d.file)));
    }
    const message = d.message.replace(/\n/g, '\n    ');
    out.push(`${location(root, d)}: ${sev(d)}: ${message}  ${c.dim(`[${d.code}]`)}`);
    if (d.help) out.push(c.dim(`    hint: ${d.help.replace(/\n/g, '\n          ')}`));
    for (const r of d.related ?? []) out.push(c.dim(`    at ${location(root, r)}: ${r.message}`));
    if (options.docs && d.code !== 'internal-error') out.push(c.dim(`    docs: ${ruleDocsPath(d.code)} · loopkit explain ${d.code}`));
  }
  if (out.length > 0) out.push('');
  const status = result.errors > 0 ? c.bold.red('FAIL') : c.bold.green('PASS');
  const counts = [
    result.errors > 0 ? c.red(plural(result.errors, 'error')) : plural(result.errors, 'error'),
    result.warnings > 0 ? c.yellow(plural(result.warnings, 'warning')) : plural(result.warnings, 'warning'),
    result.info > 0 ? c.blue(`${result.info} info`) : `${result.info} info`,
  ].join(', ');
  const notes = [result.suppressed > 0 ? `${result.suppressed} suppressed` : '', result.baselined ? `${result.baselined} in baseline` : ''];
  const suppressed = notes.some(Boolean) ? c.dim(` (${notes.filter(Boolean).join(', ')})`) : '';
  const counted = result.counted ?? `${plural(result.project.skills.length, 'skill')}, ${plural(result.verifications, 'verification')}`;
  out.push(`${status}  ${counts}${suppressed}  ${c.dim('·')}  ${counted}`);
  return `${out.join('\n')}\n`;
}
