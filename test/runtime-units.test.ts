/**
 * The runtime modules (src/runtime/) in the test process, one at a time: the registry of runtime
 * codes and its diagnostic sink, coverage tallies, the run judge, the trace reader, the state-file
 * check and the state-file run — each with whole diagnostics, exact messages and exact places, on
 * small graphs and schemas built here (no project on disk, no child process).
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../src/engine/diagnostic.js';
import { graphFromEdges, type StateGraph } from '../src/graph/graph.js';
import type { AgentDef } from '../src/model/agents.js';
import { compileSchema, type CompiledSchema } from '../src/model/schema.js';
import type { Project, Skill } from '../src/model/types.js';
import { parseJson } from '../src/parse/data.js';
import { DiagnosticSink, MAX_SHOWN, runtimeDiagnostic, runtimeTemplate } from '../src/runtime/codes.js';
import { CoverageCounter, isHaltBound, percent } from '../src/runtime/coverage.js';
import { RunJudge, type Finding, type RunStep } from '../src/runtime/run-judge.js';
import { checkStateFile } from '../src/runtime/state-check.js';
import { currentStateField, StateRun, statesOfValue, versionStep } from '../src/runtime/state-run.js';
import { TraceChecker, type TraceResult } from '../src/runtime/trace-check.js';
import { declaredEdge } from './helpers/edges.js';

/** A transition declared on `line` of the skill's LOOP.md (column 1; the handoff or halt on the next line). */
const edge = declaredEdge;
const halt = (reason: string, after: number | null, line: number) => ({ halt: { reason, after, line, column: 3, reasonColumn: 8 } });
const handoff = (skill: string, agent: string, line: number) => ({ handoff: { skill, agent, line, column: 3, skillColumn: 11 } });

const CONFIG = { enforced_states: [], halt_reasons: ['stall'] };

/** A judge on `graph` that records every finding, described. */
function judgeOn(graph: StateGraph, agents?: readonly AgentDef[]) {
  const findings: ({ code: string; field: string } & ReturnType<Finding['describe']>)[] = [];
  const j = new RunJudge({
    graph,
    scope: 'the contract',
    handlers: { graph, config: CONFIG, skills: new Set(graph.edges.map((e) => e.skill)) },
    ...(agents ? { agents } : {}),
    report: (f) => findings.push({ code: f.code, field: f.field, ...f.describe() }),
  });
  return { j, findings };
}
const one = (state: string, extra: Partial<RunStep> = {}): RunStep => ({ states: [state], ...extra });

