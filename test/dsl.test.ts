/** Unit tests of the transition DSL parser (src/parse/dsl.ts) on in-memory LOOP.md text. */
import { describe, expect, it } from 'vitest';
import { isLoopContract, parseDsl, type DslResult } from '../src/parse/dsl.js';
import { sourceFile } from '../src/parse/markdown.js';
import { sectionsAt } from '../src/parse/sections.js';

function parse(lines: string[]): DslResult {
  const file = sourceFile('LOOP.md', `${lines.join('\n')}\n`, true);
  return parseDsl(file, sectionsAt(file, 2));
}

/** from/to/arrow of each transition */
const edges = (r: DslResult) => r.transitions.map((t) => [t.from, t.arrow, t.to]);

describe('transition lines', () => {
  it('accepts each arrow form: →, -> and --->', () => {
    const r = parse([
      '## State Transition Rule',
      'transition in-dev → in-qa',
      'transition in-qa -> in-review',
      'transition in-review ---> done',
      'transition a->b',
      'transition c--->d',
    ]);
    expect(edges(r)).toEqual([
      ['in-dev', '→', 'in-qa'],
      ['in-qa', '->', 'in-review'],
      ['in-review', '--->', 'done'],
      ['a', '->', 'b'],
      ['c', '--->', 'd'],
    ]);
    expect(r.malformed).toEqual([]);
  });

  it('records the line, the columns of both states and the section', () => {
    const r = parse(['# Title', '', '## State Transition Rule', '  transition in-dev  →  done']);
    expect(r.transitions).toHaveLength(1);
    expect(r.transitions[0]).toMatchObject({
      file: 'LOOP.md',
      line: 4,
      column: 3,
      fromColumn: 14,
      toColumn: 25,
      section: 'State Transition Rule',
    });
  });

  it('finds the source state after the keyword even when the state name occurs inside "transition"', () => {
    const r = parse(['## State Transition Rule', 'transition t → sit']);
    expect(edges(r)).toEqual([['t', '→', 'sit']]);
    expect(r.transitions[0]!.fromColumn).toBe(12);
    expect(r.transitions[0]!.toColumn).toBe(16);
  });

  it('accepts backtick-quoted states and a whole line in one code span', () => {
    const r = parse(['## State Transition Rule', 'transition `in-dev` → `in-qa`', '`transition in-qa -> done`']);
    expect(edges(r)).toEqual([
      ['in-dev', '→', 'in-qa'],
      ['in-qa', '->', 'done'],
    ]);
    // the columns point at the names, inside the backticks
    expect(r.transitions[0]!.fromColumn).toBe(13);
    expect(r.transitions[0]!.toColumn).toBe(24);
  });

  it('reads several transitions per section, and transitions in list items', () => {
    const r = parse([
      '## State Transition Rule',
      '- transition in-dev → in-qa',
      '* transition in-qa → done',
      '1. transition in-qa → in-dev',
      '',
      'transition in-dev → halted-stall',
    ]);
    expect(edges(r)).toEqual([
      ['in-dev', '→', 'in-qa'],
      ['in-qa', '→', 'done'],
      ['in-qa', '→', 'in-dev'],
      ['in-dev', '→', 'halted-stall'],
    ]);
    expect(r.transitions.map((t) => t.column)).toEqual([3, 3, 4, 1]);
  });

  it('reads `a-->b` as the state `a-` and the arrow ->, like 0.3.3', () => {
    const r = parse(['## State Transition Rule', 'transition a-->b']);
    expect(edges(r)).toEqual([['a-', '->', 'b']]);
    expect(r.malformed).toEqual([]);
  });
});

describe('directives', () => {
  it('attaches trigger, handoff and halt to the transition they follow', () => {
    const r = parse([
      '## State Transition Rule',
      'transition in-dev → in-deskcheck',
      'trigger all ACs implemented and green',
      'handoff running-desk-checks to qa-agent',
      'transition in-dev → halted-stall',
      'halt stall after 10 iterations',
    ]);
    const [first, second] = r.transitions;
    expect(first!.trigger).toEqual({ text: 'all ACs implemented and green', line: 3, column: 1 });
    expect(first!.handoff).toEqual({ skill: 'running-desk-checks', agent: 'qa-agent', line: 4, column: 1, skillColumn: 9 });
    expect(first!.halt).toBeUndefined();
    expect(second!.trigger).toBeUndefined();
    expect(second!.handoff).toBeUndefined();
    expect(second!.halt).toEqual({ reason: 'stall', after: 10, line: 6, column: 1, reasonColumn: 6 });
  });

  it('reads directives written wholly in a code span, like transition lines', () => {
    const r = parse([
      '## State Transition Rule',
      '`transition in-dev → halted-stall`',
      '`trigger no progress`',
      '`handoff running-desk-checks to qa-agent`',
      '`halt stall after 3 iterations`',
      'transition in-dev → done',
      'trigger `npm test` passes',
    ]);
    expect(r.transitions[0]!.trigger).toMatchObject({ text: 'no progress', line: 3 });
    expect(r.transitions[0]!.handoff).toMatchObject({ skill: 'running-desk-checks', agent: 'qa-agent', skillColumn: 10 });
    expect(r.transitions[0]!.halt).toMatchObject({ reason: 'stall', after: 3, reasonColumn: 7 });
    expect(r.transitions[1]!.trigger).toMatchObject({ text: '`npm test` passes', line: 7 });
    expect(r.malformed).toEqual([]);
  });

  it('a halt without a bound has after = null', () => {
    const r = parse(['## State Transition Rule', 'transition in-dev → halted-stall', 'halt human-gate']);
    expect(r.transitions[0]!.halt).toMatchObject({ reason: 'human-gate', after: null, reasonColumn: 6 });
  });

  it('directives in another section do not attach to the last transition', () => {
    const r = parse([
      '## State Transition Rule',
      'transition in-dev → halted-stall',
      '',
      '## Halt Conditions',
      'halt stall after 10 iterations',
      '',
      '## Handoff Target',
      'handoff running-desk-checks to qa-agent',
    ]);
    expect(r.transitions[0]!.halt).toBeUndefined();
    expect(r.transitions[0]!.handoff).toBeUndefined();
    expect(r.malformed).toEqual([]);
    // they are still recorded as mentions
    expect(r.halts).toEqual([{ word: 'stall', line: 5, column: 6, directive: true }]);
    expect(r.handoffs).toEqual([{ skill: 'running-desk-checks', agent: 'qa-agent', line: 8, column: 9 }]);
  });

  it('halt mentions skip noise words and need a word boundary; prose is not a directive', () => {
    const r = parse(['## Halt Conditions', 'Agents halt immediately. The asphalt stall is not a halt.', 'halt when the budget is gone']);
    expect(r.halts).toEqual([{ word: 'immediately', line: 2, column: 13, directive: false }]);
  });
});

