/** Where a report goes (`--output-file`, else stdout) and what `--quiet` leaves in it. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../engine/errors.js';
import type { LintResult } from '../engine/run.js';

/** `--quiet`: errors only (the warnings and info found are neither shown nor counted in the report). */
export function errorsOnly(result: LintResult): LintResult {
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