describe('runtime codes: runtimeDiagnostic, runtimeTemplate, the sink', () => {
  const base = {
    code: 'trace-unknown-skill',
    messageId: 'unknown',
    data: { skill: 'x', suggestion: '', skills: 'a, b' },
    file: 'run.jsonl',
  };

  it('a report with every optional part: pointer, skill, related, data; the column only with a line', () => {
    const related = [{ message: 'here', file: 'f.md', line: 2, column: 3 }];
    expect(runtimeDiagnostic({ ...base, line: 4, column: 9, pointer: '/skill', skill: 'a', related })).toStrictEqual({
      code: 'trace-unknown-skill',
      severity: 'error',
      message: "Skill 'x' is not a skill of the project",
      help: 'Skills of the project: a, b.',
      file: 'run.jsonl',
      line: 4,
      column: 9,
      messageId: 'unknown',
      pointer: '/skill',
      skill: 'a',
      related,
      data: { skill: 'x', suggestion: '', skills: 'a, b' },
    });
  });

  it('a report without the optional parts has none of their keys; an empty related list is left out; no line, no column', () => {
    expect(runtimeDiagnostic({ ...base, line: null, column: 7, related: [] })).toStrictEqual({
      code: 'trace-unknown-skill',
      severity: 'error',
      message: "Skill 'x' is not a skill of the project",
      help: 'Skills of the project: a, b.',
      file: 'run.jsonl',
      line: null,
      column: null,
      messageId: 'unknown',
      data: { skill: 'x', suggestion: '', skills: 'a, b' },
    });
    // a report from untyped code without data: no data key
    const bare = runtimeDiagnostic({ ...base, data: undefined as unknown as Record<string, string>, line: 1, column: 1 });
    expect(Object.keys(bare)).toEqual(['code', 'severity', 'message', 'help', 'file', 'line', 'column', 'messageId']);
  });

  it('an unknown code or message is an error that names it', () => {
    expect(() => runtimeDiagnostic({ ...base, code: 'no-such-code', line: 1, column: 1 })).toThrow(
      new Error("unknown runtime code 'no-such-code'"),
    );
    expect(() => runtimeDiagnostic({ ...base, messageId: 'nope', line: 1, column: 1 })).toThrow(
      new Error("runtime code trace-unknown-skill has no message 'nope'"),
    );
  });

  it('runtimeTemplate: a message of a code, the "N more" message of every code, nothing for an unknown one', () => {
    expect(runtimeTemplate('trace-unknown-skill', 'unknown')).toBe("Skill '{skill}' is not a skill of the project{suggestion}");
    expect(runtimeTemplate('trace-unknown-skill', '$more')).toBe(
      '{count} more {code} problems are not listed (the first of them at line {line})',
    );
    expect(runtimeTemplate('no-such-code', '$more')).toBe('{count} more {code} problems are not listed (the first of them at line {line})');
    expect(runtimeTemplate('trace-unknown-skill', '')).toBeUndefined();
    expect(runtimeTemplate('trace-unknown-skill', 'nope')).toBeUndefined();
  });

  it('the sink lists MAX_SHOWN of a code and counts the rest from the first unlisted; a code under the limit gets no "more" line', () => {
    const heard: string[] = [];
    const sink = new DiagnosticSink((d) => heard.push(`${d.code}:${d.line}`));
    let made = 0;
    for (let i = 1; i <= MAX_SHOWN + 3; i++)
      sink.report('trace-unknown-skill', () => {
        made++;
        return { ...base, line: i, column: 2 };
      });
    sink.report('trace-still-running', () => ({
      code: 'trace-still-running',
      messageId: 'running',
      data: { state: "'a'", next: 'a → b' },
      file: 'run.jsonl',
      line: 5,
      column: 1,
    }));
    expect(made).toBe(MAX_SHOWN + 1);
    const all = sink.diagnostics();
    expect(all).toHaveLength(MAX_SHOWN + 2);
    expect(heard).toHaveLength(MAX_SHOWN + 1);
    expect(all[MAX_SHOWN + 1]).toStrictEqual({
      code: 'trace-unknown-skill',
      severity: 'error',
      message: '3 more trace-unknown-skill problems are not listed (the first of them at line 101)',
      help: 'Fix the ones listed first; they often cause the rest.',
      file: 'run.jsonl',
      line: MAX_SHOWN + 1,
      column: 2,
      messageId: '$more',
      data: { count: 3, line: MAX_SHOWN + 1 },
    });
  });
});

describe('coverage tallies', () => {
  it('a halt bound is a halt with a number of iterations', () => {
    expect(isHaltBound(edge('a', 'halted-stall', 's', 1, halt('stall', 3, 2)))).toBe(true);
    expect(isHaltBound(edge('a', 'halted-stall', 's', 1, halt('stall', null, 2)))).toBe(false);
    expect(isHaltBound(edge('a', 'b', 's', 1))).toBe(false);
  });

  it('percent: to one decimal; null when nothing is declared', () => {
    expect(percent({ declared: 3, exercised: 1, possible: 0 })).toBe(33.3);
    expect(percent({ declared: 8, exercised: 7, possible: 0 })).toBe(87.5);
    expect(percent({ declared: 0, exercised: 0, possible: 0 })).toBeNull();
  });

  it('a halt without a bound is no halt bound in the tallies and has no peak', () => {
    const bounded = edge('a', 'halted-stall', 's', 1, halt('stall', 2, 2));
    const unbounded = edge('b', 'halted-stall', 's', 3, halt('stall', null, 4));
    const counter = new CoverageCounter(graphFromEdges([bounded, unbounded]), ['s']);
    counter.endRun(() => 1);
    const result = counter.result();
    expect(result.total.halts).toEqual({ declared: 1, exercised: 0, possible: 0 });
    expect(result.edges.map((c) => c.peak)).toEqual([1, undefined]);
  });
});

/** The contract the run judge and the trace reader are tried on. */
const P = [
  edge('plan', 'build', 'planner', 1, handoff('builder', 'dev-agent', 2)),
  edge('build', 'review', 'builder', 3),
  edge('build', 'halted-stall', 'builder', 4, halt('stall', 2, 5)),
  edge('review', 'review', 'reviewer', 6),
  edge('review', 'done', 'reviewer', 7),
  edge('review', 'build', 'reviewer', 8),
  edge('ship', 'check', 'shipper', 9, handoff('reviewer', 'qa-agent', 10)),
  edge('check', 'done', 'shipper', 11),
  edge('loop', 'loop', 'looper', 12),
  edge('loop', 'halted-stall', 'looper', 13, halt('stall', 1, 14)),
] as const;
const G = graphFromEdges(P);
const STATES = 'plan, build, review, halted-stall, done, ship, check, loop';

