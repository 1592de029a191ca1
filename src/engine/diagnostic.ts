/** What a check reports. Positions are 1-based; `file` is project-relative with `/` separators. */

export type Severity = 'error' | 'warning' | 'info';

export interface Related {
  message: string;
  file: string;
  line: number | null;
  column: number | null;
  /** the place is step `step` (1-based) of a witness run: the proof of a graph problem, in order */
  step?: number;
}

export interface Diagnostic {
  code: string;
  severity: Severity;
  message: string;
  /** what to do about it ('' when there is nothing to add) */
  help: string;
  /** project-relative path of the file (or directory) the problem is in */
  file: string;
  line: number | null;
  column: number | null;
  endLine?: number | null;
  endColumn?: number | null;
  /** the skill the problem belongs to, when there is one */
  skill?: string;
  /** other places that explain the problem (e.g. the transitions of a witness path) */
  related?: Related[];
  /** the states of the transition graph the problem is about (graph pictures mark them) */
  states?: readonly string[];
  /** the JSON pointer of the value the problem is about, in a data file (a state file, a trace step) */
  pointer?: string;
  /** which message template of the rule fired (for tests; not part of the reports) */
  messageId?: string;
  /** the contract element the rule says the problem is about (for the baseline; not part of the reports) */
  element?: string;
  /** the values filled into the message template (for --fix; not part of the reports) */
  data?: Readonly<Record<string, string | number>>;
}

/** Fill `{name}` placeholders. Unknown placeholders are left as written. */
export function interpolate(template: string, data: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in data ? String(data[k]) : m));
}

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

function cmp(a: string | number | null | undefined, b: string | number | null | undefined): number {
  const x = a ?? -1;
  const y = b ?? -1;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The one output order: file, line, column, severity, code. Ties keep the order in which the rule
 * reported them (the sort is stable and rules run in a fixed order), e.g. missing sections in
 * canonical order.
 */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    cmp(a.file, b.file) ||
    cmp(a.line, b.line) ||
    cmp(a.column, b.column) ||
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    cmp(a.code, b.code)
  );
}
