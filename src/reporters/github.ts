/** GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::message`). */
import type { Diagnostic } from '../engine/diagnostic.js';
import { displayPath } from './paths.js';
import type { Report } from './types.js';

const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProp = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
const LEVEL = { error: 'error', warning: 'warning', info: 'notice' } as const;

/** One problem as a workflow command (one line). */
export function githubAnnotation(d: Diagnostic, root: string): string {
  const props = [`file=${escapeProp(displayPath(root, d.file))}`];
  if (d.line !== null) props.push(`line=${d.line}`, `col=${d.column ?? 1}`);
  props.push(`title=${escapeProp(`loopkit ${d.code}`)}`);
  const text = d.help ? `${d.message}\n${d.help}` : d.message;
  return `::${LEVEL[d.severity]} ${props.join(',')}::${escapeData(text)}`;
}

export function githubReport(result: Report): string {
  const root = result.project.displayRoot;
  const lines = result.diagnostics.map((d) => githubAnnotation(d, root));
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