const agent = (a: Partial<AgentDef>): AgentDef =>
  ({ frontmatter: null, lenient: false, skillRules: null, preload: null, permissionAt: null, ...a }) as AgentDef;
const AGENTS = [
  agent({
    name: 'dev-agent',
    file: '.opencode/agent/dev-agent.md',
    loader: 'opencode',
    skillRules: [{ pattern: '*', action: 'deny', line: 4, column: 5 }],
    permissionAt: { line: 3, column: 3 },
  }),
  agent({
    name: 'qa-agent',
    file: '.claude/agents/qa-agent.md',
    loader: 'claude-code',
    preload: [{ name: 'reviewer', line: 2, column: 5 }],
  }),
];

describe('the run judge', () => {
  it('knows no state before the first step; an empty step is an unknown state named by nothing, with every state of the graph', () => {
    const { j, findings } = judgeOn(G);
    expect(j.states).toEqual([]);
    expect(j.step({ states: [] })).toEqual({ taken: [], possible: [] });
    expect(findings).toEqual([
      {
        code: 'trace-unknown-state',
        field: 'state',
        messageId: 'unknown',
        data: { state: '', scope: 'the contract', suggestion: '', states: STATES },
        related: [],
      },
    ]);
  });

  it('an undeclared move: from, to, the moves the contract allows, and the declarations as related places', () => {
    const { j, findings } = judgeOn(G);
    j.step(one('build'));
    expect(j.step(one('done'))).toEqual({ taken: [], possible: [] });
    expect(findings).toEqual([
      {
        code: 'trace-undeclared-transition',
        field: 'state',
        messageId: 'undeclared',
        data: { from: "'build'", to: "'done'", allowed: 'build → review, build → halted-stall' },
        related: [
          { message: 'declared: build → review', file: 'skills/builder/LOOP.md', line: 3, column: 1 },
          { message: 'declared: build → halted-stall', file: 'skills/builder/LOOP.md', line: 4, column: 1 },
        ],
      },
    ]);
  });

  it('a move out of a terminal state and another is undeclared, not out of a terminal state', () => {
    const { j, findings } = judgeOn(G);
    j.step({ states: ['done', 'build'] });
    j.step(one('ship'));
    expect(findings).toEqual([
      {
        code: 'trace-undeclared-transition',
        field: 'state',
        messageId: 'undeclared',
        data: { from: "'done' or 'build'", to: "'ship'", allowed: 'build → review, build → halted-stall' },
        related: [
          { message: 'declared: build → review', file: 'skills/builder/LOOP.md', line: 3, column: 1 },
          { message: 'declared: build → halted-stall', file: 'skills/builder/LOOP.md', line: 4, column: 1 },
        ],
      },
    ]);
  });

  it('a handoff to another skill than the step names, and one to a skill that does not handle the new state: the directive as related place', () => {
    const { j, findings } = judgeOn(G);
    j.step(one('plan'));
    expect(j.step(one('build', { skill: 'planner', agent: 'dev-agent' }))).toEqual({ taken: [P[0]], possible: [] });
    j.step(one('ship'));
    j.step(one('check'));
    expect(findings).toEqual([
      {
        code: 'trace-handoff-mismatch',
        field: 'skill',
        messageId: 'skill',
        data: { from: 'plan', to: 'build', want: 'builder', got: 'planner', skill: 'builder', agent: 'dev-agent' },
        related: [{ message: 'handoff builder to dev-agent', file: 'skills/planner/LOOP.md', line: 2, column: 3 }],
      },
      {
        code: 'trace-undeclared-transition',
        field: 'state',
        messageId: 'undeclared',
        data: { from: "'build'", to: "'ship'", allowed: 'build → review, build → halted-stall' },
        related: [
          { message: 'declared: build → review', file: 'skills/builder/LOOP.md', line: 3, column: 1 },
          { message: 'declared: build → halted-stall', file: 'skills/builder/LOOP.md', line: 4, column: 1 },
        ],
      },
      {
        code: 'trace-handoff-unhandled',
        field: 'state',
        messageId: 'unhandled',
        data: { from: 'ship', to: 'check', skill: 'reviewer', handlers: '`shipper`' },
        related: [{ message: 'handoff reviewer to qa-agent', file: 'skills/shipper/LOOP.md', line: 10, column: 3 }],
      },
    ]);
  });

  it('a step that may be in several states keeps the states reached, and its label only while all of them may be', () => {
    const { j, findings } = judgeOn(G);
    j.step(one('build'));
    // build → review is declared, build → done is not: the run is in review, certainly
    expect(j.step({ states: ['review', 'done'], label: 'LATE' })).toEqual({ taken: [P[1]], possible: [] });
    expect(j.states).toEqual(['review']);
    // review → review (a stay), review → done; not review → plan: in review or done, no longer "OPEN"
    expect(j.step({ states: ['review', 'done', 'plan'], label: 'OPEN' })).toEqual({ taken: [], possible: [P[3], P[4]] });
    expect(j.states).toEqual(['review', 'done']);
    j.step(one('ship'));
    expect(findings.map((f) => [f.code, f.data.from, f.data.to])).toEqual([
      ['trace-undeclared-transition', "'review' or 'done'", "'ship'"],
    ]);
  });

  it('a move from one of several states to one: possible edges of every declared pair, none taken', () => {
    const { j } = judgeOn(G);
    j.step(one('build'));
    j.step({ states: ['build', 'review'], label: 'WORKING' });
    expect(j.step(one('review'))).toEqual({ taken: [], possible: [P[1], P[3]] });
  });

  it('a run in one of several states that steps to the first of them has not certainly taken its self-loop', () => {
    const { j } = judgeOn(G);
    j.step(one('build'));
    // build → review declared, build → build a stay: in review or build, review first
    j.step({ states: ['review', 'build'], label: 'WORKING' });
    expect(j.states).toEqual(['review', 'build']);
    // review → review (the self-loop) or build → review: both possible, neither taken
    expect(j.step(one('review'))).toEqual({ taken: [], possible: [P[3], P[1]] });
  });

  it('an undeclared move into a state with a self-loop takes nothing', () => {
    const { j, findings } = judgeOn(G);
    j.step(one('build'));
    expect(j.step(one('loop'))).toEqual({ taken: [], possible: [] });
    expect(findings.map((f) => [f.code, f.data.from, f.data.to])).toEqual([['trace-undeclared-transition', "'build'", "'loop'"]]);
  });

  it('a step that repeats the iteration number stays without taking the self-loop; the next iteration takes it', () => {
    const { j } = judgeOn(G);
    expect(j.step(one('review', { iteration: 1 }))).toEqual({ taken: [], possible: [] });
    expect(j.step(one('review', { iteration: 1 }))).toEqual({ taken: [], possible: [] });
    expect(j.spentIn('review')).toBe(1);
    expect(j.step(one('review', { iteration: 2 }))).toEqual({ taken: [P[3]], possible: [] });
    expect(j.spentIn('review')).toBe(2);
  });

  it('the iteration that spends a halt bound still takes the self-loop; the bound is reported once', () => {
    const { j, findings } = judgeOn(G);
    j.step(one('loop'));
    expect(j.step(one('loop'))).toEqual({ taken: [P[8]], possible: [] });
    expect(j.step(one('loop'))).toEqual({ taken: [P[8]], possible: [] });
    expect(findings).toEqual([
      {
        code: 'trace-halt-bound-exceeded',
        field: 'state',
        messageId: 'exceeded',
        data: { state: 'loop', count: 2, max: 1, reason: 'stall', target: 'halted-stall' },
        related: [{ message: 'halt stall after 1 iterations', file: 'skills/looper/LOOP.md', line: 14, column: 3 }],
      },
    ]);
  });

  it('a run still running names the moves it may take, each once', () => {
    const { j, findings } = judgeOn(G);
    j.step(one('review'));
    j.finish();
    expect(findings).toEqual([
      {
        code: 'trace-still-running',
        field: 'state',
        messageId: 'running',
        data: { state: "'review'", next: 'review → review, review → done, review → build' },
        related: [],
      },
    ]);
  });

  it('an agent whose file denies the skill of its step: once per agent and skill, with why and where the file says so', () => {
    const { j, findings } = judgeOn(G, AGENTS);
    for (const [agentName, skill] of [
      ['dev-agent', 'planner'],
      ['dev-agent', 'planner'],
      ['dev-agent', 'builder'],
      ['qa-agent', 'builder'],
      ['qa-agent', 'reviewer'],
      ['nobody', 'builder'],
    ])
      j.step(one('review', { agent: agentName, skill }));
    j.step(one('review', { skill: 'builder' }));
    const denied = (skill: string) => ({
      code: 'trace-agent-skill-denied',
      field: 'agent',
      messageId: 'denied',
      data: {
        agent: 'dev-agent',
        skill,
        file: '.opencode/agent/dev-agent.md',
        why: 'OpenCode refuses a skill the agent’s `permission.skill` denies.',
      },
      related: [{ message: 'dev-agent: what it may load', file: '.opencode/agent/dev-agent.md', line: 3, column: 3 }],
    });
    expect(findings).toEqual([
      denied('planner'),
      denied('builder'),
      {
        code: 'trace-agent-skill-denied',
        field: 'agent',
        messageId: 'denied',
        data: {
          agent: 'qa-agent',
          skill: 'builder',
          file: '.claude/agents/qa-agent.md',
          why: 'A Claude Code subagent loads the skills its `skills:` lists.',
        },
        related: [],
      },
    ]);
  });

  it('an undeclared move lists at most five declarations', () => {
    const targets = ['a', 'b', 'c', 'd', 'e', 'f'];
    const hub = graphFromEdges([...targets.map((to, i) => edge('hub', to, 'h', i + 1)), edge('zz', 'hub', 'h', 7)]);
    const { j, findings } = judgeOn(hub);
    j.step(one('hub'));
    j.step(one('zz'));
    expect(findings.map((f) => [f.messageId, f.related.map((r) => r.message)])).toEqual([
      ['undeclared', ['declared: hub → a', 'declared: hub → b', 'declared: hub → c', 'declared: hub → d', 'declared: hub → e']],
    ]);
  });
});

