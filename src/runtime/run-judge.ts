/**
 * A run judged move by move against the contract, whatever recorded it: the steps of a trace
 * (`loopkit trace`, `trace --follow`), the versions of a state file (`loopkit watch`), the runs
 * `coverage` measures. Every move is judged by `judgeMove` (graph/moves.ts), the one answer to
 * "what is legal from this state"; what the judge adds is the run's memory: the state it is in,
 * the iterations it spent in each state (for the halt bounds), and where it ended.
 *
 * A step may leave its state uncertain: a state file whose value stands for several states
 * (`in_progress` for loop-scoring, loop-iterating and loop-verifying) puts the run in one of them.
 * The judge then keeps every state the run may be in: a move is legal when some of them has a
 * declared move to some state of the new step, and the run is afterwards in the states so reached.
 * Only what is certain is reported or counted — an undeclared move when none of the pairs is
 * declared, a handoff when the move is certain, iterations only in a state the run is certainly in.
 *
 * Constant memory per step: the states the run may be in, a counter per state of the graph.
 */
import type { Related } from '../engine/diagnostic.js';
import type { Edge, StateGraph } from '../graph/graph.js';
import { judgeMove, legalMoves, moveNames, type HandoffProblem, type JudgeOptions, type Verdict } from '../graph/moves.js';
import { agentNamed, skillAccess, type AgentDef } from '../model/agents.js';
import { didYouMean } from '../util/closest.js';
import { someOf } from '../util/text.js';

export interface RunStep {
  /** the state of the step; several when the recording could not tell which of them (in the order written) */
  states: readonly string[];
  /** what the recording wrote, when it stands for several states (`in_progress`) */
  label?: string;
  skill?: string;
  agent?: string;
  iteration?: number;
}

/** A problem of the run; `describe` (called only when it will be listed) gives its message data and the contract's places. */
export interface Finding {
  code:
    | 'trace-unknown-state'
    | 'trace-undeclared-transition'
    | 'trace-handoff-mismatch'
    | 'trace-handoff-unhandled'
    | 'trace-halt-bound-exceeded'
    | 'trace-agent-skill-denied'
    | 'trace-still-running';
  /** the field of the step the problem is about (where it is reported) */
  field: 'state' | 'skill' | 'agent';
  describe(): { messageId: string; data: Record<string, string | number>; related: Related[] };
}

/** What a step did, for coverage. */
export interface StepOutcome {
  /** the declared transitions the step certainly took (one move, maybe declared by several skills; a declared self-loop for another iteration in the state) */
  taken: readonly Edge[];
  /** transitions the step may have taken (the run's state was uncertain) */
  possible: readonly Edge[];
}

export interface RunJudgeOptions {
  /** the graph the moves are judged on: the combined graph, or one skill's transitions */
  graph: StateGraph;
  /** what the run is judged against, in messages (`the contract`, "skill `x`") */
  scope: string;
  /** for the check that a handoff goes to a skill that handles the new state (see judgeMove) */
  handlers?: JudgeOptions['handlers'];
  /** the project's agents (model/agents.ts): a step naming an agent and a skill its file denies is reported */
  agents?: readonly AgentDef[];
  report: (finding: Finding) => void;
}

const NOTHING: StepOutcome = { taken: [], possible: [] };

/** A state, or the states a step may be in, for messages: `'a'`; `'in_progress' (a, b or c)`; `'a' or 'b'`. */
export function statesText(states: readonly string[], label?: string): string {
  if (states.length === 1) return `'${states[0]}'`;
  const list = (quote: (s: string) => string) => `${states.slice(0, -1).map(quote).join(', ')} or ${quote(states[states.length - 1]!)}`;
  return label !== undefined ? `'${label}' (${list((s) => s)})` : list((s) => `'${s}'`);
}

const declared = (e: Edge): Related => ({ message: `declared: ${e.from} → ${e.to}`, file: e.file, line: e.line, column: e.column });

export class RunJudge {
  /** the states the run may be in (null: not known — before the first step, or after a step that could not be read) */
  private current: readonly string[] | null = null;
  private currentLabel: string | undefined;
  /** the states of the last step whose states are known */
  private last: readonly string[] | null = null;
  /** per state: iterations the run spent in it, and the `iteration` of the last step counted */
  private readonly spent = new Map<string, { count: number; iteration: number | undefined; reported: boolean }>();

