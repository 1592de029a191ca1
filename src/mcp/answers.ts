/**
 * What the MCP server's tools answer, from a project's model in memory: the diagnostics of the
 * check, what is legal from a state (`legalMoves`, graph/moves.ts — the answer `trace` and `watch`
 * give), whether a move is (`judgeMove`), a state file or a trace checked as `loopkit state` and
 * `loopkit trace` check them, a code's page. Each answer is plain data (the tool's structured
 * output); a question that cannot be answered (an unknown skill, state or file) throws a UsageError
 * whose message says why, with "did you mean".
 */
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Diagnostic } from '../engine/diagnostic.js';
import { UsageError } from '../engine/errors.js';
import type { Checked } from './host.js';
import { graphFromEdges, type Edge, type StateGraph } from '../graph/graph.js';
import { judgeMove, legalMoves, runEnded, type Legal } from '../graph/moves.js';
import { skillStates } from '../model/schema.js';
import { isInsideDir } from '../model/skill-dir.js';
import type { Project, Skill } from '../model/types.js';
import { exists, readText } from '../parse/fs.js';
import { TraceChecker } from '../runtime/trace-check.js';
import { didYouMean } from '../util/closest.js';
import { codeMarkdown } from '../commands/explain.js';
import { namedSkill } from '../commands/project.js';
import { skillSchema, stateReport } from '../commands/state.js';

export interface Place {
  file: string;
  line: number | null;
  column: number | null;
}

export interface DiagnosticOut extends Place {
  code: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  help: string;
  skill?: string;
  pointer?: string;
  related?: (Place & { message: string })[];
}

export interface TransitionOut {
  from: string;
  to: string;
  skill: string;
  trigger?: string;
  handoff?: { skill: string; agent: string };
  halt?: { reason: string; after: number | null };
  place: Place;
}

export interface HaltBoundOut {
  reason: string;
  after: number;
  /** the transition the run must take when the bound is spent */
  to: string;
  place: Place;
  /** iterations spent in the state (as the question gave them) */
  spent?: number;
  /** iterations left before the run must halt */
  left?: number;
}

const place = (p: { file: string; line: number | null; column: number | null }): Place => ({
  file: p.file,
  line: p.line,
  column: p.column,
});

export function diagnosticOut(d: Diagnostic): DiagnosticOut {
  return {
    code: d.code,
    severity: d.severity,
    message: d.message,
    help: d.help,
    ...place(d),
    ...(d.skill !== undefined ? { skill: d.skill } : {}),
    ...(d.pointer !== undefined ? { pointer: d.pointer } : {}),
    ...(d.related ? { related: d.related.map((r) => ({ message: r.message, ...place(r) })) } : {}),
  };
}

export function transitionOut(e: Edge): TransitionOut {
  return {
    from: e.from,
    to: e.to,
    skill: e.skill,
    ...(e.trigger ? { trigger: e.trigger.text } : {}),
    ...(e.handoff ? { handoff: { skill: e.handoff.skill, agent: e.handoff.agent } } : {}),
    ...(e.halt ? { halt: { reason: e.halt.reason, after: e.halt.after } } : {}),
    place: place(e),
  };
}

function counts(diagnostics: readonly Diagnostic[]) {
  const n = (s: Diagnostic['severity']) => diagnostics.filter((d) => d.severity === s).length;
  return { errors: n('error'), warnings: n('warning'), info: n('info') };
}

/** The graph a question is asked on: the combined graph, or one skill's transitions. */
function graphFor(result: Checked, skill: Skill | null): StateGraph {
  return skill ? graphFromEdges(result.graph.edges.filter((e) => e.skill === skill.name)) : result.graph;
}

/** The skill a question names (null: none named), or a UsageError with "did you mean". */
function skillNamed(project: Project, name: string | undefined): Skill | null {
  return name === undefined ? null : namedSkill(project, name);
}

/**
 * The state a question names: a state of the graph, or a value a state file writes for one (through
 * a skill's state-value table: `IMPLEMENT` for loop-implement).
 */