const PROJECT = {
  skills: ['planner', 'builder', 'reviewer', 'shipper', 'looper'].map((name) => ({ name })),
  config: CONFIG,
  agents: [],
} as unknown as Project;

/** Each text a line of the trace (1, 2, …); `{ unreadable }` a line that could not be read as text. */
function runTrace(lines: (string | { unreadable: 'tooLong' | 'notUtf8' })[]): TraceResult {
  const checker = new TraceChecker({ project: PROJECT, graph: G, skill: null, file: 'run.jsonl' });
  lines.forEach((l, i) => (typeof l === 'string' ? checker.line(i + 1, l) : checker.unreadable(i + 1, l.unreadable, 1000)));
  return checker.finish();
}
/** A diagnostic of the trace run.jsonl. */
function traceDiag(
  code: string,
  severity: Diagnostic['severity'],
  messageId: string,
  message: string,
  help: string,
  line: number,
  column: number,
  extra: Partial<Diagnostic>,
): Diagnostic {
  return { code, severity, message, help, file: 'run.jsonl', line, column, messageId, ...extra };
}
const BAD_FIELD_HELP =
  'Steps are {"state": string (or a list of the states the step may be in), "skill"?: string, "agent"?: string, "iteration"?: whole number ≥ 0, "event"?: string}.';

