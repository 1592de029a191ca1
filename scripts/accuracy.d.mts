/** Types of scripts/accuracy.mjs, for the tests that import it. */
export function readTsv(file: string, columns?: readonly string[]): Record<string, string>[];
export function keyOf(repo: string, file: string, line: string | number | null | undefined, code: string): string;
export function precision(t: { TRUE: number; FALSE: number; BORDERLINE: number }): { precision: number | null; strict: number | null };
/** Where `main` prints and what it runs with; each left out is the process's own. */
export interface AccuracyIo {
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  /** the environment of the loopkit runs */
  env?: Record<string, string | undefined>;
  /** the directory relative paths of the arguments are taken from */
  cwd?: string;
}
/** The script (`node scripts/accuracy.mjs <argv>`) run in this process: its exit code (0, 1, or 2 for a usage error). */
export function main(argv: readonly string[], io?: AccuracyIo): number;
