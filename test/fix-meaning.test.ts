/**
 * A fix never changes what a file means (property test, fast-check): on generated skills — a
 * frontmatter with `allowed-tools` written every way (commas, tool patterns with spaces and commas,
 * quoted, with a comment, as a list), flow maps, odd values; sections in any order, some missing,
 * headings inside code blocks; LF or CRLF, with or without a final line break — every file --fix
 * changes reads the same afterwards, except what the applied fixes are meant to change
 * (test/helpers/readings.ts): the frontmatter as YAML data, `allowed-tools` as a list of tools, the
 * text before the first section and every section's text. Every fixable rule is exercised.
 *
 * Seeded and bounded like test/properties.test.ts (LOOPKIT_PROPERTY_RUNS, LOOPKIT_PROPERTY_SEED).
 */
import fc from 'fast-check';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { computeFixes } from '../src/api/engine.js';
import { rules } from '../src/rules/index.js';
import { Temps } from './helpers/cli.js';
import { meaningChanges, readings, toolList } from './helpers/readings.js';

const RUNS = Number(process.env.LOOPKIT_PROPERTY_RUNS ?? 60);
const SEED = Number(process.env.LOOPKIT_PROPERTY_SEED ?? 20261123);

const temps = new Temps();
afterAll(() => temps.cleanup());

const CLEAN = join(import.meta.dirname, '..', 'fixtures', 'projects', 'clean');

// ---- generators -------------------------------------------------------------------------------

const tool = fc.constantFrom(
  'Read',
  'Grep',
  'Edit',
  'Bash(git log *)',
  'Bash(git add:*, git diff)',
  'Bash(npm run test:*)',
  'WebFetch(domain:example.com)',
  'mcp__github__create_issue',
  '*',
  'Read:',
  'Skill(review)',
  // the tool-pattern grammar: brackets that do not group, globs, quoted strings holding commas and
  // parentheses, nested parentheses, escaped commas
  'Bash(python3 *x*)',
  'Bash([ *)',
  'Bash([ -f x ] && echo y)',
  'Read(src/[ab]*.ts)',
  'Read(**/*.md)',
  'Bash(ls {a,b}/*.md)',
  'Bash(echo "a, b")',
  'Bash(echo ")", *)',
  "Bash(grep 'x(y' *)",
  'Bash(echo $(date), *)',
  'Bash(test (a, (b)) *)',
  'Bash(printf a\\,b)',
  'mcp__*',
);
/** A YAML double-quoted string of `s`. */
const doubleQuoted = (s: string) => `"${s.replace(/\\/gu, '\\\\').replace(/"/gu, '\\"')}"`;
/** allowed-tools as written: a comma-separated string (plain or quoted), a space-separated one, or a list. */
const allowedTools = fc
  .tuple(
    fc.uniqueArray(tool, { minLength: 1, maxLength: 5 }),
    fc.constantFrom(', ', ',', ' , ', ' '),
    fc.constantFrom('plain', 'double', 'single', 'flow', 'block'),
    fc.constantFrom('', '  # the tools'),
  )
  .map(([tools, sep, style, comment]) => {
    const joined = tools.join(sep);
    if (style === 'double') return `allowed-tools: ${doubleQuoted(joined)}${comment}`;
    if (style === 'single') return `allowed-tools: '${joined.replace(/'/gu, "''")}'${comment}`;
    if (style === 'flow') return `allowed-tools: [${tools.map((t) => JSON.stringify(t)).join(', ')}]${comment}`;
    if (style === 'block') return `allowed-tools:${comment}\n${tools.map((t) => `  - ${JSON.stringify(t)}`).join('\n')}`;
    return `allowed-tools: ${joined}${comment}`;
  });
const metadata = fc.constantFrom(
  'metadata: {owner: qa, tier: "2"}',
  'metadata: { owner: "a, b", level: 3 }',
  'metadata:\n  owner: qa',
  'metadata: {}',
  'metadata: {owner: qa}  # who',
);
const otherKey = fc.constantFrom(
  'license: MIT',
  'version: 1.10',
  'x-flag: yes',
  'empty:',
  'when: 2025-01-01',
  'level: .inf',
  "quote: 'it''s'",
);
const frontmatter = fc
  .tuple(fc.option(allowedTools, { nil: undefined }), fc.option(metadata, { nil: undefined }), fc.array(otherKey, { maxLength: 2 }))
  .map(([tools, meta, others]) =>
    [
      '---',
      'name: running-a',
      'description: Runs a tiny two-state loop. Use when testing loopkit end to end.',
      ...[tools, meta, ...others].filter((l): l is string => l !== undefined),
      '---',
    ].join('\n'),
  );