describe('the trace reader', () => {
  it('a step in a list of states (repeats once) is read; the run is still running in them', () => {
    expect(runTrace(['{"state": ["build", "build", "review"]}'])).toStrictEqual({
      diagnostics: [
        traceDiag(
          'trace-still-running',
          'info',
          'running',
          "The run is still running: its last step is in 'build' or 'review', neither a terminal nor a halted state",
          "From 'build' or 'review' the contract continues with: build → review, build → halted-stall, review → review, review → done, review → build.",
          1,
          11,
          {
            pointer: '/state',
            data: {
              state: "'build' or 'review'",
              next: 'build → review, build → halted-stall, review → review, review → done, review → build',
            },
          },
        ),
      ],
      lines: 1,
      steps: 1,
    });
  });

  it('an empty list of states, or a list with something else than a state, is a malformed step', () => {
    const bad = (line: number, got: string) =>
      traceDiag(
        'trace-malformed-step',
        'error',
        'badField',
        `\`state\` of the step on line ${line} is ${got}; expected a non-empty string, or a list of them`,
        BAD_FIELD_HELP,
        line,
        11,
        { pointer: '/state', data: { line, field: 'state', got, expected: 'a non-empty string, or a list of them' } },
      );
    expect(runTrace(['{"state": []}', '{"state": ["build", 3]}', '{"state": [""]}'])).toStrictEqual({
      diagnostics: [bad(1, 'a list'), bad(2, 'a list'), bad(3, 'a list')],
      lines: 3,
      steps: 0,
    });
  });

  it('an undeclared move names, as related places, where the run was and what the contract declares; other findings do not', () => {
    const result = runTrace(['{"state": "build"}', '{"state": "done"}', '{"state":   "nowhere"}']);
    expect(result).toStrictEqual({
      diagnostics: [
        traceDiag(
          'trace-undeclared-transition',
          'error',
          'undeclared',
          "The run moved from 'build' to 'done', which is not a declared transition",
          "From 'build' the contract allows: build → review, build → halted-stall.",
          2,
          11,
          {
            pointer: '/state',
            related: [
              { message: "the run was in 'build'", file: 'run.jsonl', line: 1, column: 11 },
              { message: 'declared: build → review', file: 'skills/builder/LOOP.md', line: 3, column: 1 },
              { message: 'declared: build → halted-stall', file: 'skills/builder/LOOP.md', line: 4, column: 1 },
            ],
            data: { from: "'build'", to: "'done'", allowed: 'build → review, build → halted-stall' },
          },
        ),
        traceDiag(
          'trace-unknown-state',
          'error',
          'unknown',
          "State 'nowhere' is not a state of the contract",
          `The contract knows these states: ${STATES}.`,
          3,
          13,
          { pointer: '/state', data: { state: 'nowhere', scope: 'the contract', suggestion: '', states: STATES } },
        ),
      ],
      lines: 3,
      steps: 3,
    });
  });

  it('lines that cannot be read as text count as lines, not steps, and say why', () => {
    expect(runTrace([{ unreadable: 'tooLong' }, { unreadable: 'notUtf8' }, '{"state": "done"}'])).toStrictEqual({
      diagnostics: [
        traceDiag(
          'trace-malformed-step',
          'error',
          'tooLong',
          'Line 1 is longer than 1000 bytes; it was skipped',
          'A step is one short JSON object; is a line break missing?',
          1,
          1,
          { data: { line: 1, max: 1000 } },
        ),
        traceDiag('trace-malformed-step', 'error', 'notUtf8', 'Line 2 is not valid UTF-8 text', 'Write the trace as UTF-8.', 2, 1, {
          data: { line: 2, max: 1000 },
        }),
      ],
      lines: 3,
      steps: 1,
    });
  });

  it('blank lines are not read; a line JSON.parse refuses but the located parser reads (a byte order mark) is not valid JSON at column 1', () => {
    expect(runTrace(['   ', '\t', '\uFEFF{"state": "done"}', '{"state": "done"}'])).toStrictEqual({
      diagnostics: [
        traceDiag(
          'trace-malformed-step',
          'error',
          'json',
          'Line 3 is not valid JSON: not valid JSON',
          'A trace is JSON Lines: one JSON object per line.',
          3,
          1,
          { data: { line: 3, reason: 'not valid JSON' } },
        ),
      ],
      lines: 2,
      steps: 1,
    });
  });

  it('a line holding null is not a step object', () => {
    expect(runTrace(['null'])).toStrictEqual({
      diagnostics: [
        traceDiag(
          'trace-malformed-step',
          'error',
          'notObject',
          'Line 1 holds null, not a step object',
          'Write a step as {"state": "…"} (skill, agent, iteration and event are optional).',
          1,
          1,
          { data: { line: 1, got: 'null' } },
        ),
      ],
      lines: 1,
      steps: 0,
    });
  });

  it('an unknown skill names the skills of the project', () => {
    const skills = 'planner, builder, reviewer, shipper, looper';
    expect(runTrace(['{"state": "done", "skill": "buildr"}'])).toStrictEqual({
      diagnostics: [
        traceDiag(
          'trace-unknown-skill',
          'error',
          'unknown',
          "Skill 'buildr' is not a skill of the project; did you mean 'builder'?",
          `Skills of the project: ${skills}.`,
          1,
          28,
          { pointer: '/skill', data: { skill: 'buildr', suggestion: "; did you mean 'builder'?", skills } },
        ),
      ],
      lines: 1,
      steps: 1,
    });
  });
});

