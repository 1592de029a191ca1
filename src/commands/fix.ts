/** `loopkit check --fix` and `--fix-dry-run`: compute the fixes (engine/fix.ts), then write them or show them as a diff. */
import { writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { CliIo } from './output.js';
import { UsageError } from '../engine/errors.js';
import type { LintResult } from '../engine/run.js';
import { computeFixes, type LintOptions } from '../api/engine.js';
import { displayPath } from '../reporters/paths.js';
import { unifiedDiff } from '../util/diff.js';

export interface FixOutcome {
  /** --fix-dry-run: the exit code (1 when something would be fixed) */
  exitCode?: number;
  /** --fix: the check of the project after the fixes were written */
  result?: LintResult;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The files given on the command line, project-relative (none: the whole project). */
export function namedFiles(paths: readonly string[], root: string, cwd: string): Set<string> | undefined {
  const absRoot = resolve(cwd, root);
  const files = paths.map((p) => relative(absRoot, resolve(cwd, p)).split(sep).join('/')).filter((p) => p !== '');
  return paths.length === 0 || files.length === 0 ? undefined : new Set(files);
}

export async function runFix(
  options: LintOptions,
  files: Set<string> | undefined,
  dryRun: boolean,
  io: CliIo,
  quiet: boolean,
): Promise<FixOutcome> {
  const run = await computeFixes(files ? { ...options, files } : options);
  const root = run.result.project.displayRoot;
  for (const s of run.skipped) io.stderr(`loopkit: not fixed: ${displayPath(root, s.path)}: ${s.reason}\n`);
  const total = run.fixes.reduce((n, f) => n + Object.values(f.fixed).reduce((a, b) => a + b, 0), 0);
  const summary = run.fixes.map((f) => {
    const codes = Object.entries(f.fixed).map(([code, n]) => (n === 1 ? code : `${code} ×${n}`));
    return `  ${displayPath(root, f.path)}: ${codes.join(', ')}`;
  });
  if (dryRun) {
    for (const f of run.fixes) io.stdout(unifiedDiff(f.before, f.after, displayPath(root, f.path)));
    if (run.fixes.length === 0) io.stderr('loopkit: nothing to fix\n');
    else
      io.stderr(
        `loopkit: --fix would fix ${plural(total, 'problem')} in ${plural(run.fixes.length, 'file')} (nothing written):\n${summary.join('\n')}\n`,
      );
    return { exitCode: run.fixes.length > 0 ? 1 : 0 };
  }
  for (const f of run.fixes) {
    try {
      writeFileSync(join(run.result.project.root, f.path), f.after);
    } catch (e) {
      throw new UsageError(`cannot write ${displayPath(root, f.path)}: ${(e as Error).message}`);
    }
  }
  if (run.fixes.length > 0)
    io.stderr(`loopkit: fixed ${plural(total, 'problem')} in ${plural(run.fixes.length, 'file')}:\n${summary.join('\n')}\n`);
  else if (!quiet) io.stderr('loopkit: nothing to fix\n');
  return { result: run.result };
}
