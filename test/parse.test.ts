import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claudeCodeQuotes, parseFrontmatter } from '../src/parse/frontmatter.js';
import { loopFacts } from '../src/parse/loop.js';
import { sourceFile } from '../src/parse/markdown.js';
import { sectionsAt } from '../src/parse/sections.js';
import { loadModel } from '../src/api/engine.js';
import { lineCount, positionAt, lineStarts } from '../src/util/text.js';

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'loopkit-parse-'));
  temps.push(d);
  return d;
}
function write(root: string, rel: string, text: string): void {
  const abs = join(root, rel);
  mkdirSync(join(abs, '..'), { recursive: true });
  writeFileSync(abs, text);
}

describe('frontmatter', () => {
  it('is real YAML with the line and column of every key', () => {
    const f = sourceFile(
      'SKILL.md',
      '---\nname: running-x\ndescription: >\n  Folded text\n  over lines.\nmetadata:\n  category: dev\n  deep:\n    a: b\n---\n# Body\n',
      true,
    );
    const fm = parseFrontmatter(f)!;
    expect(fm.endLine).toBe(10);
    expect(fm.entries.find((e) => e.key === 'description')?.value).toBe('Folded text over lines.\n');
    expect(fm.entries.map((e) => [e.key, e.line, e.column])).toEqual([
      ['name', 2, 1],
      ['description', 3, 1],
      ['metadata', 6, 1],
    ]);
    expect(fm.nested.map((e) => [e.key, e.line, e.column])).toEqual([
      ['metadata.category', 7, 3],
      ['metadata.deep', 8, 3],
      ['metadata.deep.a', 9, 5],
    ]);
  });

  it('reports a YAML error with its place, and an unclosed block', () => {
    const bad = parseFrontmatter(sourceFile('SKILL.md', '---\nname: x\nname: y\n---\n', true))!;
    expect(bad.error?.line).toBe(3);
    const open = parseFrontmatter(sourceFile('SKILL.md', '---\nname: x\n', true))!;
    expect(open.endLine).toBeNull();
    expect(parseFrontmatter(sourceFile('SKILL.md', '# no frontmatter\n', true))).toBeNull();
  });

  it("names the values Claude Code's second reading quotes, when that reading parses", () => {
    // a description holding `: `, an argument hint of brackets: quoted, and then a mapping
    expect(claudeCodeQuotes('name: a\ndescription: Does a. Use when: b\nargument-hint: [x|y] [args]')).toEqual([
      'description',
      'argument-hint',
    ]);
    const fm = parseFrontmatter(sourceFile('SKILL.md', '---\nname: a\ndescription: Does a. Use when: b\n---\n', true))!;
    expect(fm.error?.claudeCodeQuotes).toEqual(['description']);
    // a value in quotes is left alone; one that only opens a quote is quoted as it stands
    expect(claudeCodeQuotes('name: "a: b"\ndescription: Does a: b')).toEqual(['description']);
    expect(claudeCodeQuotes('name: a\ndescription: "Does a: b')).toEqual(['description']);
    // only keys of letters, `_` and `-` are read again: with a digit in the key the block stays broken
    expect(claudeCodeQuotes('description: Does a: b\nstep2: x: y')).toBeNull();
    // a key written twice is no value to quote
    expect(claudeCodeQuotes('name: a\nname: b')).toBeNull();
    expect(parseFrontmatter(sourceFile('SKILL.md', '---\nname: a\nname: b\n---\n', true))!.error?.claudeCodeQuotes).toBeUndefined();
  });

  it('works with CRLF line endings', () => {
    const fm = parseFrontmatter(sourceFile('SKILL.md', '---\r\nname: a-b\r\n---\r\nbody\r\n', true))!;
    expect(fm.entries.find((e) => e.key === 'name')?.value).toBe('a-b');
    expect(fm.endLine).toBe(3);
  });
});

describe('sections', () => {
  it('H2 sections with positions; an H1 ends a section; headings keep inline code text', () => {
    const f = sourceFile('LOOP.md', '# Title\n## Entry Conditions\ntext\n### sub\nmore\n## `State` Model {#sm}\nx\n# Other\ny\n', true);
    const s = sectionsAt(f, 2);
    expect(s.map((x) => [x.title, x.key, x.line, x.endLine])).toEqual([
      ['Entry Conditions', 'entry conditions', 2, 5],
      ['State Model', 'state model', 6, 7],
    ]);
  });
});

