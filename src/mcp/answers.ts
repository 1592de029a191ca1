/**
 * What the MCP server's tools answer, from a project's model in memory: the diagnostics of the
 * check, what is legal from a state (`legalMoves`, graph/moves.ts — the answer `trace` and `watch`
 * give), whether a move is (`judgeMove`), a state file or a trace checked as `loopkit state` and
 * `loopkit trace` check them, a code's page. Each answer is plain data (the tool's structured
 * output); a question that cannot be answered (an unknown skill, state or file) throws a UsageError
 * whose message says why, with "did you mean".
 */
import { relative, resolve, sep } from 'node:path';
import type { Diagnostic } from '../engine/diagnostic.js';
import { UsageError } from '../engine/errors.js';
import type { Checked } from './host.js';
import { graphFromEdges, type Edge, type StateGraph } from '../graph/graph.js';
import { judgeMove, legalMoves, runEnded, type Legal } from '../graph/moves.js';
import { handoffAgent, type AgentDef, type HandoffAgent } from '../model/agents.js';
import { skillStates } from '../model/schema.js';
import { isInsideDir } from '../model/skill-dir.js';
import type { Project, Skill } from '../model/types.js';
import { confine, readFound, rootOf, shownPath, type Root } from '../parse/confine.js';
import { TraceChecker } from '../runtime/trace-check.js';
import { didYouMean } from '../util/closest.js';
import { codeMarkdown } from '../api/explain.js';
import { namedSkill } from '../api/project.js';
import { skillSchema, stateReport } from '../api/state.js';
import { markAs, markedMessage, plain, type Quoter } from './quote.js';

export interface Place {
  file: string;
  line: number | null;
  column: number | null;
}

export interface DiagnosticOut extends Place {
  code: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  /** the pieces of `message` that are the project's text (names, values, lines it quotes), verbatim, in order */
  quoted: string[];
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
  handoff?: HandoffOut;
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
  const shown = markedMessage(d);
  return markAs(
    {
      code: d.code,
      severity: d.severity,
      message: d.message,
      quoted: shown.quoted,
      help: d.help,
      ...place(d),
      ...(d.skill !== undefined ? { skill: d.skill } : {}),
      ...(d.pointer !== undefined ? { pointer: d.pointer } : {}),
      ...(d.related ? { related: d.related.map((r) => ({ message: r.message, ...place(r) })) } : {}),
    },
    shown.text,
  );
}

/** A handoff with what its agent's file says: may the agent load the skill (model/agents.ts), and where the agent is defined. */
export interface HandoffOut {
  skill: string;
  agent: string;
  mayLoad: HandoffAgent['mayLoad'];
  agentFile?: string;
}

function handoffOut(h: { skill: string; agent: string }, agents: readonly AgentDef[]): HandoffOut {
  const a = handoffAgent(agents, h.skill, h.agent);
  return { skill: h.skill, agent: h.agent, mayLoad: a.mayLoad, ...(a.file !== undefined ? { agentFile: a.file } : {}) };
}

