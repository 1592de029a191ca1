import type { LintResult } from '../engine/run.js';

export interface ReportOptions {
  color: boolean;
  /** text: show each diagnostic's documentation link */
  docs?: boolean;
}

export type Reporter = (result: LintResult, options: ReportOptions) => string;