function stateNamed(result: Checked, graph: StateGraph, skill: Skill | null, name: string, role: string): string {
  if (graph.out.has(name)) return name;
  const skills = skill ? [skill] : result.project.skills;
  for (const s of skills) {
    const facts = s.loop?.stateSchema;
    if (!facts) continue;
    const states = [...new Set(facts.values.filter((v) => v.value.text === name).map((v) => v.state.text))];
    if (states.length === 1 && graph.out.has(states[0]!)) return states[0]!;
    if (states.length > 1) {
      throw new UsageError(
        `'${name}' stands for several states in the state file of ${s.name} (${states.join(', ')}): name one of them as the ${role}`,
      );
    }
  }
  const known = [...graph.states];
  const scope = skill ? `skill '${skill.name}'` : 'the contract';
  const declaredOnly = skill && skillStates(skill).has(name) ? ` ('${name}' is declared by ${skill.name} but no transition names it)` : '';
  throw new UsageError(
    `unknown ${role} '${name}': not a state of ${scope}${didYouMean(name, known)}${declaredOnly} (states: ${known.join(', ')})`,
  );
}

function haltBound(legal: Legal, spent: number | undefined): HaltBoundOut | null {
  const b = legal.bound;
  if (!b) return null;
  const after = b.halt!.after!;
  return {
    reason: b.halt!.reason,
    after,
    to: b.to,
    place: { file: b.file, line: b.halt!.line, column: b.halt!.column },
    ...(spent !== undefined ? { spent, left: Math.max(0, after - spent) } : {}),
  };
}

// --- check -------------------------------------------------------------------------------------

export function checkAnswer(result: Checked, files: readonly string[] | undefined) {
  let diagnostics = result.diagnostics;
  if (files && files.length > 0) {
    const root = result.project.root;
    const wanted = files.map((f) => {
      const rel = relative(root, resolve(root, f)).split(sep).join('/');
      if (rel.startsWith('../') || isAbsolute(rel) || !exists(join(root, rel))) {
        const known = result.project.skills.flatMap((s) => [s.skillFile.path, ...(s.loop ? [s.loop.file.path] : [])]);
        throw new UsageError(`no file '${f}' in the project${didYouMean(rel, known)}`);
      }
      return rel;
    });
    diagnostics = diagnostics.filter((d) => wanted.some((w) => d.file === w || isInsideDir(d.file, w)));
  }
  const c = counts(diagnostics);
  return { pass: c.errors === 0, ...c, skills: result.project.skills.length, diagnostics: diagnostics.map(diagnosticOut) };
}

// --- next --------------------------------------------------------------------------------------

export function nextAnswer(result: Checked, input: { state: string; skill?: string; iterations?: number }) {
  const skill = skillNamed(result.project, input.skill);
  const graph = graphFor(result, skill);
  const state = stateNamed(result, graph, skill, input.state, 'state');
  const legal = legalMoves(graph, state);
  const transitions = legal.moves.flatMap((m) => m.edges).map(transitionOut);
  return {
    state,
    ...(skill ? { skill: skill.name } : {}),
    terminal: legal.terminal,
    halted: legal.halted,
    transitions,
    haltBound: haltBound(legal, input.iterations),
    summary: legal.terminal
      ? `'${state}' is ${legal.halted ? 'a halted' : 'a terminal'} state: no transition leaves it; the run ends here.`
      : `From '${state}' the contract allows: ${[...new Set(transitions.map((t) => `${t.from} → ${t.to}`))].join(', ')}.`,
  };
}

// --- step --------------------------------------------------------------------------------------

