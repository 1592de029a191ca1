/**
 * `loopkit coverage <run…>`: contract coverage of recorded runs — traces (JSON Lines, as `trace`
 * reads them; `watch --record` writes them) and recorded sessions (directories of the versions of a
 * state file, as `watch --replay` reads them). Every run is judged as `trace` and `watch` judge it
 * (runtime/run-judge.ts) against the combined graph, and the moves it took are counted
 * (runtime/coverage.ts). Text, JSON, or the graph's picture with exercised and never-exercised
 * transitions drawn apart (`--format svg|html`).
 *
 * Exit codes: 0; 1 when `--min` is given and some kind of element (transitions, handoffs, halt
 * bounds) the contract declares is covered less; 2 for runs that cannot be read (a missing file, an
 * empty trace or session), runs of different projects, an unknown skill, a broken config. Lines or
 * versions that cannot be read are reported on stderr, located, and measured as nothing.
 */
import { basename } from 'node:path';
import type { Diagnostic } from '../engine/diagnostic.js';
import { UsageError } from '../engine/errors.js';
import type { LintResult } from '../engine/run.js';
import type { Edge } from '../graph/graph.js';
import { isDirectory } from '../parse/fs.js';
import { MAX_LINE_BYTES, readLines } from '../parse/lines.js';
import { coverageJson, coverageText, type CoverageReport, type RunInfo } from '../reporters/coverage.js';
import type { EdgeMark } from '../reporters/graph-view.js';
import { displayPath } from '../reporters/paths.js';
import { location } from '../reporters/text.js';
import { CoverageCounter, percent, type Coverage } from '../runtime/coverage.js';
import { TraceChecker } from '../runtime/trace-check.js';
import { VERSION } from '../version.js';
import { configFailure, emitReport, type CliIo } from './output.js';
import { projectFor, projectPath, requireFile } from '../api/project.js';
import { replaySession } from './session.js';
import { loadStateProject, skillSchema } from '../api/state.js';

export const COVERAGE_FORMATS = ['text', 'json', 'svg', 'html'] as const;

export interface CoverageOptions {
  skill?: string;
  project?: string;
  format?: (typeof COVERAGE_FORMATS)[number];
  json?: boolean;
  min?: string;
  outputFile?: string;
  quiet?: boolean;
}

/** Codes that say a run could not be read (they are shown: what they hide was not measured). */
const UNREADABLE = new Set(['trace-malformed-step', 'state-file-malformed']);

export interface CoverageRun extends CoverageReport {
  /** the project's model the runs were measured against */
  result: LintResult;
  /** every problem the runs have (coverage shows the unreadable ones and counts the rest) */
  problems: Diagnostic[];
}

/** --min: a percentage. */
function minimum(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,3}(?:\.\d+)?$/u.test(value) || Number(value) > 100)
    throw new UsageError(`--min takes a percentage from 0 to 100, not '${value}'`);
  return Number(value);
}

/** The project of the runs: --project, else the one every run belongs to. */
function projectOfRuns(runs: readonly string[], explicit: string | undefined): string {
  if (explicit !== undefined) return explicit;
  const roots = new Set(runs.map((r) => projectFor(r, undefined, process.cwd())));
  if (roots.size > 1) throw new UsageError(`the runs belong to different projects: ${[...roots].join(', ')}; give --project`);
  return [...roots][0]!;
}

/**
 * Measure the coverage of runs (the library entry of `loopkit coverage`), or a UsageError /
 * ProjectError / ConfigError for input that cannot be measured.
 */
export async function measureCoverage(
  runs: readonly string[],
  opts: Pick<CoverageOptions, 'skill' | 'project'> = {},
): Promise<CoverageRun> {
  if (runs.length === 0) throw new UsageError('name the runs to measure: traces (.jsonl) or recorded sessions (directories)');
  for (const r of runs) if (!isDirectory(r)) requireFile(r, 'run');
  const result = await loadStateProject(projectOfRuns(runs, opts.project));
  const { project, graph } = result;
  const counter = new CoverageCounter(
    graph,
    [...new Set(project.skills.map((s) => s.name))].filter((s) => graph.edges.some((e) => e.skill === s)),
  );
  const problems: Diagnostic[] = [];
  const infos: RunInfo[] = [];
  // the schema of the sessions' state files, read once when the first session comes
  let schemaOf: ReturnType<typeof skillSchema> | null = null;
  for (const run of runs) {
    const path = projectPath(project, run);
    if (isDirectory(run)) {
      schemaOf ??= skillSchema(project, opts.skill);
      const session = await replaySession(run, { project, graph, ...schemaOf }, (_file, version) => counter.step(version.outcome));
      counter.endRun((s) => session.run.spentIn(s));
      problems.push(...session.diagnostics);
      infos.push({ path, kind: 'session', steps: session.versions });
      continue;
    }
    const checker = new TraceChecker({ project, graph, skill: null, file: path, onStep: (o) => counter.step(o) });
    try {
      readLines(run, (l) => ('text' in l ? checker.line(l.line, l.text) : checker.unreadable(l.line, l.problem, MAX_LINE_BYTES)));
    } catch (e) {
      throw new UsageError(`cannot read run ${run}: ${(e as Error).message}`);
    }
    const trace = checker.finish();
    if (trace.lines === 0) throw new UsageError(`run ${run} is empty: a trace has one JSON step per line, {"state": "…"}`);
    counter.endRun((s) => checker.spentIn(s));
    problems.push(...trace.diagnostics);
    infos.push({ path, kind: 'trace', steps: trace.steps });
  }
  return {
    root: project.displayRoot,
    coverage: counter.result(),
    runs: infos,
    skills: project.skills.length,
    result,
    problems,
  };
}

