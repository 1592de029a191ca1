/**
 * `--baseline FILE` / `--update-baseline` / `--no-baseline`: read or write the baseline
 * (engine/baseline.ts). Without `--baseline`, `.loopkit-baseline.json` at the project root is used
 * when it exists.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { CliIo } from './output.js';
import { applyBaseline, baselineText, createBaseline, parseBaseline, type Baseline } from '../engine/baseline.js';
import { UsageError } from '../engine/errors.js';
import type { LintResult } from '../engine/run.js';

export const DEFAULT_BASELINE = '.loopkit-baseline.json';

export interface BaselineOptions {
  /** a file (relative to the working directory), false for --no-baseline, undefined for the default */
  baseline?: string | false;
  updateBaseline?: boolean;
  quiet?: boolean;
}

/** Does this run use a baseline? */
export function wantsBaseline(opts: BaselineOptions, root: string): boolean {
  if (opts.baseline === false) {
    if (opts.updateBaseline) throw new UsageError('--update-baseline and --no-baseline exclude each other');
    return false;
  }
  return opts.baseline !== undefined || opts.updateBaseline === true || existsSync(join(root, DEFAULT_BASELINE));
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function read(file: string, shown: string): Baseline {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read baseline ${shown}: ${(e as Error).message}`);
  }
  try {
    return parseBaseline(text);
  } catch (e) {
    throw new UsageError(`baseline ${shown} is ${(e as Error).message}`);
  }
}

export function withBaseline(result: LintResult, opts: BaselineOptions, io: CliIo): LintResult {
  const explicit = typeof opts.baseline === 'string';
  const file = explicit ? resolve(opts.baseline as string) : join(result.project.root, DEFAULT_BASELINE);
  const shown = relative(process.cwd(), file) || file;
  if (opts.updateBaseline) {
    const old = existsSync(file) ? read(file, shown) : null;
    const baseline = createBaseline(result, old?.problems ?? []);
    try {
      writeFileSync(file, baselineText(baseline));
    } catch (e) {
      throw new UsageError(`cannot write baseline ${shown}: ${(e as Error).message}`);
    }
    const total = baseline.problems.reduce((n, e) => n + e.count, 0);
    io.stderr(`loopkit: baseline ${shown} written: ${plural(total, 'problem')} recorded\n`);
    return applyBaseline(result, baseline).result;
  }
  if (!existsSync(file)) {
    if (explicit) throw new UsageError(`baseline ${shown} not found (write it with --update-baseline)`);
    return result;
  }
  const outcome = applyBaseline(result, read(file, shown));
  if (outcome.stale.length > 0 && !opts.quiet) {
    const gone = outcome.stale.reduce((n, s) => n + s.gone, 0);
    const lines = outcome.stale.map(
      (s) =>
        `  ${s.entry.file}: ${s.entry.code} (${s.entry.element}${s.entry.subject ? `: ${s.entry.subject}` : ''})${s.gone > 1 ? ` ×${s.gone}` : ''}`,
    );
    io.stderr(
      `loopkit: ${plural(gone, 'problem')} of baseline ${shown} no longer occur; --update-baseline removes them:\n${lines.join('\n')}\n`,
    );
  }
  return outcome.result;
}