const SKILL = { name: 'keeper', loop: { file: { path: 'skills/keeper/LOOP.md' } } } as unknown as Skill;

/** A schema of rows `field | type` (row i on line 10 + i, the field at column 3), a state-value table, the skill's states. */
function schemaOf(rows: [string, string][], states: string[] = [], values: [string, string][] = []): CompiledSchema {
  return compileSchema(
    {
      line: 9,
      column: 1,
      fields: rows.map(([field, type], i) => ({
        field: { text: field, line: 10 + i, column: 3 },
        type: { text: type, line: 10 + i, column: 15 },
        description: '',
      })),
      values: values.map(([value, state], i) => ({
        value: { text: value, line: 30 + i, column: 3 },
        state: { text: state, line: 30 + i, column: 15 },
      })),
    },
    new Set(states),
  );
}
const stateFile = (schema: CompiledSchema, text: string) =>
  checkStateFile({ skill: SKILL, schema, file: 'state.json', format: 'JSON', parsed: parseJson(text) });
/** A diagnostic of the state file state.json of skill keeper. */
function stateDiag(
  code: string,
  severity: Diagnostic['severity'],
  messageId: string,
  message: string,
  help: string,
  at: [number, number, string],
  data: Record<string, string | number>,
  related?: [string, number][],
): Diagnostic {
  return {
    code,
    severity,
    message,
    help,
    file: 'state.json',
    line: at[0],
    column: at[1],
    messageId,
    pointer: at[2],
    skill: 'keeper',
    ...(related ? { related: related.map(([m, line]) => ({ message: m, file: 'skills/keeper/LOOP.md', line, column: 3 })) } : {}),
    data,
  };
}

