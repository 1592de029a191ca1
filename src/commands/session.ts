/**
 * Recorded sessions: the versions of a state file, one file each, in a directory (`01-init.json`,
 * `02-scaffold.json` …; their names sort in the order the agent wrote them, numbers compared as
 * numbers). `loopkit watch --replay` checks them as if the agent had just written them one after
 * another; `loopkit coverage` measures what they exercised.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '../engine/diagnostic.js';
import { UsageError } from '../engine/errors.js';
import type { StateGraph } from '../graph/graph.js';
import type { CompiledSchema } from '../model/schema.js';
import type { Project, Skill } from '../model/types.js';
import { StateRun, type VersionResult } from '../runtime/state-run.js';
import { projectPath } from '../api/project.js';
import { parseStateText, readStateFile, stateFormat } from '../api/state.js';

const byName = new Intl.Collator('en', { numeric: true }).compare;

/** The versions of a session directory, in order: its regular files whose names do not start with a dot. */
export function sessionFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `session not found: ${dir}` : `cannot read session ${dir}: ${(e as Error).message}`);
  }
  const files = names
    .filter((n) => !n.startsWith('.'))
    .sort(byName)
    .map((n) => join(dir, n))
    .filter((f) => statSync(f, { throwIfNoEntry: false })?.isFile() === true);
  if (files.length === 0) throw new UsageError(`session ${dir} is empty: a session is a directory of the versions of a state file`);
  return files;
}

export interface SessionContext {
  project: Project;
  graph: StateGraph;
  skill: Skill;
  schema: CompiledSchema;
}

export interface SessionResult {
  diagnostics: Diagnostic[];
  /** the versions replayed */
  versions: number;
  /** values checked against the schema, over all versions */
  checked: number;
  /** the run, after its last version (what it spent where) */
  run: StateRun;
}

/** Replay a session: every version checked as `watch` checks it; `onVersion` sees each one's result. */
export async function replaySession(
  dir: string,
  ctx: SessionContext,
  onVersion?: (file: string, result: VersionResult) => void,
): Promise<SessionResult> {
  const files = sessionFiles(dir);
  const run = new StateRun(ctx);
  const diagnostics: Diagnostic[] = [];
  let checked = 0;
  for (const file of files) {
    const text = readStateFile(file);
    const format = stateFormat(file, text);
    const result = run.version({ file: projectPath(ctx.project, file), format, parsed: await parseStateText(text, format) });
    diagnostics.push(...result.diagnostics);
    checked += result.checked;
    onVersion?.(file, result);
  }
  diagnostics.push(...run.finish());
  return { diagnostics, versions: files.length, checked, run };
}
