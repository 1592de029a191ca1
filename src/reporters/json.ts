/**
 * The JSON report: the reference's shape (skills_checked, verifications, diagnostics with
 * severity/code/message/location/help, summary) plus extra fields (version, root, column, end,
 * skill, related, docs; location.pointer, the JSON pointer of a value in a state file or trace step).
 */
import type { Diagnostic } from '../engine/diagnostic.js';
import { VERSION } from '../version.js';
import { displayPath } from './paths.js';
import type { Report } from './types.js';

const SEVERITY = { error: 'Error', warning: 'Warning', info: 'Info' } as const;

/** One problem as the JSON report writes it. */
export function jsonDiagnostic(d: Diagnostic, root: string): Record<string, unknown> {
  return {
    severity: SEVERITY[d.severity],
    code: d.code,
    message: d.message,
    location: {
      path: displayPath(root, d.file),
      line: d.line,
      column: d.column,
      ...(d.endLine != null ? { endLine: d.endLine, endColumn: d.endColumn ?? null } : {}),
      ...(d.pointer !== undefined ? { pointer: d.pointer } : {}),
    },
    help: d.help,
    ...(d.skill !== undefined ? { skill: d.skill } : {}),
    ...(d.related
      ? {
          related: d.related.map((r) => ({
            message: r.message,
            location: { path: displayPath(root, r.file), line: r.line, column: r.column },
          })),
        }
      : {}),
    docs: `docs/rules/${d.code}.md`,
  };
}

export function jsonReport(result: Report): string {
  const root = result.project.displayRoot;
  const doc = {
    skills_checked: result.project.skills.length,
    verifications: result.verifications,
    diagnostics: result.diagnostics.map((d) => jsonDiagnostic(d, root)),
    summary: {
      errors: result.errors,
      warnings: result.warnings,
      info: result.info,
      verifications: result.verifications,
      suppressed: result.suppressed,
      ...(result.baselined !== undefined ? { baselined: result.baselined } : {}),
    },
    version: VERSION,
    root,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