describe('the state-file check', () => {
  it('counts every value checked; a value of the wrong type names the row that declares it', () => {
    const schema = schemaOf([
      ['count', 'int'],
      ['name', 'str'],
      ['meta', 'map'],
    ]);
    expect(stateFile(schema, '{"count": "x", "name": "n", "meta": {}}')).toStrictEqual({
      diagnostics: [
        stateDiag(
          'state-file-wrong-type',
          'error',
          'type',
          '`/count` is the string "x"; the schema says `int`',
          'Declared as `count | int` in the Loop State Schema of `keeper`.',
          [1, 11, '/count'],
          { pointer: '/count', field: 'count', type: 'int', skill: 'keeper', got: 'the string "x"' },
          [['declared here: count | int', 10]],
        ),
      ],
      checked: 3,
    });
  });

  it('a map field holding a string has the wrong type', () => {
    expect(stateFile(schemaOf([['meta', 'map']]), '{"meta": "x"}').diagnostics.map((d) => d.message)).toEqual([
      '`/meta` is the string "x"; the schema says `map`',
    ]);
  });

  it('a non-string in an enumerated field has the wrong type: no values, no suggestion', () => {
    const [d] = stateFile(schemaOf([['mode', 'fast | slow']]), '{"mode": 3}').diagnostics;
    expect(d).toStrictEqual(
      stateDiag(
        'state-file-wrong-type',
        'error',
        'type',
        '`/mode` is the number 3; the schema says `fast | slow`',
        'Declared as `mode | fast | slow` in the Loop State Schema of `keeper`.',
        [1, 10, '/mode'],
        { pointer: '/mode', field: 'mode', type: 'fast | slow', skill: 'keeper', got: 'the number 3' },
        [['declared here: mode | fast | slow', 10]],
      ),
    );
  });

  it('an unknown state lists the states of the skill, sorted', () => {
    const [d] = stateFile(schemaOf([['status', 'state']], ['zeta', 'alpha', 'mid']), '{"status": "alph"}').diagnostics;
    expect(d).toStrictEqual(
      stateDiag(
        'state-file-unknown-state',
        'error',
        'unknown',
        '`/status` is the string "alph", which is not a state of `keeper`; did you mean \'alpha\'?',
        'States of `keeper`: alpha, mid, zeta.',
        [1, 12, '/status'],
        {
          pointer: '/status',
          field: 'status',
          type: 'state',
          skill: 'keeper',
          got: 'the string "alph"',
          states: 'alpha, mid, zeta',
          suggestion: "; did you mean 'alpha'?",
        },
        [['declared here: status | state', 10]],
      ),
    );
  });

  it('an element only its fields declare must be a list when they are elements: the first field under it is the witness', () => {
    const schema = schemaOf([
      ['grid', 'list'],
      ['grid[][]', 'int'],
    ]);
    expect(stateFile(schema, '{"grid": [5, [1]]}')).toStrictEqual({
      diagnostics: [
        stateDiag(
          'state-file-wrong-type',
          'error',
          'implied',
          '`/grid/0` is the number 5; the schema declares fields under it, so it must be a list',
          'The Loop State Schema of `keeper` declares `grid[][]`.',
          [1, 11, '/grid/0'],
          { pointer: '/grid/0', got: 'the number 5', type: 'list', skill: 'keeper', child: 'grid[][]' },
          [['declared here: grid[][] | int', 11]],
        ),
      ],
      checked: 2,
    });
  });

  it('with no field that compiled, every key of the file is unknown', () => {
    expect(stateFile(schemaOf([['x', 'nosuchtype']]), '{"x": 1}')).toStrictEqual({
      diagnostics: [
        stateDiag(
          'state-file-unknown-field',
          'warning',
          'unknown',
          '`/x` is not described by the Loop State Schema of `keeper`',
          'Describe it in the table (`| x | <type> | … |`), or remove it from the state file.',
          [1, 2, '/x'],
          { pointer: '/x', skill: 'keeper', field: 'x', suggestion: '' },
        ),
      ],
      checked: 0,
    });
  });

  it('an unknown key is suggested only fields the map does not have yet; its field path is under its parent', () => {
    const schema = schemaOf([
      ['status', 'str'],
      ['owner', 'str'],
      ['a', 'map'],
      ['a.b', 'int'],
      ['a.status', 'int'],
    ]);
    const result = stateFile(schema, '{"status": "s", "owner": "o", "statu": 1, "a": {"b": 1, "c": 2, "statu": 3}}');
    expect(result.diagnostics.map((d) => [d.code, d.data])).toEqual([
      ['state-file-unknown-field', { pointer: '/statu', skill: 'keeper', field: 'statu', suggestion: '' }],
      ['state-file-unknown-field', { pointer: '/a/c', skill: 'keeper', field: 'a.c', suggestion: '' }],
      ['state-file-unknown-field', { pointer: '/a/statu', skill: 'keeper', field: 'a.statu', suggestion: '; did you mean `status`?' }],
      ['state-file-missing-field', { pointer: '/a/status', skill: 'keeper', field: 'a.status', type: 'int' }],
    ]);
  });
});