  constructor(private readonly options: RunJudgeOptions) {}

  /** The states the run may be in now (empty when not known). */
  get states(): readonly string[] {
    return this.current ?? [];
  }

  /** Iterations the run spent in `state` so far. */
  spentIn(state: string): number {
    return this.spent.get(state)?.count ?? 0;
  }

  /** A step whose state could not be read: the next move is not judged. */
  lose(): void {
    this.current = null;
  }

  /** the agent-skill pairs reported already (once each per run) */
  private readonly denied = new Set<string>();

  /** A step that names an agent and a skill its file may not load (trace-agent-skill-denied). */
  private agentMayLoad(step: RunStep): void {
    const { agents } = this.options;
    if (!agents || step.agent === undefined || step.skill === undefined) return;
    const agent = agentNamed(agents, step.agent);
    const pair = `${step.agent}\u0000${step.skill}`;
    if (!agent || this.denied.has(pair) || skillAccess(agent, step.skill).verdict !== 'denied') return;
    this.denied.add(pair);
    const skill = step.skill;
    this.options.report({
      code: 'trace-agent-skill-denied',
      field: 'agent',
      describe: () => ({
        messageId: 'denied',
        data: {
          agent: agent.name,
          skill,
          file: agent.file,
          why:
            agent.loader === 'opencode'
              ? 'OpenCode refuses a skill the agent’s `permission.skill` denies.'
              : 'A Claude Code subagent loads the skills its `skills:` lists.',
        },
        related: agent.permissionAt
          ? [
              {
                message: `${agent.name}: what it may load`,
                file: agent.file,
                line: agent.permissionAt.line,
                column: agent.permissionAt.column,
              },
            ]
          : [],
      }),
    });
  }

  step(step: RunStep): StepOutcome {
    const { graph } = this.options;
    this.agentMayLoad(step);
    const known = step.states.filter((s) => graph.out.has(s));
    if (known.length === 0) {
      const state = step.label ?? step.states[0] ?? '';
      this.options.report({
        code: 'trace-unknown-state',
        field: 'state',
        describe: () => {
          const states = graph.states;
          return {
            messageId: 'unknown',
            data: { state, scope: this.options.scope, suggestion: didYouMean(state, states), states: states.join(', ') },
            related: [],
          };
        },
      });
      this.current = null;
      this.last = null;
      return NOTHING;
    }
    const from = this.current;
    const fromLabel = this.currentLabel;
    let outcome = NOTHING;
    let now: readonly string[] = known;
    if (from !== null) {
      const judged = this.move(from, fromLabel, known, step);
      outcome = judged.outcome;
      now = judged.now;
    }
    this.current = now;
    this.currentLabel = now.length > 1 && now.length === known.length ? step.label : undefined;
    this.last = now;
    // iterations are counted only in a state the run is certainly in
    if (now.length === 1 && this.spend(now[0]!, step.iteration)) {
      // another iteration in the same state takes its declared self-loop
      if (from !== null && from.length === 1 && from[0] === now[0] && outcome.taken.length === 0) {
        outcome = { taken: legalMoves(graph, now[0]!).moves.find((m) => m.to === now[0])?.edges ?? [], possible: [] };
      }
    }
    return outcome;
  }

