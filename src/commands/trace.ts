/**
 * `loopkit trace <log> [--skill <name>]`: a recorded run (JSON Lines, one step per line) against
 * the combined graph of the project, or the named skill's transitions. The log is streamed: memory
 * does not grow with its length. Exit codes as for `check`: 0 clean (a run still running is info),
 * 1 when the run broke the contract, 2 for a log that cannot be read or has no steps, an unknown
 * skill, or a broken config.
 */
import { UsageError } from '../engine/errors.js';
import { loadModel } from '../engine/run.js';
import { graphFromEdges } from '../graph/graph.js';
import { MAX_LINE_BYTES, readLines } from '../parse/lines.js';
import type { Report } from '../reporters/types.js';
import { TRACE_CODES } from '../runtime/codes.js';
import { TraceChecker } from '../runtime/trace-check.js';
import { runCommand, runtimeReport, type CliIo, type OutputOptions } from './output.js';
import { namedSkill, projectFor, projectPath, requireFile } from './project.js';

export interface TraceOptions extends OutputOptions {
  skill?: string;
  project?: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Check a trace (the library entry of `loopkit trace`): the report, or a UsageError /
 * ProjectError / ConfigError for input that cannot be checked.
 */
export async function checkTrace(file: string, opts: Pick<TraceOptions, 'skill' | 'project'> = {}): Promise<Report> {
  requireFile(file, 'trace');
  const root = projectFor(file, opts.project, process.cwd());
  const model = await loadModel(root);
  const { project } = model;
  const skill = opts.skill === undefined ? null : namedSkill(project, opts.skill);
  const graph = skill ? graphFromEdges(model.graph.edges.filter((e) => e.skill === skill.name)) : model.graph;
  const checker = new TraceChecker({ project, graph, skill, file: projectPath(project, file) });
  try {
    readLines(file, (l) => ('text' in l ? checker.line(l.line, l.text) : checker.unreadable(l.line, l.problem, MAX_LINE_BYTES)));
  } catch (e) {
    throw new UsageError(`cannot read trace ${file}: ${(e as Error).message}`);
  }
  const result = checker.finish();
  if (result.lines === 0) throw new UsageError(`trace ${file} is empty: a trace has one JSON step per line, {"state": "…"}`);
  if (skill && result.steps === 0 && result.diagnostics.length === 0)
    throw new UsageError(`trace ${file} has no step of skill '${skill.name}'`);
  const against = skill ? `the transitions of ${skill.name}` : `the contract of ${plural(project.skills.length, 'skill')}`;
  return runtimeReport(
    project,
    result.diagnostics,
    TRACE_CODES,
    result.steps,
    `${plural(result.steps, 'step')} checked against ${against}`,
    [projectPath(project, file)],
  );
}

export function runTrace(file: string, opts: TraceOptions, io: CliIo): Promise<number> {
  return runCommand(() => checkTrace(file, opts), opts.project ?? projectFor(file, undefined, process.cwd()), opts, io);
}
