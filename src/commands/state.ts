/**
 * `loopkit state <file> [--skill <name>]`: a runtime state file (JSON or YAML) against the Loop
 * State Schema table of a skill's LOOP.md. Exit codes as for `check`: 0 clean, 1 errors, 2 for a
 * file that cannot be read, an unknown skill, a skill without a schema table, or a broken config.
 * The queries are the API layer's (api/state.ts).
 */
import { checkState } from '../api/state.js';
import { projectFor } from '../api/project.js';
import { runCommand, type CliIo, type OutputOptions } from './output.js';

export interface StateOptions extends OutputOptions {
  skill?: string;
  project?: string;
}

export function runState(file: string, opts: StateOptions, io: CliIo): Promise<number> {
  return runCommand(() => checkState(file, opts), opts.project ?? projectFor(file, undefined, process.cwd()), opts, io);
}