  /** Judge the move from the states the run may be in to those of the step. */
  private move(
    from: readonly string[],
    fromLabel: string | undefined,
    to: readonly string[],
    step: RunStep,
  ): { outcome: StepOutcome; now: readonly string[] } {
    const { graph, handlers } = this.options;
    const by = { ...(step.skill !== undefined ? { skill: step.skill } : {}), ...(step.agent !== undefined ? { agent: step.agent } : {}) };
    const allowed: { from: string; to: string; verdict: Verdict & { allowed: true } }[] = [];
    for (const f of from) {
      for (const t of to) {
        const verdict = judgeMove(graph, f, t, { by, ...(handlers ? { handlers } : {}) });
        if (verdict.allowed) allowed.push({ from: f, to: t, verdict });
      }
    }
    if (allowed.length === 0) {
      this.undeclared(from, fromLabel, to, step.label);
      return { outcome: NOTHING, now: to };
    }
    const now = to.filter((t) => allowed.some((a) => a.to === t));
    const moves = allowed.filter((a) => a.verdict.kind === 'transition');
    if (allowed.length === 1 && moves.length === 1) {
      const { verdict } = moves[0]!;
      if (verdict.kind === 'transition') for (const p of verdict.handoff) this.handoff(p);
      return { outcome: { taken: verdict.edges, possible: [] }, now };
    }
    if (from.length === 1 && to.length === 1) return { outcome: NOTHING, now };
    return { outcome: { taken: [], possible: [...new Set(allowed.flatMap((a) => a.verdict.edges))] }, now };
  }

  private undeclared(from: readonly string[], fromLabel: string | undefined, to: readonly string[], toLabel: string | undefined): void {
    const { graph } = this.options;
    const legal = from.map((s) => legalMoves(graph, s));
    const terminal = legal.every((l) => l.terminal);
    this.options.report({
      code: 'trace-undeclared-transition',
      field: 'state',
      describe: () => ({
        messageId: terminal ? 'fromTerminal' : 'undeclared',
        data: {
          from: statesText(from, fromLabel),
          to: statesText(to, toLabel),
          allowed: [...new Set(legal.flatMap(moveNames))].join(', '),
        },
        related: from
          .flatMap((s) => graph.out.get(s) ?? [])
          .slice(0, 5)
          .map(declared),
      }),
    });
  }

  private handoff(p: HandoffProblem): void {
    const e = p.edge;
    const h = e.handoff!;
    const directive: Related = { message: `handoff ${h.skill} to ${h.agent}`, file: e.file, line: h.line, column: h.column };
    if (p.kind === 'mismatch') {
      this.options.report({
        code: 'trace-handoff-mismatch',
        field: p.field,
        describe: () => ({
          messageId: p.field,
          data: { from: e.from, to: e.to, want: p.want, got: p.got, skill: h.skill, agent: h.agent },
          related: [directive],
        }),
      });
      return;
    }
    this.options.report({
      code: 'trace-handoff-unhandled',
      field: 'state',
      describe: () => ({
        messageId: 'unhandled',
        data: {
          from: e.from,
          to: e.to,
          skill: p.skill,
          handlers: someOf(p.handlers, (s) => `\`${s}\``),
        },
        related: [directive],
      }),
    });
  }

  /** Count an iteration in `state` (steps that repeat the last counted `iteration` count once); true when it counted. */
  private spend(state: string, iteration: number | undefined): boolean {
    let s = this.spent.get(state);
    if (!s) this.spent.set(state, (s = { count: 0, iteration: undefined, reported: false }));
    if (iteration !== undefined && s.iteration === iteration) return false;
    s.count++;
    s.iteration = iteration;
    const bound = legalMoves(this.options.graph, state).bound;
    if (!bound || s.reported || s.count <= bound.halt!.after!) return true;
    s.reported = true;
    const halt = bound.halt!;
    const count = s.count;
    this.options.report({
      code: 'trace-halt-bound-exceeded',
      field: 'state',
      describe: () => ({
        messageId: 'exceeded',
        data: { state, count, max: halt.after!, reason: halt.reason, target: bound.to },
        related: [
          { message: `halt ${halt.reason} after ${halt.after} iterations`, file: bound.file, line: halt.line, column: halt.column },
        ],
      }),
    });
    return true;
  }

  /** The end of the run: reported as still running when it is certainly in neither a terminal nor a halted state. */
  finish(): void {
    const last = this.last;
    if (last === null) return;
    const legal = last.map((s) => legalMoves(this.options.graph, s));
    if (legal.some((l) => l.halted || l.moves.length === 0)) return;
    this.options.report({
      code: 'trace-still-running',
      field: 'state',
      describe: () => ({
        messageId: 'running',
        data: {
          state: statesText(last, last.length > 1 ? this.currentLabel : undefined),
          next: [...new Set(legal.flatMap(moveNames))].join(', '),
        },
        related: [],
      }),
    });
  }
}
