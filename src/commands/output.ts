/** What every command prints the same way: colour, report formats, a broken configuration, exit codes. */
import { Option, type Command } from 'commander';
import { ConfigError } from '../config/errors.js';
import { compareDiagnostics, type Diagnostic } from '../engine/diagnostic.js';
import { UsageError } from '../engine/errors.js';
import type { RuleMeta } from '../engine/rule.js';
import { githubReport } from '../reporters/github.js';
import { jsonReport } from '../reporters/json.js';
import { displayPath } from '../reporters/paths.js';
import { sarifReport } from '../reporters/sarif.js';
import { textReport } from '../reporters/text.js';
import type { Report } from '../reporters/types.js';

/** Where a command writes, and what it knows of its process (the CLI passes the real ones; tests their own). */
export interface CliIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  /** is stdout a terminal? */
  isTTY: boolean;
  /** the process is loopkit's own (bin/loopkit.js): process-wide settings may be tuned for it */
  ownProcess?: boolean;
}

export type ReportFormat = 'text' | 'json' | 'github' | 'sarif';

/** The output options every checking command takes. */
export interface OutputOptions {
  json?: boolean;
  format?: ReportFormat;
  color?: boolean;
  maxWarnings?: string;
}

/** The output options every checking command takes: format, colour, --max-warnings. */
export function addOutputOptions(cmd: Command): Command {
  return cmd
    .option('--json', 'print the JSON report (same as --format json)')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json', 'github', 'sarif']))
    .option('--color', 'force coloured output')
    .option('--no-color', 'disable coloured output (also NO_COLOR=1)')
    .option('--max-warnings <n>', 'exit 1 when there are more than n warnings');
}

/** Colour: --color/--no-color, then FORCE_COLOR, then NO_COLOR (non-empty), then TTY detection. */
export function colorEnabled(flag: boolean | undefined, env: CliIo['env'], isTTY: boolean): boolean {
  if (flag !== undefined) return flag;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY && env.TERM !== 'dumb';
}

/** A broken .loopkit.yaml: every issue as `path/.loopkit.yaml:line:col: field: …` on stderr, exit 2. */
export function configFailure(e: unknown, root: string, io: CliIo): number {
  if (!(e instanceof ConfigError)) throw e;
  const shown = e.message.split('\n').map((l) => `  ${displayPath(root, l)}`);
  io.stderr(`loopkit: invalid configuration\n${shown.join('\n')}\n`);
  return 2;
}

/** --max-warnings: a whole number, or undefined when not given. */
export function maxWarnings(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--max-warnings takes a whole number, not '${value}'`);
  return Number(value);
}

/** Print a report in the chosen format; the exit code as for `check` (1 for errors or too many warnings). */
export function printReport(report: Report, opts: OutputOptions, io: CliIo): number {
  const limit = maxWarnings(opts.maxWarnings);
  const format = opts.json ? 'json' : (opts.format ?? 'text');
  if (format === 'json') io.stdout(jsonReport(report));
  else if (format === 'github') io.stdout(githubReport(report));
  else if (format === 'sarif') io.stdout(sarifReport(report));
  else io.stdout(textReport(report, { color: colorEnabled(opts.color, io.env, io.isTTY) }));
  if (report.errors > 0) return 1;
  if (limit !== undefined && report.warnings > limit) {
    io.stderr(`loopkit: ${report.warnings} warnings exceed --max-warnings ${limit}\n`);
    return 1;
  }
  return 0;
}

/** A report of a runtime command: its diagnostics in output order, counted. */
export function runtimeReport(
  project: Report['project'],
  diagnostics: Diagnostic[],
  rules: readonly RuleMeta[],
  verifications: number,
  counted: string,
): Report {
  diagnostics.sort(compareDiagnostics);
  const count = (s: Diagnostic['severity']) => diagnostics.filter((d) => d.severity === s).length;
  return {
    project,
    diagnostics,
    suppressed: 0,
    verifications,
    errors: count('error'),
    warnings: count('warning'),
    info: count('info'),
    rules,
    counted,
  };
}

/** Run a runtime command: print its report, or say why its input cannot be checked (exit 2). */
export async function runCommand(check: () => Promise<Report>, root: string, opts: OutputOptions, io: CliIo): Promise<number> {
  maxWarnings(opts.maxWarnings);
  let report: Report;
  try {
    report = await check();
  } catch (e) {
    return configFailure(e, root, io);
  }
  return printReport(report, opts, io);
}
