import type { LintResult } from '../engine/run.js';

export interface ReportOptions {
  color: boolean;
}

export type Reporter = (result: LintResult, options: ReportOptions) => string;
