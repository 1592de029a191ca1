/**
 * `loopkit watch` without its printing: a state file followed as the agent rewrites it
 * (state-file-watcher.ts), each version checked against the schema and each move against the
 * combined graph (runtime/state-run.ts), the findings handed on as events the moment they are
 * found, and — with `record` — every version written as a step of a trace, so the run can be
 * replayed with `loopkit trace` or measured with `loopkit coverage`.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Diagnostic } from '../engine/diagnostic.js';
import { UsageError } from '../engine/errors.js';
import type { StateGraph } from '../graph/graph.js';
import { runEnded } from '../graph/moves.js';
import type { CompiledSchema } from '../model/schema.js';
import type { Project, Skill } from '../model/types.js';
import type { DataResult } from '../parse/data.js';
import type { RunStep } from '../runtime/run-judge.js';
import { StateRun } from '../runtime/state-run.js';
import { StateFileWatcher, type WatchState } from './state-file-watcher.js';

export interface WatchContext {
  project: Project;
  graph: StateGraph;
  skill: Skill;
  schema: CompiledSchema;
  /** the state file (as the user named it) */
  file: string;
  /** the state file, project-relative (where problems are reported) */
  path: string;
  /** parse a version (JSON or YAML, by the file's name or the text) */
  parse: (text: string) => Promise<{ format: 'JSON' | 'YAML'; parsed: DataResult }>;
}

export type WatchEvent =
  | {
      type: 'version';
      /** 1 for the first version seen */
      n: number;
      /** the states the run was in before, and is in now ([] when not known) */
      from: readonly string[];
      states: readonly string[];
      /** the version as a step (null: its state could not be read) */
      step: RunStep | null;
      diagnostics: Diagnostic[];
      /** the run is certainly in a terminal or halted state */
      ended: boolean;
    }
  /** a text that did not parse and stayed so */
  | { type: 'broken'; n: number; diagnostics: Diagnostic[] }
  | { type: WatchState; detail?: string }
  | { type: 'error'; message: string };

export interface WatchOptions {
  /** write each version as a step of a trace to this file (created or emptied first) */
  record?: string;
  quietMs?: number;
  settleMs?: number;
  onEvent: (e: WatchEvent) => void;
}

export interface Watch {
  /** versions handled */
  readonly versions: number;
  close(): Promise<void>;
}

/** A step as a line of a trace (`state` a list when the version stood for several states). */
export function traceLine(step: RunStep, event: string): string {
  const state = step.states.length === 1 ? step.states[0] : step.states;
  const line = {
    state,
    ...(step.skill !== undefined ? { skill: step.skill } : {}),
    ...(step.agent !== undefined ? { agent: step.agent } : {}),
    ...(step.iteration !== undefined ? { iteration: step.iteration } : {}),
    event,
  };
  return `${JSON.stringify(line)}\n`;
}

export async function startWatch(ctx: WatchContext, options: WatchOptions): Promise<Watch> {
  let fd: number | null = null;
  if (options.record !== undefined) {
    try {
      fd = openSync(options.record, 'w');
    } catch (e) {
      throw new UsageError(`cannot write --record ${options.record}: ${(e as Error).message}`);
    }
  }
  const run = new StateRun({ project: ctx.project, skill: ctx.skill, schema: ctx.schema, graph: ctx.graph });
  let versions = 0;
  const record = (step: RunStep, n: number) => {
    if (fd === null) return;
    try {
      writeSync(fd, traceLine(step, `version ${n}${step.label !== undefined ? ` (${step.label})` : ''}`));
    } catch (e) {
      options.onEvent({ type: 'error', message: `cannot write --record ${options.record}: ${(e as Error).message}` });
    }
  };
  const watcher = new StateFileWatcher({
    file: ctx.file,
    parse: ctx.parse,
    ...(options.quietMs !== undefined ? { quietMs: options.quietMs } : {}),
    ...(options.settleMs !== undefined ? { settleMs: options.settleMs } : {}),
    onVersion: ({ n, format, parsed }) => {
      versions = n;
      const from = run.states;
      const result = run.version({ file: ctx.path, format, parsed });
      if (result.step) record(result.step, n);
      options.onEvent({
        type: 'version',
        n,
        from,
        states: result.states,
        step: result.step,
        diagnostics: result.diagnostics,
        ended: result.step !== null && runEnded(ctx.graph, result.states),
      });
    },
    onBroken: ({ n, format, parsed }) => {
      versions = n;
      options.onEvent({ type: 'broken', n, diagnostics: run.version({ file: ctx.path, format, parsed }).diagnostics });
    },
    onState: (state, detail) => options.onEvent(detail !== undefined ? { type: state, detail } : { type: state }),
    onError: (e) => options.onEvent({ type: 'error', message: e.message }),
  });
  try {
    await watcher.start();
  } catch (e) {
    // a start that failed leaves nothing running: the state file's watcher and the --record file closed
    await watcher.close().catch(() => undefined);
    if (fd !== null) closeSync(fd);
    throw e;
  }
  return {
    get versions() {
      return versions;
    },
    async close() {
      await watcher.close();
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}
