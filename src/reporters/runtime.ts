import { compareDiagnostics, type Diagnostic } from '../engine/diagnostic.js';
import type { RuleMeta } from '../engine/rule.js';
import type { Report } from './types.js';

/** A report of a runtime command: its diagnostics in output order, counted. */
export function runtimeReport(
  project: Report['project'],
  diagnostics: Diagnostic[],
  rules: readonly RuleMeta[],
  verifications: number,
  counted: string,
  files: readonly string[],
): Report {
  diagnostics.sort(compareDiagnostics);
  const count = (s: Diagnostic['severity']) => diagnostics.filter((d) => d.severity === s).length;
  return {
    project,
    diagnostics,
    files,
    suppressed: 0,
    verifications,
    errors: count('error'),
    warnings: count('warning'),
    info: count('info'),
    rules,
    counted,
  };
}