/** Each transition's mark in the picture. */
export function coverageMarks(coverage: Coverage): Map<Edge, EdgeMark> {
  return new Map(
    coverage.edges.map((c) => [
      c.edge,
      {
        mark: c.times > 0 ? 'exercised' : c.possible ? 'possible' : 'never',
        times: c.times,
        ...(c.peak !== undefined ? { peak: c.peak } : {}),
      },
    ]),
  );
}

/** The kinds below --min, as `transitions 77.8%`. */
export function belowMinimum(coverage: Coverage, min: number): string[] {
  const kinds = [
    ['transitions', coverage.total.transitions],
    ['handoffs', coverage.total.handoffs],
    ['halt bounds', coverage.total.halts],
  ] as const;
  return kinds.flatMap(([name, t]) => {
    const p = percent(t);
    return p !== null && p < min ? [`${name} ${p.toFixed(1)}%`] : [];
  });
}

export async function runCoverage(runs: string[], opts: CoverageOptions, io: CliIo): Promise<number> {
  const min = minimum(opts.min);
  const format = opts.json ? 'json' : (opts.format ?? 'text');
  const root = opts.project ?? (runs.length > 0 ? projectFor(runs[0]!, undefined, process.cwd()) : '.');
  let measured: CoverageRun;
  try {
    measured = await measureCoverage(runs, opts);
  } catch (e) {
    return configFailure(e, root, io);
  }
  const { problems, coverage } = measured;
  const shownRoot = measured.root;
  if (!opts.quiet) {
    for (const d of problems.filter((p) => UNREADABLE.has(p.code))) {
      io.stderr(`loopkit: ${location(shownRoot, d)}: ${d.severity}: ${d.message}  [${d.code}] (not measured)\n`);
    }
    const broken = problems.filter((p) => !UNREADABLE.has(p.code) && p.severity === 'error').length;
    if (broken > 0) {
      io.stderr(
        `loopkit: the runs break the contract in ${broken} place${broken === 1 ? '' : 's'} (moves it does not declare exercise nothing); loopkit trace and loopkit watch --replay list them\n`,
      );
    }
  }
  let text: string;
  if (format === 'json') text = coverageJson(measured);
  else if (format === 'svg' || format === 'html') {
    const { graphView } = await import('../reporters/graph-view.js');
    const picture = await import('../reporters/picture.js');
    const view = graphView({ graph: measured.result.graph, config: measured.result.project.config, coverage: coverageMarks(coverage) });
    const t = coverage.total;
    const shown = displayPath(shownRoot, '');
    const info = {
      project: shown === '.' ? basename(measured.result.project.root) : shown,
      displayPath: (f: string) => displayPath(shownRoot, f),
      version: VERSION,
      heading: {
        title: `loopkit coverage: ${shown === '.' ? basename(measured.result.project.root) : shown}`,
        note: `${measured.runs.length} run${measured.runs.length === 1 ? '' : 's'}; transitions ${t.transitions.exercised}/${t.transitions.declared}, handoffs ${t.handoffs.exercised}/${t.handoffs.declared}, halt bounds ${t.halts.exercised}/${t.halts.declared} exercised. Solid green: exercised; dashed red: never exercised; dotted amber: possibly exercised`,
      },
    };
    text = format === 'svg' ? await picture.svgPicture(view) : await picture.htmlPicture(view, info);
  } else text = coverageText(measured);
  emitReport(text, opts.outputFile, io.stdout);
  if (min === undefined) return 0;
  const below = belowMinimum(coverage, min);
  if (below.length === 0) return 0;
  io.stderr(`loopkit: coverage below --min ${min}%: ${below.join(', ')}\n`);
  return 1;
}