describe('Loop State Schema tables', () => {
  const loop = (text: string) => loopFacts(sourceFile('LOOP.md', text, true)).stateSchema;

  it('reads the field table and the state-value table of the section, with the place of every cell', () => {
    const schema = loop(
      [
        '## Entry Conditions',
        '',
        '| field | type |',
        '|---|---|',
        '| not | schema |',
        '',
        '## Loop State Schema',
        '',
        '| `field` | **Type** | description |',
        '|---------|------|-------------|',
        '| `state` | `state` | Current stage |',
        '| gates.*.status? | pending | approved | rejected | Gate status |',
        '| note | a \\| b | escaped pipes |',
        '|   |   |   |',
        '',
        '| value | state |',
        '|---|---|',
        '| INIT | loop-init |',
        '',
        '## Single Iteration Step',
      ].join('\n'),
    );
    expect(schema).toEqual({
      line: 9,
      column: 1,
      fields: [
        { field: { text: 'state', line: 11, column: 4 }, type: { text: 'state', line: 11, column: 14 }, description: 'Current stage' },
        {
          field: { text: 'gates.*.status?', line: 12, column: 3 },
          type: { text: 'pending | approved | rejected', line: 12, column: 21 },
          description: 'Gate status',
        },
        { field: { text: 'note', line: 13, column: 3 }, type: { text: 'a | b', line: 13, column: 10 }, description: 'escaped pipes' },
      ],
      values: [{ value: { text: 'INIT', line: 18, column: 3 }, state: { text: 'loop-init', line: 18, column: 10 } }],
    });
  });

  it('is null without the section or without a table in it; rows without a leading pipe work', () => {
    expect(loop('## Entry Conditions\n\nx\n')).toBeNull();
    expect(loop('## Loop State Schema\n\nState is kept in memory.\n')).toBeNull();
    const schema = loop('## loop state  schema\n\nfield | type\n--- | ---\nn | int\n');
    expect(schema?.fields.map((r) => [r.field.text, r.type.text, r.type.column])).toEqual([['n', 'int', 5]]);
    expect(schema?.values).toEqual([]);
  });
});

describe('text helpers', () => {
  it('line counts and positions', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a')).toBe(1);
    expect(lineCount('a\n')).toBe(1);
    expect(lineCount('a\nb')).toBe(2);
    const starts = lineStarts('ab\ncd\n');
    expect(positionAt(starts, 0)).toEqual({ line: 1, column: 1 });
    expect(positionAt(starts, 4)).toEqual({ line: 2, column: 2 });
  });
});