const paragraph = fc.constantFrom(
  'A tiny skill whose contract is in [LOOP.md](LOOP.md).',
  '1. Keep it small.\n2. Ask before you push.',
  'Moves from `in-dev` to `done`.',
  '```markdown\n## Rules\n\nAn example heading inside a code block.\n```',
  '> A quote.\n\n- a list item\n- another',
  '### A sub-section\n\nWith its own text.',
  '',
);
const skillSection = fc.tuple(fc.constantFrom('Description', 'Rules', 'State Model', 'Examples', 'Notes'), paragraph);
const LOOP_SECTIONS = [
  ['Entry Conditions', 'Always.'],
  ['Loop State Schema', '| field | type | description |\n|-------|------|-------------|\n| story | str | Story identifier |'],
  ['Single Iteration Step', '1. Complete the work.'],
  ['Proof of Progress', 'The work is complete.'],
  ['State Transition Rule', 'transition in-dev → done'],
  ['Halt Conditions', 'None.'],
  ['Handoff Target', 'handoff done to all-agents'],
] as const;
const loopText = fc
  .tuple(
    fc.shuffledSubarray([...LOOP_SECTIONS], { minLength: 4 }),
    fc.option(fc.constantFrom('## Notes\n\nAnything else.'), { nil: undefined }),
  )
  .map(([sections, extra]) => [...sections.map(([t, b]) => `## ${t}\n\n${b}`), ...(extra ? [extra] : [])].join('\n\n'));

/** A text with LF or CRLF line breaks, with or without a final one. */
const finish = (text: string, crlf: boolean, final: boolean) => {
  const t = `${text.replace(/\n+$/u, '')}${final ? '\n' : ''}`;
  return crlf ? t.replace(/\n/gu, '\r\n') : t;
};

const skillFiles = fc.record({
  frontmatter,
  preamble: fc.constantFrom('', '# Running a\n\nIntro text.'),
  sections: fc.uniqueArray(skillSection, { maxLength: 5, selector: (s) => s[0] }),
  loop: fc.option(loopText, { nil: undefined }),
  crlf: fc.boolean(),
  final: fc.boolean(),
  // the default configuration, or one that requires one more SKILL.md section (skill-missing-section)
  examples: fc.boolean(),
});

// ---- the property -----------------------------------------------------------------------------

