/** The report formats of `loopkit check`, `state` and `trace`, by name. */
import { compactReport } from './compact.js';
import { githubReport } from './github.js';
import { jsonReport } from './json.js';
import { junitReport } from './junit.js';
import { sarifReport } from './sarif.js';
import { textReport } from './text.js';
import type { Report, ReportOptions } from './types.js';

export const FORMATS = ['text', 'json', 'github', 'sarif', 'compact', 'junit'] as const;
export type Format = (typeof FORMATS)[number];

export function renderReport(format: Format, result: Report, options: ReportOptions): string {
  switch (format) {
    case 'json':
      return jsonReport(result);
    case 'github':
      return githubReport(result);
    case 'sarif':
      return sarifReport(result);
    case 'compact':
      return compactReport(result);
    case 'junit':
      return junitReport(result);
    default:
      return textReport(result, options);
  }
}
