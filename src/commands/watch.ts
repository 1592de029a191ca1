/**
 * `loopkit watch <state-file>`: follow an agent's state file as the agent rewrites it; every
 * version is checked against the Loop State Schema and every move against the combined graph, and
 * each finding is printed the moment it is found (text, JSON Lines or GitHub annotations). Runs until
 * Ctrl-C (or, with --until-end, until the run reaches a terminal or halted state); exit 1 when an
 * error was found, else 0. `--record run.jsonl` writes the versions as a trace.
 *
 * `loopkit watch --replay <session>`: the same checks on a recorded session (a directory of the
 * versions of a state file), as one report in any format of `check`.
 *
 * Exit 2 for input that cannot be watched: a missing directory, an unknown skill, a skill without a
 * schema table, a broken config, a --record file that cannot be written.
 */
import { dirname } from 'node:path';
import { UsageError } from '../engine/errors.js';
import { statesText } from '../runtime/run-judge.js';
import { STATE_FILE_CODES, TRACE_CODES } from '../runtime/codes.js';
import { currentStateField } from '../runtime/state-run.js';
import { isDirectory } from '../parse/fs.js';
import type { Report } from '../reporters/types.js';
import { colorEnabled, configFailure, runCommand, type CliIo, type OutputOptions } from './output.js';
import { runtimeReport } from '../reporters/runtime.js';
import { projectFor, projectPath } from '../api/project.js';
import { replaySession } from './session.js';
import { loadStateProject, parseStateText, skillSchema, stateFormat } from '../api/state.js';
import { STREAM_FORMATS, StreamPrinter, type StreamFormat } from './stream.js';
import { untilStopped } from '../util/until-stopped.js';
import type { WatchContext } from '../live/watch.js';

