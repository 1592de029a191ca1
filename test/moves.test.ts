/**
 * "What is legal from this state": legalMoves and judgeMove (src/graph/moves.ts), the one answer of
 * trace, watch, coverage and the MCP server; and the run judge (src/runtime/run-judge.ts) that
 * keeps a run's memory on top of it — including steps whose state is uncertain (a state-file value
 * that stands for several states).
 */
import { describe, expect, it } from 'vitest';
import { graphFromEdges, type Edge } from '../src/graph/graph.js';
import { judgeMove, legalMoves, runEnded } from '../src/graph/moves.js';
import { RunJudge, statesText, type Finding, type RunStep } from '../src/runtime/run-judge.js';
import { declaredEdge } from './helpers/edges.js';

let line = 0;
function edge(from: string, to: string, skill = 'running-a', extra: Partial<Edge> = {}): Edge {
  return declaredEdge(from, to, skill, ++line, extra);
}
const halt = (reason: string, after: number | null) => ({ halt: { reason, after, line: line + 1, column: 1, reasonColumn: 6 } });
const handoff = (skill: string, agent: string) => ({ handoff: { skill, agent, line: line + 1, column: 1, skillColumn: 9 } });

const dev = [
  edge('in-dev', 'in-review', 'running-a', handoff('reviewing-b', 'qa-agent')),
  edge('in-dev', 'halted-stall', 'running-a', halt('stall', 3)),
  edge('in-dev', 'halted-stall', 'running-a', halt('stall', 5)),
  edge('in-review', 'in-dev', 'reviewing-b', handoff('running-a', 'dev-agent')),
  edge('in-review', 'done', 'reviewing-b', handoff('done', 'all-agents')),
  edge('in-review', 'in-review', 'reviewing-b'),
  edge('ship-ready', 'ship-check', 'shipping-c', handoff('reviewing-b', 'qa-agent')),
  edge('ship-check', 'done', 'shipping-c'),
];
const graph = graphFromEdges(dev);
const config = { enforced_states: [{ name: 'done', agent: '', description: '' }], halt_reasons: ['stall'] };
const handlers = { graph, config, skills: new Set(['running-a', 'reviewing-b', 'shipping-c']) };

describe('legalMoves', () => {
  it('groups the transitions out of a state by target, keeps graph order, and names the smallest halt bound', () => {
    const legal = legalMoves(graph, 'in-dev');
    expect(legal.known).toBe(true);
    expect(legal.terminal).toBe(false);
    expect(legal.halted).toBe(false);
    expect(legal.moves.map((m) => [m.to, m.edges.length])).toEqual([
      ['in-review', 1],
      ['halted-stall', 2],
    ]);
    expect(legal.bound?.halt?.after).toBe(3);
  });

  it('knows terminal, halted, self-loop and unknown states, and answers the same object for the same question', () => {
    expect(legalMoves(graph, 'done')).toMatchObject({ known: true, terminal: true, halted: false, moves: [] });
    expect(legalMoves(graph, 'halted-stall')).toMatchObject({ known: true, terminal: true, halted: true });
    expect(legalMoves(graph, 'in-review').moves.map((m) => m.to)).toEqual(['in-dev', 'done', 'in-review']);
    expect(legalMoves(graph, 'in-deskcheck')).toMatchObject({ known: false, terminal: false, moves: [], bound: null });
    expect(legalMoves(graph, 'in-dev')).toBe(legalMoves(graph, 'in-dev'));
  });

  it('runEnded: every state the run may be in is terminal or halted', () => {
    expect(runEnded(graph, ['done'])).toBe(true);
    expect(runEnded(graph, ['done', 'halted-stall'])).toBe(true);
    expect(runEnded(graph, ['done', 'in-dev'])).toBe(false);
    expect(runEnded(graph, [])).toBe(false);
    expect(runEnded(graph, ['nowhere'])).toBe(false);
  });
});

describe('judgeMove', () => {
  it('a declared transition, a stay (with its declared self-loop), an undeclared move, a move out of a terminal state, unknown states', () => {
    expect(judgeMove(graph, 'in-dev', 'halted-stall')).toMatchObject({ kind: 'transition', allowed: true });
    expect(judgeMove(graph, 'in-dev', 'in-dev')).toMatchObject({ kind: 'stay', allowed: true, edges: [] });
    expect(judgeMove(graph, 'in-review', 'in-review')).toMatchObject({ kind: 'stay', allowed: true, edges: [dev[5]] });
    expect(judgeMove(graph, 'in-dev', 'done')).toMatchObject({ kind: 'undeclared', allowed: false });
    expect(judgeMove(graph, 'done', 'in-dev')).toMatchObject({ kind: 'from-terminal', allowed: false });
    expect(judgeMove(graph, 'nowhere', 'in-dev')).toMatchObject({ kind: 'unknown-from', allowed: false });
    expect(judgeMove(graph, 'in-dev', 'nowhere')).toMatchObject({ kind: 'unknown-to', allowed: false });
  });

  it('a handoff: the skill and agent the run names must be the declared ones; `handoff done` is never judged', () => {
    const mismatch = judgeMove(graph, 'in-dev', 'in-review', { by: { skill: 'running-a', agent: 'qa-agent' } });
    expect(mismatch.kind === 'transition' && mismatch.handoff).toEqual([
      { kind: 'mismatch', field: 'skill', want: 'reviewing-b', got: 'running-a', edge: dev[0] },
    ]);
    const agrees = judgeMove(graph, 'in-dev', 'in-review', { by: { skill: 'reviewing-b', agent: 'qa-agent' }, handlers });
    expect(agrees.kind === 'transition' && agrees.handoff).toEqual([]);
    const done = judgeMove(graph, 'in-review', 'done', { by: { skill: 'someone', agent: 'else' }, handlers });
    expect(done.kind === 'transition' && done.handoff).toEqual([]);
  });

  it('a handoff to a skill without a transition out of the new state is unhandled (the answer constraints-handoff-unhandled gives)', () => {
    const v = judgeMove(graph, 'ship-ready', 'ship-check', { handlers });
    expect(v.kind === 'transition' && v.handoff).toEqual([
      { kind: 'unhandled', skill: 'reviewing-b', handlers: ['shipping-c'], edge: dev[6] },
    ]);
    // without what it needs to know (the skills, the config), it is not judged
    const unjudged = judgeMove(graph, 'ship-ready', 'ship-check');
    expect(unjudged.kind === 'transition' && unjudged.handoff).toEqual([]);
    // a handoff to a skill the project does not have is another check's
    const unknown = judgeMove(graph, 'ship-ready', 'ship-check', { handlers: { ...handlers, skills: new Set(['shipping-c']) } });
    expect(unknown.kind === 'transition' && unknown.handoff).toEqual([]);
  });
});

