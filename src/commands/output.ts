/**
 * What every checking command prints the same way: colour, report formats, where a report goes
 * (`--output-file`, else stdout), what `--quiet` leaves in it, a broken configuration, exit codes.
 */
import { Option, type Command } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../config/errors.js';
import { UsageError } from '../engine/errors.js';
import { FORMATS, renderReport, type Format } from '../reporters/index.js';
import { displayPath } from '../reporters/paths.js';
import type { Report, ReportOptions } from '../reporters/types.js';

/** Where a command writes, and what it knows of its process (the CLI passes the real ones; tests their own). */
export interface CliIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  /** is stdout a terminal? */
  isTTY: boolean;
  /** the process is loopkit's own (bin/loopkit.js): process-wide settings may be tuned for it */
  ownProcess?: boolean;
  /** ask the user a question in the terminal (absent when stdin or stdout is not a terminal) */
  ask?: (question: string) => Promise<string>;
}

/** The output options every checking command takes. */
export interface OutputOptions {
  json?: boolean;
  format?: Format;
  color?: boolean;
  maxWarnings?: string;
  quiet?: boolean;
  outputFile?: string;
  docs?: boolean;
}

/** The output options every checking command takes: format, where the report goes, --quiet, --docs, colour, --max-warnings. */
export function addOutputOptions(cmd: Command): Command {
  return cmd
    .option('--json', 'print the JSON report (same as --format json)')
    .addOption(new Option('-f, --format <format>', 'output format').choices(FORMATS))
    .option('-q, --quiet', 'report errors only (warnings and info are not shown)')
    .option('-o, --output-file <path>', 'write the report to this file instead of stdout')
    .option('--docs', "show each problem's documentation page (text format)")
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

/**
 * Print a report in the chosen format (to --output-file when given; errors only with --quiet); the
 * exit code as for `check` (1 for errors or too many warnings: --quiet hides warnings, they still count).
 * `text` says what the text format leaves out (`hideInfo`: `check` without `--verbose`); the
 * machine formats always hold every finding.
 */
export function printReport(report: Report, opts: OutputOptions, io: CliIo, text: Pick<ReportOptions, 'hideInfo'> = {}): number {
  const limit = maxWarnings(opts.maxWarnings);
  const format = opts.json ? 'json' : (opts.format ?? 'text');
  // a report written to a file is never coloured
  const color = opts.outputFile === undefined && colorEnabled(opts.color, io.env, io.isTTY);
  const shown = opts.quiet ? errorsOnly(report) : report;
  emitReport(renderReport(format, shown, { color, docs: opts.docs === true, ...text }), opts.outputFile, io.stdout);
  if (report.errors > 0) return 1;
  if (limit !== undefined && report.warnings > limit) {
    io.stderr(`loopkit: ${report.warnings} warnings exceed --max-warnings ${limit}\n`);
    return 1;
  }
  return 0;
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

/** `--quiet`: errors only (the warnings and info found are neither shown nor counted in the report). */
export function errorsOnly<R extends Report>(result: R): R {
  return { ...result, diagnostics: result.diagnostics.filter((d) => d.severity === 'error'), warnings: 0, info: 0 };
}

/** Write a report to `file` (relative to the working directory; parent directories are created), or to stdout. */
export function emitReport(text: string, file: string | undefined, stdout: (s: string) => void): void {
  if (file === undefined) {
    stdout(text);
    return;
  }
  const abs = resolve(file);
  try {
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new UsageError(`cannot write --output-file ${file}: ${err.code === 'EISDIR' ? 'it is a directory' : err.message}`);
  }
}