describe('malformed lines', () => {
  const reasonOf = (line: string) => {
    const r = parse(['## State Transition Rule', line]);
    expect(r.transitions).toEqual([]);
    expect(r.malformed).toHaveLength(1);
    expect(r.malformed[0]).toMatchObject({ kind: 'transition', line: 2, column: 1 });
    return r.malformed[0]!.reason;
  };

  it('upper-case Transition', () => {
    expect(reasonOf('Transition in-dev → done')).toBe("the keyword is lower case: 'transition'");
  });

  it('=> is not an arrow', () => {
    expect(reasonOf('transition in-dev => done')).toBe("'=>' is not an arrow; use →, -> or --->");
  });

  it('--> with spaces is not an arrow', () => {
    expect(reasonOf('transition in-dev --> done')).toBe("'-->' is not an arrow; use →, -> or --->");
  });

  it('a missing arrow', () => {
    expect(reasonOf('transition in-dev done')).toBe('missing arrow between the two states (→, -> or --->)');
  });

  it('text after the target state', () => {
    expect(reasonOf('transition in-dev → done # when green')).toBe(
      'expected exactly: transition <from> → <to> (nothing after the target state)',
    );
  });

  it('prose that starts with an upper-case "Transition" but has no arrow is not DSL', () => {
    const r = parse(['## State Transition Rule', 'Transition rules are listed below.']);
    expect(r.malformed).toEqual([]);
  });

  it('directive lines that do not parse, after a transition', () => {
    const r = parse([
      '## State Transition Rule',
      'transition in-dev → halted-stall',
      'trigger',
      'handoff running-desk-checks qa-agent',
      'halt stall after ten iterations',
      'halt stall after 10',
    ]);
    expect(r.malformed.map((m) => [m.kind, m.line, m.reason])).toEqual([
      ['trigger', 3, 'a trigger needs a condition: trigger <condition>'],
      ['handoff', 4, 'expected: handoff <skill> to <agent>'],
      ['halt', 5, "'ten' is not a whole number of iterations"],
      ['halt', 6, 'expected: halt <reason> after <N> iterations'],
    ]);
    expect(r.transitions[0]!.halt).toBeUndefined();
  });
});

describe('code blocks', () => {
  it('ignores lines in a ```python fence but reads an untagged fence', () => {
    const r = parse([
      '## State Transition Rule',
      '```python',
      'transition in-dev → in-qa',
      'halt nonsense',
      '```',
      '',
      '```',
      'transition in-qa → done',
      'halt stall',
      '```',
    ]);
    expect(edges(r)).toEqual([['in-qa', '→', 'done']]);
    expect(r.transitions[0]!.line).toBe(8);
    expect(r.transitions[0]!.halt).toMatchObject({ reason: 'stall', line: 9 });
    expect(r.halts.map((h) => h.word)).toEqual(['stall']);
  });
});

describe('isLoopContract', () => {
  const SECTIONS = ['Entry Conditions', 'State Transition Rule', 'Halt Conditions'];
  it('a canonical section heading (any level, any case) or a transition line makes a contract', () => {
    expect(isLoopContract('# Loop\n\n## Entry Conditions\n', SECTIONS)).toBe(true);
    expect(isLoopContract('### halt  conditions ##\n', SECTIONS)).toBe(true);
    expect(isLoopContract('Some text\n- transition `draft` → `review`\n', SECTIONS)).toBe(true);
    expect(isLoopContract('transition a -> b\n', SECTIONS)).toBe(true);
  });
  it("a skill's notes named LOOP.md are not a contract", () => {
    expect(isLoopContract('# Mutation loop\n\n## Hard ceilings\n\nThe transition to N2 happens later.\n', SECTIONS)).toBe(false);
    expect(isLoopContract('', SECTIONS)).toBe(false);
  });
});