describe('the run judge', () => {
  const judge = () => {
    const findings: { code: string; field: string; messageId: string; data: Record<string, string | number> }[] = [];
    const j = new RunJudge({
      graph,
      scope: 'the contract',
      handlers,
      report: (f: Finding) => findings.push({ code: f.code, field: f.field, ...f.describe() }),
    });
    return { j, findings };
  };
  const one = (state: string, extra: Partial<RunStep> = {}): RunStep => ({ states: [state], ...extra });

  it('judges each move, counts iterations per state (a repeated iteration number counts once) and reports a spent bound once', () => {
    const { j, findings } = judge();
    for (const it of [1, 1, 2, 3, 4, 5]) j.step(one('in-dev', { iteration: it }));
    expect(j.spentIn('in-dev')).toBe(5);
    expect(findings).toEqual([
      {
        code: 'trace-halt-bound-exceeded',
        field: 'state',
        messageId: 'exceeded',
        data: { state: 'in-dev', count: 4, max: 3, reason: 'stall', target: 'halted-stall' },
        related: [{ message: 'halt stall after 3 iterations', file: 'skills/running-a/LOOP.md', line: dev[1]!.halt!.line, column: 1 }],
      },
    ]);
  });

  it('says what each step took: a transition, a declared self-loop for another iteration, nothing for an undeclared move', () => {
    const { j, findings } = judge();
    expect(j.step(one('in-dev')).taken).toEqual([]);
    expect(j.step(one('in-review', { skill: 'reviewing-b', agent: 'qa-agent' })).taken).toEqual([dev[0]]);
    expect(j.step(one('in-review')).taken).toEqual([dev[5]]);
    expect(j.step(one('halted-stall')).taken).toEqual([]);
    expect(findings.map((f) => [f.code, f.messageId, f.data.from, f.data.to])).toEqual([
      ['trace-undeclared-transition', 'undeclared', "'in-review'", "'halted-stall'"],
    ]);
    j.finish();
    expect(findings).toHaveLength(1);
  });

  it('a step in one of several states: legal when some pair is declared; certain moves are taken, uncertain ones possible', () => {
    const { j, findings } = judge();
    j.step(one('in-dev'));
    // WORKING: in-dev or in-review (both reachable from in-dev: a stay, a transition)
    const working = { states: ['in-dev', 'in-review'], label: 'WORKING' };
    const first = j.step(working);
    expect(first.taken).toEqual([]);
    expect(first.possible).toEqual([dev[0]]);
    expect(j.states).toEqual(['in-dev', 'in-review']);
    // only in-review → done is declared: certain
    expect(j.step(one('done')).taken).toEqual([dev[4]]);
    expect(findings).toEqual([]);
    // out of done, to either: undeclared, and the message names the value and its states
    j.step(working);
    expect(findings.map((f) => [f.messageId, f.data.from, f.data.to])).toEqual([
      ['fromTerminal', "'done'", "'WORKING' (in-dev or in-review)"],
    ]);
  });

  it('iterations count only in a state the run is certainly in; a run that may still be running is not reported as still running', () => {
    const { j, findings } = judge();
    const working = { states: ['in-dev', 'in-review'], label: 'WORKING' };
    for (let i = 0; i < 6; i++) j.step(working);
    expect(j.spentIn('in-dev')).toBe(0);
    j.finish();
    expect(findings.map((f) => [f.code, f.data.state])).toEqual([['trace-still-running', "'WORKING' (in-dev or in-review)"]]);
    const ended = judge();
    ended.j.step({ states: ['done', 'in-dev'] });
    ended.j.finish();
    expect(ended.findings).toEqual([]);
  });

  it('an unknown state is reported and forgets where the run was; a lost step leaves the next move unjudged', () => {
    const { j, findings } = judge();
    j.step(one('in-dev'));
    j.step(one('in-reveiw'));
    j.step(one('done'));
    j.lose();
    j.step(one('in-dev'));
    expect(findings.map((f) => [f.code, f.data.state, f.data.suggestion])).toEqual([
      ['trace-unknown-state', 'in-reveiw', "; did you mean 'in-review'?"],
    ]);
  });

  it('statesText: one state quoted; several as the value that stands for them, or as a list', () => {
    expect(statesText(['a'])).toBe("'a'");
    expect(statesText(['a', 'b', 'c'], 'X')).toBe("'X' (a, b or c)");
    expect(statesText(['a', 'b'])).toBe("'a' or 'b'");
  });
});