export interface WatchCliOptions extends OutputOptions {
  skill?: string;
  project?: string;
  record?: string;
  replay?: string;
  untilEnd?: boolean;
  settle?: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** --settle: milliseconds, a whole number. */
function settleMs(value: string | undefined): number {
  if (value === undefined) return 2000;
  if (!/^\d{1,7}$/u.test(value)) throw new UsageError(`--settle takes a number of milliseconds, not '${value}'`);
  return Number(value);
}

/** A move as the progress line shows it. */
function moveText(from: readonly string[], to: readonly string[], label: string | undefined): string {
  const now = statesText(to, label).replace(/'/g, '');
  return from.length === 0 ? now : `${statesText(from).replace(/'/g, '')} → ${now}`;
}

/**
 * Check a recorded session (the library entry of `watch --replay`): the report, or a UsageError /
 * ProjectError / ConfigError for input that cannot be checked.
 */
export async function checkSession(dir: string, opts: Pick<WatchCliOptions, 'skill' | 'project'> = {}): Promise<Report> {
  if (!isDirectory(dir)) throw new UsageError(`session not found: ${dir} (a session is a directory of the versions of a state file)`);
  const root = projectFor(dir, opts.project, process.cwd());
  const result = await loadStateProject(root);
  const { skill, schema } = skillSchema(result.project, opts.skill);
  const session = await replaySession(dir, { project: result.project, graph: result.graph, skill, schema });
  const own = result.diagnostics.filter((d) => d.skill === skill.name);
  const counted = `${plural(session.versions, 'version')} checked against the Loop State Schema of ${skill.name} and the contract`;
  return runtimeReport(
    result.project,
    [...own, ...session.diagnostics],
    [...result.rules, ...STATE_FILE_CODES, ...TRACE_CODES],
    session.versions,
    counted,
    [projectPath(result.project, dir)],
  );
}

/**
 * What a live watch of `file` needs: the project's model (its schema tables checked), the skill and
 * its schema, and how a version is parsed. A UsageError / ProjectError / ConfigError for a project
 * or skill that cannot be used.
 */
export async function watchContext(
  file: string,
  opts: Pick<WatchCliOptions, 'skill' | 'project'>,
): Promise<{ result: Awaited<ReturnType<typeof loadStateProject>>; ctx: WatchContext }> {
  const result = await loadStateProject(projectFor(file, opts.project, process.cwd()));
  const { skill, schema } = skillSchema(result.project, opts.skill);
  const ctx: WatchContext = {
    project: result.project,
    graph: result.graph,
    skill,
    schema,
    file,
    path: projectPath(result.project, file),
    parse: async (text) => {
      const format = stateFormat(file, text);
      return { format, parsed: await parseStateText(text, format) };
    },
  };
  return { result, ctx };
}

export async function runWatch(file: string | undefined, opts: WatchCliOptions, io: CliIo): Promise<number> {
  if (opts.replay !== undefined) {
    if (file !== undefined) throw new UsageError('give a state file to watch, or --replay <session>, not both');
    if (opts.record !== undefined || opts.untilEnd) throw new UsageError('--record and --until-end are for a live watch, not --replay');
    const dir = opts.replay;
    return runCommand(() => checkSession(dir, opts), opts.project ?? projectFor(dir, undefined, process.cwd()), opts, io);
  }
  if (file === undefined) throw new UsageError('name the state file to watch (or --replay <session>)');
  const format = (opts.json ? 'json' : (opts.format ?? 'text')) as StreamFormat;
  if (!(STREAM_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(
      `watch prints its findings as they come: --format text, json or github (not ${format}; --replay takes every format)`,
    );
  }
  if (opts.outputFile !== undefined)
    throw new UsageError('watch prints its findings as they come, on stdout: --output-file is for --replay');
  const settle = settleMs(opts.settle);
  if (isDirectory(file)) throw new UsageError(`${file} is a directory: watch a state file (--replay takes a session directory)`);
  if (!isDirectory(dirname(file))) throw new UsageError(`directory not found: ${dirname(file)}`);
  const root = opts.project ?? projectFor(file, undefined, process.cwd());
  let loaded;
  try {
    loaded = await watchContext(file, opts);
  } catch (e) {
    return configFailure(e, root, io);
  }
  const { result, ctx } = loaded;
  const { skill, schema } = ctx;
  const printer = new StreamPrinter(format, result.project.displayRoot, io, {
    color: colorEnabled(opts.color, io.env, io.isTTY),
    quiet: opts.quiet === true,
    docs: opts.docs === true,
  });
  for (const d of result.diagnostics.filter((x) => x.skill === skill.name)) printer.diagnostic(d);
  const shown = file;
  const note = (s: string) => {
    if (!opts.quiet) io.stderr(`loopkit: ${s}\n`);
  };
  if (!currentStateField(schema)) {
    note(
      `the Loop State Schema of ${skill.name} has no top-level field of type state: versions are checked against the schema, moves are not`,
    );
  }
  const { stopped, stop } = untilStopped();
  const { startWatch } = await import('../live/watch.js');
  const watch = await startWatch(ctx, {
    ...(opts.record !== undefined ? { record: opts.record } : {}),
    settleMs: settle,
    onEvent: (e) => {
      switch (e.type) {
        case 'version': {
          const label = e.step?.label;
          const text = e.step ? moveText(e.from, e.states, label) : 'its state could not be read';
          printer.progress(`version ${e.n}: ${text}`, {
            type: 'version',
            version: e.n,
            from: e.from,
            states: e.step ? e.states : null,
            ...(label !== undefined ? { value: label } : {}),
          });
          for (const d of e.diagnostics) printer.diagnostic(d, { version: e.n });
          if (e.ended && opts.untilEnd) stop();
          break;
        }
        case 'broken':
          printer.progress(`version ${e.n}: not valid, and it stayed so`, { type: 'broken', version: e.n });
          for (const d of e.diagnostics) printer.diagnostic(d, { version: e.n });
          break;
        case 'error':
          io.stderr(`loopkit: ${e.message}\n`);
          break;
        default:
          printer.progress(
            e.type === 'waiting'
              ? `waiting for ${shown} to be created`
              : e.type === 'removed'
                ? `${shown} was deleted; waiting for it to come back`
                : e.type === 'incomplete'
                  ? `${shown} is not complete yet (${e.detail ?? ''}); waiting for the rest`
                  : `${shown} cannot be read: ${e.detail ?? ''}`,
            { type: e.type, ...(e.detail !== undefined ? { detail: e.detail } : {}) },
          );
      }
    },
  });
  note(
    `watching ${shown} against the Loop State Schema of ${skill.name} and the contract${opts.record ? `, recording to ${opts.record}` : ''} (Ctrl-C to stop)`,
  );
  await stopped;
  await watch.close();
  return printer.summary(`${plural(watch.versions, 'version')} of ${shown} checked against ${skill.name}`, { versions: watch.versions });
}
