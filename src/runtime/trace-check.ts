/**
 * A recorded run against the contract: JSON Lines of steps `{"state", "skill"?, "agent"?,
 * "iteration"?, "event"?}`, fed one line at a time (the caller streams the file), checked in
 * constant memory per line — what is kept is the current state, a counter per state of the graph,
 * and at most MAX_SHOWN diagnostics of each code.
 *
 * - every change of state must be a declared transition (staying in a state is allowed);
 * - halt bounds: a state with a `halt <reason> after N iterations` transition out of it may hold
 *   the run for at most N iterations; an iteration is a step, and steps that give the same
 *   `iteration` number in a row count once;
 * - a transition with `handoff <skill> to <agent>` must be taken by a step that names that skill
 *   and agent (when the step names them; after `handoff done …` nobody takes over);
 * - the run ends in a terminal state (no transition leaves it) or a halted one (the target of a
 *   transition with a halt), or it is reported as still running (info).
 */
import type { Diagnostic, Related } from '../engine/diagnostic.js';
import type { Edge, StateGraph } from '../graph/graph.js';
import type { Project, Skill } from '../model/types.js';
import { describeValue, nodeAt, parseJson, type DataNode } from '../parse/data.js';
import { didYouMean } from '../util/closest.js';
import { DiagnosticSink, type RuntimeReport } from './codes.js';

export interface TraceContext {
  project: Project;
  /** the graph the run is checked against: the combined graph, or the named skill's */
  graph: StateGraph;
  /** the skill given with --skill: only its steps (those naming it or no skill) are checked */
  skill: Skill | null;
  /** the trace: project-relative path */
  file: string;
}

export interface TraceResult {
  diagnostics: Diagnostic[];
  /** non-blank lines read */
  lines: number;
  /** steps of the run checked (with --skill, those of the skill) */
  steps: number;
}

/** A place in the log: a line and the column of a value in it. */
interface At {
  line: number;
  column: number;
}

/** The fields of a step and what each must be. */
const FIELDS: readonly [string, string][] = [
  ['state', 'a non-empty string'],
  ['skill', 'a string'],
  ['agent', 'a string'],
  ['event', 'a string'],
  ['iteration', 'a whole number ≥ 0'],
];

/** The value of a field of the step on a line (read again, located, only when a problem is reported), or the step itself for ''. */
function valueOf(text: string, field: string): DataNode | undefined {
  const parsed = parseJson(text);
  if (!('root' in parsed)) return undefined;
  return field === '' ? parsed.root : nodeAt(parsed.root, [field]);
}

/** Where a field's value is written on a line (column 1 when it cannot be found), and its pointer. */
function fieldAt(line: number, text: string, field: string): At & { pointer: string } {
  return { line, column: valueOf(text, field)?.column ?? 1, pointer: field === '' ? '' : `/${field}` };
}

export class TraceChecker {
  private readonly sink = new DiagnosticSink();
  private readonly states: ReadonlySet<string>;
  private readonly skillNames: readonly string[];
  /** per state: the halt transition with the smallest bound out of it */
  private readonly bounds = new Map<string, Edge>();
  /** targets of transitions that halt */
  private readonly halted = new Set<string>();
  /** per state: iterations the run spent in it, and the `iteration` of the last step counted */
  private readonly spent = new Map<string, { count: number; iteration: number | undefined; reported: boolean }>();
  /** the state the run is in (null: not known — before the first step, or after a step that could not be read) */
  private current: string | null = null;
  private currentAt: { line: number; text: string } | null = null;
  /** the last step of the run, when its state is a known one */
  private last: { state: string; line: number; text: string } | null = null;
  private lines = 0;
  private steps = 0;

  constructor(private readonly ctx: TraceContext) {
    this.states = new Set(ctx.graph.states);
    this.skillNames = ctx.project.skills.map((s) => s.name);
    for (const e of ctx.graph.edges) {
      if (!e.halt) continue;
      this.halted.add(e.to);
      const b = this.bounds.get(e.from);
      if (e.halt.after !== null && (!b || b.halt!.after! > e.halt.after)) this.bounds.set(e.from, e);
    }
  }

  /** Report a problem; `make` describes it (it reads the line again), called only when it will be listed. */
  private report(code: string, make: () => Omit<RuntimeReport, 'file' | 'code'>): void {
    this.sink.report(code, () => ({ ...make(), code, file: this.ctx.file }));
  }

  private malformed(
    line: number,
    messageId: string,
    make: () => { at: At & { pointer?: string }; data?: Record<string, string | number> },
  ): void {
    this.report('trace-malformed-step', () => {
      const { at, data } = make();
      return { messageId, data: { line, ...data }, ...at };
    });
    // the state after a step that cannot be read is unknown: the next change is not judged
    this.current = null;
  }

  /** A line that could not be read as text. */
  unreadable(line: number, problem: 'tooLong' | 'notUtf8', maxBytes: number): void {
    this.lines++;
    this.malformed(line, problem, () => ({ at: { line, column: 1 }, data: { max: maxBytes } }));
  }