describe('the run told by a state file', () => {
  const rows: [string, string][] = [
    ['a', 'map'],
    ['a.cur', 'state'],
    ['status', 'state'],
  ];
  const root = (text: string) => {
    const parsed = parseJson(text);
    if (!('root' in parsed)) throw new Error(parsed.error.message);
    return parsed.root;
  };

  it('the current-state field is the first top-level field of type state', () => {
    expect(currentStateField(schemaOf(rows, ['alpha']))?.path).toBe('status');
    expect(currentStateField(schemaOf([['mode', 'x | y'], ...rows], ['alpha']))?.path).toBe('status');
    expect(currentStateField(schemaOf([['count', 'int']]))).toBeUndefined();
  });

  it('the states of a value: through the state-value table when there is one, else the state itself', () => {
    const plain = schemaOf(rows, ['alpha', 'beta']);
    expect(statesOfValue(plain, 'alpha')).toEqual(['alpha']);
    expect(statesOfValue(plain, 'gamma')).toEqual([]);
    const table = schemaOf(
      rows,
      ['alpha', 'beta'],
      [
        ['active', 'alpha'],
        ['active', 'beta'],
      ],
    );
    expect(statesOfValue(table, 'active')).toEqual(['alpha', 'beta']);
    expect(statesOfValue(table, 'alpha')).toEqual([]);
  });

  it('a version as a step: iteration, skill and agent only when the schema declares them; one state has no label', () => {
    const undeclared = schemaOf(rows, ['alpha']);
    const text = '{"status": "alpha", "iteration": 3, "skill": "s", "agent": "g"}';
    const r = root(text);
    expect(versionStep(undeclared, currentStateField(undeclared)!, r)).toEqual({
      step: { states: ['alpha'] },
      places: { state: { kind: 'string', value: 'alpha', line: 1, column: 12 } },
    });
    const schema = schemaOf(
      [...rows, ['iteration', 'int'], ['skill', 'str'], ['agent', 'str']],
      ['alpha', 'beta'],
      [
        ['alpha', 'alpha'],
        ['busy', 'alpha'],
        ['busy', 'beta'],
      ],
    );
    const field = currentStateField(schema)!;
    expect(versionStep(schema, field, r)).toEqual({
      step: { states: ['alpha'], iteration: 3, skill: 's', agent: 'g' },
      places: {
        state: { kind: 'string', value: 'alpha', line: 1, column: 12 },
        skill: { kind: 'string', value: 's', line: 1, column: 46 },
        agent: { kind: 'string', value: 'g', line: 1, column: 60 },
      },
    });
    expect(versionStep(schema, field, root('{"status": "busy", "iteration": 0}'))?.step).toEqual({
      states: ['alpha', 'beta'],
      label: 'busy',
      iteration: 0,
    });
    expect(versionStep(schema, field, root('{"status": "alpha", "iteration": -1}'))?.step).toEqual({ states: ['alpha'] });
    expect(versionStep(schema, field, root('{"status": "beta"}'))).toBeNull();
  });

  it('a version in a state of the skill the contract does not know: an unknown state of the contract', () => {
    const schema = schemaOf(rows, ['review', 'parked']);
    const run = new StateRun({ project: PROJECT, skill: SKILL, schema, graph: G });
    expect(run.hasStateField).toBe(true);
    expect(new StateRun({ project: PROJECT, skill: SKILL, schema: schemaOf([['count', 'int']]), graph: G }).hasStateField).toBe(false);
    const result = run.version({ file: 'v1.json', format: 'JSON', parsed: parseJson('{"status": "parked", "a": {"cur": "review"}}') });
    expect(result.diagnostics).toStrictEqual([
      {
        code: 'trace-unknown-state',
        severity: 'error',
        message: "State 'parked' is not a state of the contract",
        help: `The contract knows these states: ${STATES}.`,
        file: 'v1.json',
        line: 1,
        column: 12,
        messageId: 'unknown',
        pointer: '/status',
        skill: 'keeper',
        data: { state: 'parked', scope: 'the contract', suggestion: '', states: STATES },
      },
    ]);
  });
});
