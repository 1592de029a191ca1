/**
 * The naming conventions of the Loop Language (seed 000): state names and skill names, with every
 * example the language description gives, plus the edge cases the rules rely on.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isGerundName,
  isGerundWord,
  isStateLike,
  isValidSkillName,
  nameClass,
  namespacedName,
  skillNameProblems,
  stateNameProblem,
  suggestedSkillName,
  validNameFrom,
} from '../src/util/naming.js';

const NONE = new Set<string>();
const ENFORCED_DONE = new Set(['done']);

describe('stateNameProblem — the Loop Language examples', () => {
  it.each(['in-dev', 'in-deskcheck', 'in-qa', 'in-acceptance', 'halted-stall'])('%s is valid', (name) => {
    expect(stateNameProblem(name, NONE)).toBeNull();
  });

  it('done is valid only when it is an enforced state', () => {
    expect(stateNameProblem('done', ENFORCED_DONE)).toBeNull();
    expect(stateNameProblem('done', NONE)).toMatch(/no hyphen.*enforced_states/);
  });

  it('backlog is invalid (no hyphen, not enforced)', () => {
    expect(stateNameProblem('backlog', ENFORCED_DONE)).toMatch(/no hyphen/);
  });

  it('In-Dev is invalid (upper case)', () => {
    expect(stateNameProblem('In-Dev', NONE)).toMatch(/upper-case/);
  });

  it('in.progress is invalid (dots)', () => {
    expect(stateNameProblem('in.progress', NONE)).toBe("contains '.' (only a-z, 0-9 and hyphens are allowed)");
  });
});

describe('stateNameProblem — other shapes', () => {
  it('accepts -ing parts and digits', () => {
    expect(stateNameProblem('in-testing', NONE)).toBeNull();
    expect(stateNameProblem('pending-review', NONE)).toBeNull();
    expect(stateNameProblem('stage-2', NONE)).toBeNull();
  });

  it('rejects bad hyphenation, other characters and over-long names', () => {
    expect(stateNameProblem('-in-dev', NONE)).toBe('starts or ends with a hyphen');
    expect(stateNameProblem('in-dev-', NONE)).toBe('starts or ends with a hyphen');
    expect(stateNameProblem('in--dev', NONE)).toBe("contains '--'");
    expect(stateNameProblem('in_dev', NONE)).toMatch(/'_'/);
    expect(stateNameProblem('in dev', NONE)).toMatch(/' '/);
    expect(stateNameProblem(`in-${'x'.repeat(126)}`, NONE)).toBe('is longer than 128 characters');
    expect(stateNameProblem(`in-${'x'.repeat(125)}`, NONE)).toBeNull();
  });

  it('an upper-case enforced name is still reported (the case rule comes first)', () => {
    expect(stateNameProblem('Done', new Set(['Done']))).toMatch(/upper-case/);
  });
});

describe('isStateLike — which backticked State Model tokens are states', () => {
  const skills = new Set(['running-tdd-loops', 'writing-stories']);

  it('takes the valid example states, and -ing states (the reference rejected in-testing)', () => {
    for (const s of ['in-dev', 'in-deskcheck', 'in-qa', 'in-acceptance', 'halted-stall', 'in-testing', 'pending-review']) {
      expect(isStateLike(s, ENFORCED_DONE, skills), s).toBe(true);
    }
  });

  it('takes a one-word name only when it is enforced', () => {
    expect(isStateLike('done', ENFORCED_DONE, skills)).toBe(true);
    expect(isStateLike('done', NONE, skills)).toBe(false);
    expect(isStateLike('backlog', ENFORCED_DONE, skills)).toBe(false);
  });

  it('rejects skill names, paths, URLs and non-kebab tokens', () => {
    expect(isStateLike('running-tdd-loops', NONE, skills)).toBe(false);
    expect(isStateLike('running-tdd-loops', NONE, NONE)).toBe(true);
    expect(isStateLike('docs/inception.loop.md', NONE, skills)).toBe(false);
    expect(isStateLike('https://example.com/in-dev', NONE, skills)).toBe(false);
    expect(isStateLike('In-Dev', NONE, skills)).toBe(false);
    expect(isStateLike('in.progress', NONE, skills)).toBe(false);
    expect(isStateLike('', NONE, skills)).toBe(false);
  });
});

describe('isGerundName — the Loop Language skill-name examples', () => {
  it.each(['running-tdd-loops', 'writing-stories', 'facilitating-inception', 'deciding-architecture'])('%s is a gerund name', (name) =>
    expect(isGerundName(name)).toBe(true),
  );

  it.each(['tdd-loops', 'story-writer'])('%s is not a gerund name', (name) => {
    expect(isGerundName(name)).toBe(false);
  });

  it('judges the first word only, and knows -ing words that are not gerunds', () => {
    expect(isGerundName('running-tests')).toBe(true);
    expect(isGerundName('deploying')).toBe(true);
    expect(isGerundName('story-writing')).toBe(false);
    expect(isGerundName('string-utils')).toBe(false);
    expect(isGerundName('something-else')).toBe(false);
    expect(isGerundName('king')).toBe(false);
    expect(isGerundWord('Writing')).toBe(true);
  });
});

describe('nameClass — agrees with isGerundName (the reference did not, Q23)', () => {
  it('classifies the examples', () => {
    expect(nameClass('running-tdd-loops')).toBe('gerund');
    expect(nameClass('writing-stories')).toBe('gerund');
    expect(nameClass('running-tests')).toBe('gerund');
    expect(nameClass('tdd-loops')).toBe('action-prefix');
    expect(nameClass('story-writer')).toBe('action-prefix');
    expect(nameClass('deploy')).toBe('noun');
  });

  it('is gerund exactly when isGerundName holds', () => {
    for (const n of ['running-tdd-loops', 'tdd-loops', 'story-writer', 'deploy', 'writing', 'string-utils']) {
      expect(nameClass(n) === 'gerund', n).toBe(isGerundName(n));
    }
  });
});

describe('skill names (Agent Skills): what the name rules share', () => {
  it('skillNameProblems names every way a name breaks the specification', () => {
    expect(skillNameProblems('writing-docs')).toEqual([]);
    expect(skillNameProblems('My_Skill')).toEqual(['invalid-chars']);
    expect(skillNameProblems('-a--b-')).toEqual(['leading-hyphen', 'trailing-hyphen', 'consecutive-hyphens']);
    expect(skillNameProblems('a'.repeat(65))).toEqual(['too-long']);
    expect(skillNameProblems('a'.repeat(64))).toEqual([]);
    expect(skillNameProblems('asking-claude')).toEqual(['reserved-word']);
    expect(skillNameProblems('plugin:skill-name')).toEqual(['invalid-chars']);
    expect(isValidSkillName('')).toBe(false);
  });

  it('namespacedName reads a plugin namespace written into the name', () => {
    expect(namespacedName('docs-plugin:writing-docs')).toEqual({ namespace: 'docs-plugin', name: 'writing-docs' });
    expect(namespacedName('writing-docs')).toBeNull();
    expect(namespacedName('a:b:c')).toBeNull();
    expect(namespacedName('a: b')).toBeNull();
  });

  it.each([
    ['My_Skill', 'my-skill'],
    ['Café Tools', 'cafe-tools'],
    ['writingDocs', 'writing-docs'],
    ['plugin:skill-name', 'skill-name'],
    ['-running--a-', 'running-a'],
    ['anthropic-claude-notes', 'notes'],
    [`r-${'a'.repeat(70)}`, `r-${'a'.repeat(62)}`],
    ['!!!', ''],
  ])('validNameFrom(%s) is the nearest valid name, %s', (written, valid) => {
    expect(validNameFrom(written)).toBe(valid);
  });

  it('suggestedSkillName: the folder when it is a valid name, else a valid name for both', () => {
    expect(suggestedSkillName('plugin:writing-docs', 'writing-docs')).toEqual({ name: 'writing-docs', renameFolder: false });
    expect(suggestedSkillName('Writing Docs', 'Writing_Docs')).toEqual({ name: 'writing-docs', renameFolder: true });
    expect(suggestedSkillName('claude-notes', 'claude-notes')).toEqual({ name: 'notes', renameFolder: true });
    expect(suggestedSkillName('???', '!!!')).toEqual({ name: '', renameFolder: true });
  });

  it('never suggests a name a rule rejects, nor one other than the folder unless the folder is renamed (property)', () => {
    const piece = fc.constantFrom('a', 'Z', '-', '_', ':', ' ', '1', 'claude', 'é', 'docs', 'x'.repeat(30));
    const text = fc.array(piece, { maxLength: 8 }).map((p) => p.join(''));
    fc.assert(
      fc.property(text, text, (written, dir) => {
        const s = suggestedSkillName(written, dir);
        if (s.name !== '') expect(skillNameProblems(s.name)).toEqual([]);
        if (!s.renameFolder) expect(s.name).toBe(dir);
        else expect(isValidSkillName(dir)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
