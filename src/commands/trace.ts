/**
 * `loopkit trace <log> [--skill <name>]`: a recorded run (JSON Lines, one step per line) against
 * the combined graph of the project, or the named skill's transitions. The log is streamed: memory
 * does not grow with its length. Exit codes as for `check`: 0 clean (a run still running is info),
 * 1 when the run broke the contract, 2 for a log that cannot be read or has no steps, an unknown
 * skill, or a broken config. With --follow, the log is followed as it grows (live/log-follower.ts)
 * and each problem printed the moment it is found.
 */
import { dirname } from 'node:path';
import type { Diagnostic } from '../engine/diagnostic.js';
import { UsageError } from '../engine/errors.js';
import { loadModel } from '../api/engine.js';
import { graphFromEdges } from '../graph/graph.js';
import { runEnded } from '../graph/moves.js';
import { fileStat, isDirectory, notAFile } from '../parse/fs.js';
import { MAX_LINE_BYTES, readLines, type LineRead } from '../parse/lines.js';
import type { Report } from '../reporters/types.js';
import { TRACE_CODES } from '../runtime/codes.js';
import { TraceChecker } from '../runtime/trace-check.js';
import { colorEnabled, configFailure, runCommand, type CliIo, type OutputOptions } from './output.js';
import { runtimeReport } from '../reporters/runtime.js';
import { namedSkill, projectFor, projectPath, requireFile } from '../api/project.js';
import { STREAM_FORMATS, StreamPrinter, type StreamFormat } from './stream.js';
import { untilStopped } from '../util/until-stopped.js';

export interface TraceOptions extends OutputOptions {
  skill?: string;
  project?: string;
  follow?: boolean;
  untilEnd?: boolean;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Check a trace (the library entry of `loopkit trace`): the report, or a UsageError /
 * ProjectError / ConfigError for input that cannot be checked.
 */
/** The project's model and what the run is checked against (the combined graph, or the skill's transitions). */
async function traceContext(file: string, opts: Pick<TraceOptions, 'skill' | 'project'>, onDiagnostic?: (d: Diagnostic) => void) {
  const root = projectFor(file, opts.project, process.cwd());
  const model = await loadModel(root);
  const { project } = model;
  const skill = opts.skill === undefined ? null : namedSkill(project, opts.skill);
  const graph = skill ? graphFromEdges(model.graph.edges.filter((e) => e.skill === skill.name)) : model.graph;
  const path = projectPath(project, file);
  const checker = new TraceChecker({ project, graph, combined: model.graph, skill, file: path, ...(onDiagnostic ? { onDiagnostic } : {}) });
  const against = skill ? `the transitions of ${skill.name}` : `the contract of ${plural(project.skills.length, 'skill')}`;
  return { project, skill, graph, path, checker, against };
}

/** Feed a line read from a log to the checker. */
const feed = (checker: TraceChecker) => (l: LineRead) =>
  'text' in l ? checker.line(l.line, l.text) : checker.unreadable(l.line, l.problem, MAX_LINE_BYTES);

/**
 * Check a trace (the library entry of `loopkit trace`): the report, or a UsageError /
 * ProjectError / ConfigError for input that cannot be checked.
 */
export async function checkTrace(file: string, opts: Pick<TraceOptions, 'skill' | 'project'> = {}): Promise<Report> {
  requireFile(file, 'trace');
  const { project, skill, path, checker, against } = await traceContext(file, opts);
  try {
    readLines(file, feed(checker));
  } catch (e) {
    throw new UsageError(`cannot read trace ${file}: ${(e as Error).message}`);
  }
  const result = checker.finish();
  if (result.lines === 0) throw new UsageError(`trace ${file} is empty: a trace has one JSON step per line, {"state": "…"}`);
  if (skill && result.steps === 0 && result.diagnostics.length === 0)
    throw new UsageError(`trace ${file} has no step of skill '${skill.name}'`);
  return runtimeReport(
    project,
    result.diagnostics,
    TRACE_CODES,
    result.steps,
    `${plural(result.steps, 'step')} checked against ${against}`,
    [path],
  );
}

/**
 * `trace --follow`: the log as it grows, each problem printed the moment its line is read, until
 * Ctrl-C (or, with --until-end, until the run reaches a terminal or halted state).
 */
async function followTrace(file: string, opts: TraceOptions, io: CliIo): Promise<number> {
  const format = (opts.json ? 'json' : (opts.format ?? 'text')) as StreamFormat;
  if (!(STREAM_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`trace --follow prints its findings as they come: --format text, json or github (not ${format})`);
  }
  if (opts.outputFile !== undefined)
    throw new UsageError('trace --follow prints its findings as they come, on stdout: --output-file is for a trace read once');
  const existing = fileStat(file);
  if (isDirectory(file)) throw new UsageError(`trace is not a file: ${file}`);
  // a FIFO, a socket or a device is no log to follow (it would block, or never end)
  const kind = existing === null ? null : notAFile(existing);
  if (kind !== null) throw new UsageError(`trace is not a file: ${file} (${kind.replace(/^Not a regular file \((.*)\)$/u, '$1')})`);
  if (!isDirectory(dirname(file))) throw new UsageError(`directory not found: ${dirname(file)}`);
  const root = opts.project ?? projectFor(file, undefined, process.cwd());
  let printer: StreamPrinter | null = null;
  let context;
  try {
    context = await traceContext(file, opts, (d) => printer?.diagnostic(d, { line: d.line }));
  } catch (e) {
    return configFailure(e, root, io);
  }
  const { project, checker, against } = context;
  printer = new StreamPrinter(format, project.displayRoot, io, {
    color: colorEnabled(opts.color, io.env, io.isTTY),
    quiet: opts.quiet === true,
    docs: opts.docs === true,
  });
  const shown = file;
  const { stopped, stop } = untilStopped();
  const { LogFollower } = await import('../live/log-follower.js');
  const read = feed(checker);
  const follower = new LogFollower({
    file,
    onLine: (l) => {
      read(l);
      if (opts.untilEnd && runEnded(context.graph, checker.states)) stop();
    },
    onEvent: (e) => {
      const text =
        e === 'waiting'
          ? `waiting for ${shown} to be created`
          : e === 'truncated'
            ? `${shown} was truncated; reading it again from its start`
            : e === 'rotated'
              ? `${shown} was replaced by a new file; reading it from its start`
              : `${shown} was deleted; waiting for it to come back`;
      printer!.progress(text, { type: e });
    },
    onError: (e) => io.stderr(`loopkit: ${e.message}\n`),
  });
  await follower.start();
  if (!opts.quiet) io.stderr(`loopkit: following ${shown} against ${against} (Ctrl-C to stop)\n`);
  await stopped;
  await follower.close();
  const result = checker.finish();
  return printer.summary(`${plural(result.steps, 'step')} of ${shown} checked against ${against}`, {
    steps: result.steps,
    lines: result.lines,
  });
}

export function runTrace(file: string, opts: TraceOptions, io: CliIo): Promise<number> {
  if (opts.follow) return followTrace(file, opts, io);
  if (opts.untilEnd) throw new UsageError('--until-end is for --follow');
  return runCommand(() => checkTrace(file, opts), opts.project ?? projectFor(file, undefined, process.cwd()), opts, io);
}