  /** One line of the log. */
  line(line: number, text: string): void {
    if (text.trim() === '') return;
    this.lines++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.malformed(line, 'json', () => {
        const parsed = parseJson(text, 'line');
        const error = 'error' in parsed ? parsed.error : { message: 'not valid JSON', column: 1 };
        return { at: { line, column: error.column }, data: { reason: error.message } };
      });
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.malformed(line, 'notObject', () => {
        const root = valueOf(text, '');
        return { at: { line, column: root?.column ?? 1 }, data: { got: root ? describeValue(root) : JSON.stringify(value) } };
      });
      return;
    }
    const step = value as Record<string, unknown>;
    if (!('state' in step)) {
      this.malformed(line, 'missingState', () => ({ at: fieldAt(line, text, '') }));
      return;
    }
    for (const [field, expected] of FIELDS) {
      if (!(field in step)) continue;
      const v = step[field];
      const ok =
        field === 'iteration' ? Number.isInteger(v) && (v as number) >= 0 : typeof v === 'string' && (field !== 'state' || v !== '');
      if (ok) continue;
      this.malformed(line, 'badField', () => {
        const node = valueOf(text, field);
        return {
          at: { line, column: node?.column ?? 1, pointer: `/${field}` },
          data: { field, got: node ? describeValue(node) : JSON.stringify(v), expected },
        };
      });
      return;
    }
    const state = step.state as string;
    const skill = step.skill as string | undefined;
    const agent = step.agent as string | undefined;
    const iteration = step.iteration as number | undefined;
    if (skill !== undefined && !this.skillNames.includes(skill)) {
      this.report('trace-unknown-skill', () => ({
        messageId: 'unknown',
        data: { skill, suggestion: didYouMean(skill, this.skillNames), skills: this.skillNames.join(', ') },
        ...fieldAt(line, text, 'skill'),
      }));
    }
    // with --skill, the steps of other skills are not part of the run checked
    if (this.ctx.skill && skill !== undefined && skill !== this.ctx.skill.name) return;
    this.steps++;
    if (!this.states.has(state)) {
      this.report('trace-unknown-state', () => {
        const known = [...this.states];
        return {
          messageId: 'unknown',
          data: {
            state,
            scope: this.ctx.skill ? `skill \`${this.ctx.skill.name}\`` : 'the contract',
            suggestion: didYouMean(state, known),
            states: known.join(', '),
          },
          ...fieldAt(line, text, 'state'),
        };
      });
      this.current = null;
      this.last = null;
      return;
    }
    if (this.current !== null && state !== this.current) this.transition(this.current, state, { line, text, skill, agent });
    this.current = state;
    this.currentAt = { line, text };
    this.last = { state, line, text };
    this.spend(state, iteration, { line, text });
  }

  private transition(from: string, to: string, step: { line: number; text: string; skill?: string; agent?: string }): void {
    const out = this.ctx.graph.out.get(from) ?? [];
    const taken = out.filter((e) => e.to === to);
    if (taken.length === 0) {
      const was = this.currentAt;
      this.report('trace-undeclared-transition', () => {
        const previous: Related[] = was
          ? [
              {
                message: `the run was in '${from}'`,
                file: this.ctx.file,
                line: was.line,
                column: fieldAt(was.line, was.text, 'state').column,
              },
            ]
          : [];
        const declared = out
          .slice(0, 5)
          .map((e) => ({ message: `declared: ${e.from} → ${e.to}`, file: e.file, line: e.line, column: e.column }));
        return {
          messageId: out.length === 0 ? 'fromTerminal' : 'undeclared',
          data: { from, to, allowed: [...new Set(out.map((e) => `${e.from} → ${e.to}`))].join(', ') },
          ...fieldAt(step.line, step.text, 'state'),
          related: [...previous, ...declared],
        };
      });
      return;
    }
    // a handoff is kept when some declared edge for this change agrees with the step, has no
    // handoff, or hands off to `done` (the story is finished: no skill or agent takes over)
    if (taken.some((e) => !e.handoff || e.handoff.skill === 'done')) return;
    for (const kind of ['skill', 'agent'] as const) {
      const named = step[kind];
      if (named === undefined) continue;
      const agrees = taken.some((e) => e.handoff![kind] === named);
      if (agrees) continue;
      const h = taken[0]!.handoff!;
      this.report('trace-handoff-mismatch', () => ({
        messageId: kind,
        data: { from, to, want: kind === 'skill' ? h.skill : h.agent, got: named, skill: h.skill, agent: h.agent },
        ...fieldAt(step.line, step.text, kind),
        related: [{ message: `handoff ${h.skill} to ${h.agent}`, file: taken[0]!.file, line: h.line, column: h.column }],
      }));
    }
  }

  private spend(state: string, iteration: number | undefined, step: { line: number; text: string }): void {
    let s = this.spent.get(state);
    if (!s) this.spent.set(state, (s = { count: 0, iteration: undefined, reported: false }));
    if (iteration !== undefined && s.iteration === iteration) return;
    s.count++;
    s.iteration = iteration;
    const bound = this.bounds.get(state);
    if (!bound || s.reported || s.count <= bound.halt!.after!) return;
    s.reported = true;
    const halt = bound.halt!;
    const count = s.count;
    this.report('trace-halt-bound-exceeded', () => ({
      messageId: 'exceeded',
      data: { state, count, max: halt.after!, reason: halt.reason, target: bound.to },
      ...fieldAt(step.line, step.text, 'state'),
      related: [{ message: `halt ${halt.reason} after ${halt.after} iterations`, file: bound.file, line: halt.line, column: halt.column }],
    }));
  }

  finish(): TraceResult {
    const last = this.last;
    if (last && !this.halted.has(last.state)) {
      const out = this.ctx.graph.out.get(last.state) ?? [];
      if (out.length > 0) {
        this.report('trace-still-running', () => ({
          messageId: 'running',
          data: { state: last.state, next: [...new Set(out.map((e) => `${e.from} → ${e.to}`))].join(', ') },
          ...fieldAt(last.line, last.text, 'state'),
        }));
      }
    }
    return { diagnostics: this.sink.diagnostics(), lines: this.lines, steps: this.steps };
  }
}