describe('--fix keeps the meaning of every file it changes', () => {
  it('on generated skills, every fixable rule included', async () => {
    const exercised = new Set<string>();
    await fc.assert(
      fc.asyncProperty(skillFiles, async (s) => {
        const dir = temps.dir('loopkit-fix-meaning-');
        cpSync(CLEAN, dir, { recursive: true });
        if (s.examples) {
          const config =
            'enforced_states:\n  - name: done\nloop_state_files: []\ncanonical_skill_sections: [Description, Rules, Examples, State Model]\n';
          writeFileSync(join(dir, '.loopkit.yaml'), config);
        }
        const skill = [s.frontmatter, s.preamble, ...s.sections.map(([t, b]) => `## ${t}\n\n${b}`)].filter((p) => p !== '').join('\n\n');
        writeFileSync(join(dir, 'skills', 'running-a', 'SKILL.md'), finish(skill, s.crlf, s.final));
        if (s.loop !== undefined) writeFileSync(join(dir, 'skills', 'running-a', 'LOOP.md'), finish(s.loop, s.crlf, s.final));
        const run = await computeFixes({ root: dir });
        for (const fix of run.fixes) {
          const codes = Object.keys(fix.fixed);
          for (const c of codes) exercised.add(c);
          expect(meaningChanges(codes, fix.before, fix.after), `${fix.path}\n${fix.before}\n→\n${fix.after}`).toEqual([]);
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    // the property proves something for every fix loopkit has
    expect([...exercised].sort()).toEqual(
      rules
        .filter((r) => r.meta.fixable)
        .map((r) => r.meta.code)
        .sort(),
    );
  }, 300_000);
});

describe('the comparison the property relies on', () => {
  const fm = (tools: string) => `---\nname: a\ndescription: b\n${tools}\n---\n## Rules\n\nKeep it small.\n`;
  it('sees the rewrite a client splitting on spaces reads differently, and a tool lost', () => {
    const before = fm('allowed-tools: Bash(git log *), Read, Edit');
    expect(meaningChanges(['skill-allowed-tools-format'], before, fm('allowed-tools: Bash(git log *) Read Edit'))).toEqual([
      'allowed-tools is not a YAML list',
    ]);
    expect(meaningChanges(['skill-allowed-tools-format'], before, fm('allowed-tools:\n  - Bash(git log *)\n  - Read'))).toHaveLength(1);
    expect(meaningChanges(['skill-allowed-tools-format'], before, fm('allowed-tools:\n  - Bash(git log *)\n  - Read\n  - Edit'))).toEqual(
      [],
    );
  });

  it('sees a changed frontmatter value, a section that lost text, and a moved section where no fix moves sections', () => {
    const before = '---\nname: a\nmetadata: {x: 1}\n---\n## Rules\n\nOne.\n\n## Notes\n\nTwo.\n';
    expect(meaningChanges(['skill-metadata-inline-map'], before, before.replace('{x: 1}', '{x: 2}'))).toHaveLength(1);
    expect(meaningChanges(['skill-missing-description'], before, before.replace('Two.', ''))).toHaveLength(1);
    const moved = '---\nname: a\nmetadata: {x: 1}\n---\n## Notes\n\nTwo.\n\n## Rules\n\nOne.\n';
    expect(meaningChanges(['skill-missing-description'], before, moved)).toHaveLength(1);
    expect(meaningChanges(['loop-section-order'], before, moved)).toEqual([]);
  });
});

describe('the client model the property reads allowed-tools with', () => {
  it('reads every generated comma list as the tools it was made of', () => {
    fc.assert(
      fc.property(fc.uniqueArray(tool, { minLength: 1, maxLength: 6 }), fc.constantFrom(', ', ',', ' , '), (tools, sep) => {
        const read = toolList(tools.join(sep));
        expect(read).toEqual(tools.length > 1 || !/[\s,]/u.test(tools[0]!) ? tools : read);
      }),
      { numRuns: 200, seed: SEED },
    );
  });

  it('reads the example of issue 24 as four tools, a bracket inside a specifier grouping nothing', () => {
    expect(toolList('Read, Bash(python3 *x*), Bash([ *), Bash(echo *)')).toEqual([
      'Read',
      'Bash(python3 *x*)',
      'Bash([ *)',
      'Bash(echo *)',
    ]);
    expect(toolList('Bash(echo "(", x), Read')).toEqual(['Bash(echo "(", x)', 'Read']);
    expect(toolList('Bash(echo (, Read')).toBe('unreadable');
  });
});

describe("--fix on issue 24's example", () => {
  it('writes the four tools a client reads, each its own item', async () => {
    const dir = temps.dir('loopkit-fix-meaning-');
    cpSync(CLEAN, dir, { recursive: true });
    const skill = join(dir, 'skills', 'running-a', 'SKILL.md');
    const text = readFileSync(skill, 'utf8').replace(
      '---\n## Description',
      'allowed-tools: Read, Bash(python3 *x*), Bash([ *), Bash(echo *)\n---\n## Description',
    );
    writeFileSync(skill, text);
    const run = await computeFixes({ root: dir, only: ['skill-allowed-tools-format'] });
    const fix = run.fixes.find((f) => f.path === 'skills/running-a/SKILL.md');
    expect(fix?.after).toContain('allowed-tools:\n  - Read\n  - Bash(python3 *x*)\n  - Bash([ *)\n  - Bash(echo *)\n---');
    expect(readings(fix!.after).tools).toEqual(['Read', 'Bash(python3 *x*)', 'Bash([ *)', 'Bash(echo *)']);
  });
});