export function stepAnswer(result: Checked, input: { from: string; to: string; skill?: string; iterations?: number }) {
  const skill = skillNamed(result.project, input.skill);
  const graph = graphFor(result, skill);
  const from = stateNamed(result, graph, skill, input.from, 'from-state');
  const to = stateNamed(result, graph, skill, input.to, 'to-state');
  const legal = legalMoves(graph, from);
  const skills = new Set(result.project.skills.map((s) => s.name));
  const verdict = judgeMove(graph, from, to, { handlers: { graph: result.graph, config: result.project.config, skills } });
  const bound = haltBound(legal, input.iterations);
  const allowedMoves = legal.moves.flatMap((m) => m.edges).map(transitionOut);
  const names = [...new Set(allowedMoves.map((t) => `${t.from} → ${t.to}`))].join(', ');
  const base = { from, to, ...(skill ? { skill: skill.name } : {}), allowedMoves, haltBound: bound };
  if (!verdict.allowed) {
    const terminal = verdict.kind === 'from-terminal';
    return {
      ...base,
      allowed: false,
      verdict: terminal ? 'from-terminal' : 'undeclared',
      reason: terminal
        ? `'${from}' is a terminal state: no transition leaves it; the run should end there.`
        : `${from} → ${to} is not a declared transition. From '${from}' the contract allows: ${names}.`,
      transitions: [],
      problems: [],
    };
  }
  const transitions = verdict.edges.map(transitionOut);
  const problems = verdict.kind === 'transition' ? verdict.handoff.filter((p) => p.kind === 'unhandled') : [];
  const notes = problems.map(
    (p) =>
      `the transition hands '${to}' to skill ${p.skill}, which has no transition out of '${to}' (the contract's problem: constraints-handoff-unhandled)`,
  );
  // staying is another iteration in the state: not once its halt bound is spent (as trace-halt-bound-exceeded judges)
  if (verdict.kind === 'stay' && bound && input.iterations !== undefined && input.iterations + 1 > bound.after) {
    return {
      ...base,
      allowed: false,
      verdict: 'halt-bound',
      reason: `The run has spent ${input.iterations} iterations in '${from}'; the contract halts after ${bound.after} (halt ${bound.reason} after ${bound.after} iterations): take ${from} → ${bound.to}.`,
      transitions,
      problems: notes,
    };
  }
  const handoff = verdict.kind === 'transition' ? verdict.edges.find((e) => e.handoff)?.handoff : undefined;
  return {
    ...base,
    allowed: true,
    verdict: verdict.kind === 'stay' ? 'stay' : 'transition',
    reason:
      verdict.kind === 'stay'
        ? `Staying in '${from}' is another iteration there${bound ? ` (${bound.left ?? bound.after} of ${bound.after} left before halt ${bound.reason})` : ''}.`
        : `${from} → ${to} is declared${handoff ? `; it hands off to ${handoff.skill} (agent ${handoff.agent})` : ''}.`,
    transitions,
    ...(handoff ? { handoff: { skill: handoff.skill, agent: handoff.agent } } : {}),
    problems: notes,
  };
}

// --- state -------------------------------------------------------------------------------------

/** A file a question names: relative to the project root, or absolute; it must be a readable file. */
function fileNamed(result: Checked, file: string, what: string): { abs: string; path: string; text: string } {
  const abs = resolve(result.project.root, file);
  const read = readText(abs);
  if ('error' in read) throw new UsageError(`cannot read ${what} '${file}': ${read.error}`);
  return { abs, path: relative(result.project.root, abs).split(sep).join('/'), text: read.text };
}

export async function stateAnswer(result: Checked, input: { file?: string; value?: Record<string, unknown>; skill?: string }) {
  if ((input.file === undefined) === (input.value === undefined))
    throw new UsageError('give the state file (file) or the state itself (value), one of them');
  const { skill, schema } = skillSchema(result.project, input.skill);
  const { path, text } =
    input.file !== undefined
      ? fileNamed(result, input.file, 'state file')
      : { path: '<value>.json', text: `${JSON.stringify(input.value, null, 2)}\n` };
  const report = await stateReport(result, skill, schema, path, text);
  return {
    pass: report.errors === 0,
    errors: report.errors,
    warnings: report.warnings,
    info: report.info,
    skill: skill.name,
    checked: report.verifications,
    diagnostics: report.diagnostics.map(diagnosticOut),
  };
}

// --- trace -------------------------------------------------------------------------------------

export function traceAnswer(result: Checked, input: { file?: string; steps?: Record<string, unknown>[]; skill?: string }) {
  if ((input.file === undefined) === (input.steps === undefined))
    throw new UsageError('give the trace file (file) or its steps (steps), one of them');
  const skill = skillNamed(result.project, input.skill);
  const graph = graphFor(result, skill);
  const { path, text } =
    input.file !== undefined
      ? fileNamed(result, input.file, 'trace')
      : { path: '<steps>.jsonl', text: input.steps!.map((s) => JSON.stringify(s)).join('\n') };
  const checker = new TraceChecker({ project: result.project, graph, combined: result.graph, skill, file: path });
  text.split('\n').forEach((line, i) => checker.line(i + 1, line.endsWith('\r') ? line.slice(0, -1) : line));
  const states = checker.states;
  const run = checker.finish();
  if (run.lines === 0) throw new UsageError('the trace has no steps: one JSON object per line, {"state": "…"}');
  const c = counts(run.diagnostics);
  return {
    pass: c.errors === 0,
    ...c,
    steps: run.steps,
    states: [...states],
    ended: runEnded(graph, states),
    diagnostics: run.diagnostics.map(diagnosticOut),
  };
}

// --- explain -----------------------------------------------------------------------------------

export function explainAnswer(code: string) {
  return codeMarkdown(code);
}