export function transitionOut(e: Edge, agents: readonly AgentDef[] = []): TransitionOut {
  return {
    from: e.from,
    to: e.to,
    skill: e.skill,
    ...(e.trigger ? { trigger: e.trigger.text } : {}),
    ...(e.handoff ? { handoff: handoffOut(e.handoff, agents) } : {}),
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

/**
 * Where the files a question names may lie: the project, and the roots the client declared (MCP's
 * `roots`), when it declared any. Every path a tool takes is confined to them (parse/confine.ts).
 */
export interface Scope {
  roots: readonly Root[];
  /** the client declared roots of its own */
  clientRoots: boolean;
}

/** The scope of a project alone (no roots declared by a client). */
export function projectScope(result: Pick<Checked, 'project'>): Scope {
  const root = rootOf(result.project.root);
  return { roots: root ? [root] : [], clientRoots: false };
}

export function checkAnswer(result: Checked, files: readonly string[] | undefined) {
  let diagnostics = result.diagnostics;
  if (files && files.length > 0) {
    const own = projectScope(result);
    const wanted = files.map((f) => {
      // a file or folder of the project: its diagnostics are the project's (never one outside it, whatever the client's roots)
      const found = confine(f, own.roots, { directories: true, limit: Number.MAX_SAFE_INTEGER });
      if (!('refused' in found)) return found.path;
      if (found.why !== 'missing') throw new UsageError(`cannot check '${shownPath(f)}': ${found.refused}`);
      const known = result.project.skills.flatMap((s) => [s.skillFile.path, ...(s.loop ? [s.loop.file.path] : [])]);
      const rel = relative(result.project.root, resolve(result.project.root, f)).split(sep).join('/');
      throw new UsageError(`no file '${shownPath(f)}' in the project${didYouMean(rel, known)}`);
    });
    diagnostics = diagnostics.filter((d) => wanted.some((w) => d.file === w || isInsideDir(d.file, w)));
  }
  const c = counts(diagnostics);
  return { pass: c.errors === 0, ...c, skills: result.project.skills.length, diagnostics: diagnostics.map(diagnosticOut) };
}

// --- next --------------------------------------------------------------------------------------

/**
 * How a sentence writes the contract's names: `quoted` where the CLI's sentence puts them between
 * single quotes, `bare` where it writes them as they are. The structured content's sentences are the
 * CLI's (PLAIN); the text content marks every name as quoted text (MARKED, quote.ts).
 */
export interface Names {
  quoted: Quoter;
  bare: Quoter;
}
const PLAIN: Names = { quoted: plain, bare: (s) => s };

/** The moves as a sentence lists them (`a → b, a → c`), each once. */
const moveList = (moves: readonly TransitionOut[], n: Names) =>
  [...new Set(moves.map((t) => `${n.bare(t.from)} → ${n.bare(t.to)}`))].join(', ');

interface NextOut {
  state: string;
  terminal: boolean;
  halted: boolean;
  transitions: TransitionOut[];
}

/** What `next` says of a state. */
export function nextSummary(a: NextOut, n: Names): string {
  return a.terminal
    ? `${n.quoted(a.state)} is ${a.halted ? 'a halted' : 'a terminal'} state: no transition leaves it; the run ends here.`
    : `From ${n.quoted(a.state)} the contract allows: ${moveList(a.transitions, n)}.`;
}

export function nextAnswer(result: Checked, input: { state: string; skill?: string; iterations?: number }) {
  const skill = skillNamed(result.project, input.skill);
  const graph = graphFor(result, skill);
  const state = stateNamed(result, graph, skill, input.state, 'state');
  const legal = legalMoves(graph, state);
  const transitions = legal.moves.flatMap((m) => m.edges).map((e) => transitionOut(e, result.project.agents));
  const answer = {
    state,
    ...(skill ? { skill: skill.name } : {}),
    terminal: legal.terminal,
    halted: legal.halted,
    transitions,
    haltBound: haltBound(legal, input.iterations),
  };
  return { ...answer, summary: nextSummary(answer, PLAIN) };
}

// --- step --------------------------------------------------------------------------------------

export type Verdict = 'stay' | 'transition' | 'undeclared' | 'from-terminal' | 'halt-bound';

interface StepOut {
  from: string;
  to: string;
  verdict: Verdict;
  allowedMoves: TransitionOut[];
  haltBound: HaltBoundOut | null;
  handoff?: HandoffOut;
}

/** What the agent's file says of the skill, for a sentence: `, which may not load it (its file: agents/po.md)`. */
function mayLoadText(h: HandoffOut): string {
  const file = h.agentFile !== undefined ? ` (${h.agentFile})` : '';
  switch (h.mayLoad) {
    case 'allowed':
      return `, which may load it${file}`;
    case 'denied':
      return `, which may NOT load it${file}: the run stops there (handoff-skill-denied)`;
    case 'undefined-agent':
      return ', which no agent file of the project defines (handoff-unknown-agent)';
    case 'unknown':
      return `, whose file does not say which skills it loads${file}`;
    default:
      return '';
  }
}

/** Why a move is allowed or not. */
export function stepReason(a: StepOut, n: Names): string {
  const { from, to, haltBound: bound } = a;
  switch (a.verdict satisfies Verdict) {
    case 'from-terminal':
      return `${n.quoted(from)} is a terminal state: no transition leaves it; the run should end there.`;
    case 'undeclared':
      return `${n.bare(from)} → ${n.bare(to)} is not a declared transition. From ${n.quoted(from)} the contract allows: ${moveList(a.allowedMoves, n)}.`;
    case 'halt-bound':
      return `The run has spent ${bound!.spent} iterations in ${n.quoted(from)}; the contract halts after ${bound!.after} (halt ${n.bare(bound!.reason)} after ${bound!.after} iterations): take ${n.bare(from)} → ${n.bare(bound!.to)}.`;
    case 'stay':
      return `Staying in ${n.quoted(from)} is another iteration there${bound ? ` (${bound.left ?? bound.after} of ${bound.after} left before halt ${n.bare(bound.reason)})` : ''}.`;
    default:
      return `${n.bare(from)} → ${n.bare(to)} is declared${a.handoff ? `; it hands off to ${n.bare(a.handoff.skill)} (agent ${n.bare(a.handoff.agent)}${mayLoadText(a.handoff)})` : ''}.`;
  }
}

export function stepAnswer(result: Checked, input: { from: string; to: string; skill?: string; iterations?: number }) {
  const skill = skillNamed(result.project, input.skill);
  const graph = graphFor(result, skill);
  const from = stateNamed(result, graph, skill, input.from, 'from-state');
  const to = stateNamed(result, graph, skill, input.to, 'to-state');
  const legal = legalMoves(graph, from);
  const skills = new Set(result.project.skills.map((s) => s.name));
  const verdict = judgeMove(graph, from, to, { handlers: { graph: result.graph, config: result.project.config, skills } });
  const bound = haltBound(legal, input.iterations);
  const allowedMoves = legal.moves.flatMap((m) => m.edges).map((e) => transitionOut(e, result.project.agents));
  const base = { from, to, ...(skill ? { skill: skill.name } : {}), allowedMoves, haltBound: bound };
  const withReason = <T extends StepOut>(a: T) => ({ ...a, reason: stepReason(a, PLAIN) });
  if (!verdict.allowed) {
    return withReason({
      ...base,
      allowed: false,
      verdict: verdict.kind === 'from-terminal' ? ('from-terminal' as const) : ('undeclared' as const),
      transitions: [] as TransitionOut[],
      problems: [] as string[],
    });
  }
  const transitions = verdict.edges.map((e) => transitionOut(e, result.project.agents));
  const problems = verdict.kind === 'transition' ? verdict.handoff.filter((p) => p.kind === 'unhandled') : [];
  const notes = problems.map(
    (p) =>
      `the transition hands '${to}' to skill ${p.skill}, which has no transition out of '${to}' (the contract's problem: constraints-handoff-unhandled)`,
  );
  // staying is another iteration in the state: not once its halt bound is spent (as trace-halt-bound-exceeded judges)
  if (verdict.kind === 'stay' && bound && input.iterations !== undefined && input.iterations + 1 > bound.after) {
    return withReason({ ...base, allowed: false, verdict: 'halt-bound' as const, transitions, problems: notes });
  }
  const handoff = verdict.kind === 'transition' ? verdict.edges.find((e) => e.handoff)?.handoff : undefined;
  return withReason({
    ...base,
    allowed: true,
    verdict: verdict.kind === 'stay' ? ('stay' as const) : ('transition' as const),
    transitions,
    ...(handoff ? { handoff: handoffOut(handoff, result.project.agents) } : {}),
    problems: notes,
  });
}

// --- state -------------------------------------------------------------------------------------

/**
 * A file a question names (relative to the project root, or absolute), confined to the scope: a
 * readable regular file inside the project or a root the client declared, or a UsageError that names
 * the path as given and says why, quoting nothing of what is there. Its path in diagnostics is
 * project-relative (or absolute, in a root of the client's outside the project).
 */
function fileNamed(result: Checked, scope: Scope, file: string, what: string): { path: string; text: string } {
  const refuse = (why: string) => new UsageError(`cannot read ${what} '${shownPath(file)}': ${why}`);
  const found = confine(file, scope.roots, { base: result.project.root });
  if ('refused' in found) {
    throw refuse(found.why === 'outside' && scope.clientRoots ? `${found.refused} and the roots the client declared` : found.refused);
  }
  const read = readFound(found);
  if ('refused' in read) throw refuse(read.refused);
  const project = scope.roots[0];
  const path = project && found.root === project ? found.path : found.abs.split(sep).join('/');
  return { path, text: read.text };
}

export async function stateAnswer(
  result: Checked,
  input: { file?: string; value?: Record<string, unknown>; skill?: string },
  scope: Scope = projectScope(result),
) {
  if ((input.file === undefined) === (input.value === undefined))
    throw new UsageError('give the state file (file) or the state itself (value), one of them');
  const { skill, schema } = skillSchema(result.project, input.skill);
  const { path, text } =
    input.file !== undefined
      ? fileNamed(result, scope, input.file, 'state file')
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

export function traceAnswer(
  result: Checked,
  input: { file?: string; steps?: Record<string, unknown>[]; skill?: string },
  scope: Scope = projectScope(result),
) {
  if ((input.file === undefined) === (input.steps === undefined))
    throw new UsageError('give the trace file (file) or its steps (steps), one of them');
  const skill = skillNamed(result.project, input.skill);
  const graph = graphFor(result, skill);
  const { path, text } =
    input.file !== undefined
      ? fileNamed(result, scope, input.file, 'trace')
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