describe('skill loading', () => {
  /** The skills of a project whose .loopkit.yaml lists these state-model aliases. */
  const load = async (root: string, aliases: string[]) => {
    writeFileSync(join(root, '.loopkit.yaml'), `loop_state_files: []\nstate_model_aliases: ${JSON.stringify(aliases)}\n`);
    return (await loadModel(root)).project;
  };

  it('reads states declared under any alias heading, with positions, stopping at the next heading of the same depth', async () => {
    const root = tempDir();
    write(
      root,
      'skills/running-a/SKILL.md',
      '---\nname: running-a\n---\n## The Loop\nMoves `in-dev` → `done`.\n### Details\n`in-qa` too\n## Other\n`not-a-state`\n',
    );
    const [skill] = (await load(root, ['State Model', 'The Loop'])).skills;
    expect(skill!.declaredStates).toEqual([
      { name: 'in-dev', line: 5, column: 7 },
      { name: 'done', line: 5, column: 18 },
      { name: 'in-qa', line: 7, column: 1 },
    ]);
  });

  it('reads a nested alias section once, and not the code in the alias heading itself', async () => {
    const root = tempDir();
    write(
      root,
      'skills/running-a/SKILL.md',
      '## States `x-heading`\n`in-a`\n### The Loop `in-sub`\n`in-b` `in-a`\n## Other\n`in-c`\n## States\n`in-d`\n',
    );
    // `## States \`x-heading\`` is the section "States x-heading"; `### The Loop \`in-sub\`` is no alias
    const [skill] = (await load(root, ['States x-heading', 'States', 'The Loop `in-sub`'])).skills;
    expect(skill!.declaredStates.map((d) => d.name)).toEqual(['in-a', 'in-sub', 'in-b', 'in-d']);
  });

  it('keeps a skill without a name (named after its directory) and reports unreadable files', async () => {
    const root = tempDir();
    write(root, 'skills/running-b/SKILL.md', '# No frontmatter\n');
    const [skill] = (await load(root, [])).skills;
    expect(skill!.name).toBe('running-b');
    expect(skill!.frontmatter).toBeNull();
    writeFileSync(join(root, 'skills/running-b/LOOP.md'), Buffer.from([0xff, 0xfe, 0x00]));
    const again = await load(root, []);
    expect(again.problems.map((p) => p.file)).toEqual(['skills/running-b/LOOP.md']);
    write(root, 'skills/running-c/SKILL.md', '');
    rmSync(join(root, 'skills/running-c/SKILL.md'));
    mkdirSync(join(root, 'skills/running-c/SKILL.md'));
    const dir = await load(root, []);
    expect(dir.skills.map((s) => s.dir)).toEqual(['skills/running-b']);
    expect(dir.problems.map((p) => p.message)).toContain('Failed to read skills/running-c/SKILL.md: Is a directory');
  });

  it('drops a UTF-8 byte order mark', async () => {
    const root = tempDir();
    write(root, 'skills/running-d/SKILL.md', '\uFEFF---\nname: running-bom\n---\n');
    const [skill] = (await load(root, [])).skills;
    // the name comes from the frontmatter (not the directory): the block was found after the BOM
    expect(skill!.name).toBe('running-bom');
    expect(skill!.frontmatter?.entries[0]?.line).toBe(2);
  });
});

describe('did you mean', async () => {
  const { closest } = await import('../src/util/closest.js');
  it('suggests likely typos and inflections, never a different word', () => {
    expect(closest('max_iteration', ['skills_dir', 'max_iterations'])).toBe('max_iterations');
    expect(closest('stalled', ['stall', 'budget'])).toBe('stall');
    expect(closest('Stal', ['stall'])).toBe('stall');
    expect(closest('write', ['wait', 'call'])).toBeUndefined();
    expect(closest('stall', ['stall'])).toBeUndefined();
    expect(closest('deskcheck_entry_form', ['deskcheck_entry_from'])).toBe('deskcheck_entry_from');
  });
});

describe('long documents are parsed in parts', async () => {
  const { cutPoints, parseMarkdown, parseWhole } = await import('../src/parse/markdown.js');
  const unit = (i: number) =>
    `## Section ${i}\n\nRead the **state file**, run \`npm test\`, see [the guide](references/guide.md).\n\n` +
    `1. Write the failing test.\n2. Make it pass.\n\n| field | type |\n|---|---|\n| story | str |\n\n` +
    `\`\`\`md\n## not a cut ${i}\n\`\`\`\n\n<!--\n\n## not a cut either\n-->\n\n<pre>\n\n## nor in pre\n</pre>\n\n> quoted\n>\n> ## heading in a quote\n\n- item\n\n  ## heading in an item\n\n`;
  const long = (n: number) => {
    let s = '---\nname: x\n---\n';
    for (let i = 0; s.length < n; i++) s += unit(i);
    return s;
  };

  // parts are cut past 2 × 32 KiB (PART_CHARS): 120,000 characters is several parts, and its whole
  // parse (superlinear, the reason for the parts) takes seconds, not the 20 s of the 200,000 it was
  it('gives the same tree, positions included, as parsing the whole', () => {
    const text = long(120_000);
    expect(cutPoints(text).length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(parseMarkdown(text))).toBe(JSON.stringify(parseWhole(text)));
  }, 120_000);

  it('is not cut when link reference definitions are shared by the document', () => {
    const text = `${long(70_000)}\n[guide]: references/guide.md\n`;
    expect(JSON.stringify(parseMarkdown(text))).toBe(JSON.stringify(parseWhole(text)));
  });
});
