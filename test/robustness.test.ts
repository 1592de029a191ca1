/**
 * Robustness: every registered rule runs (no `only`) over a generated project of hostile markdown —
 * non-ASCII characters straddling every length limit, a BOM, CRLF, unclosed fences, thousands of
 * nesting levels, HTML, odd tables, empty files, very long lines. Nothing may throw, no rule may
 * crash (`internal-error`), and every located diagnostic must point inside its file.
 *
 * The last test runs the real CLI (`bin/loopkit.js`, built by `npm test` before vitest) in a child
 * process: its main thread has a much smaller stack than a vitest worker, which is where deep
 * nesting used to overflow the stack.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../src/engine/diagnostic.js';
import { lint } from '../src/api/engine.js';
import type { LintResult } from '../src/engine/run.js';
import { PERMISSIONS } from './helpers/permissions.js';

const EMOJI = '😀'; // a surrogate pair
const CJK = '漢'; // three UTF-8 bytes
const COMBINING = 'e\u0301'; // e + combining acute
const FAMILY = '👩‍👩‍👧'; // ZWJ sequence
const FLAG = '🇩🇪'; // regional indicators
const NASTY = [EMOJI, CJK, COMBINING, FAMILY, FLAG, '\u00a0', '\u200b', '\ufeff'];
/** the length limits of the rules (characters and bytes): name 64, excerpts 50, states 128 … */
const CUTS = [20, 50, 64, 100, 128, 200, 500, 1024];

/** `nasty` placed so that it straddles character/byte position `cut`. */
function straddles(filler: string): string[] {
  const out: string[] = [];
  for (const cut of CUTS) {
    for (const n of NASTY) {
      out.push(filler.repeat(Math.max(0, cut - 1)) + n + filler.repeat(3));
      out.push(filler.repeat(Math.max(0, cut - 2)) + n + n + filler);
    }
  }
  return out;
}

function nastySkill(): string {
  const desc = `${'d'.repeat(1023)}${EMOJI} Use when testing ${CJK}.`;
  const lines = [
    '\ufeff---',
    'name: nasty-unicode',
    `description: "${desc}"`,
    `compatibility: "${'c'.repeat(499)}${EMOJI}${COMBINING}"`,
    'allowed-tools: Read, Write',
    'license: LICENSE 😀.md',
    'metadata:',
    `  ${EMOJI}.${CJK}: ${FAMILY}`,
    '  x.y.z: 1',
    `${EMOJI}: ${CJK}`,
    '---',
    `## Description ${EMOJI}`,
    `A skill ${FAMILY} that writes docs; see [LOOP.md](LOOP.md) and [ref](ref%20${EMOJI}.md) and [deep](a/${CJK}/${EMOJI}.md).`,
    ...straddles('a').map((s) => `- ${s}`),
    ...straddles('`').map((s) => `${s}`),
    ...straddles('*'),
    ...straddles('\\'),
    `Paths: ${EMOJI}C:\\Users\\ann${EMOJI}\\x.md and \`${CJK}\\${COMBINING}\\z.py\` /home/${EMOJI}/x [abs](/${EMOJI}/x.md) (/${CJK}`,
    `span) dates: März 2024, March${EMOJI} 2024, ${EMOJI}March 2024${EMOJI}, mayo\u00a02024`,
    '## Rules',
    `1. ${EMOJI}Verify the ${CJK} output`,
    `2. **${COMBINING}dit** 5 ways to ${FAMILY}`,
    '3.',
    '## State Model',
    `States: \`in-dev\`, \`${EMOJI}-state\`, \`${CJK}${CJK}\`, \`${'s'.repeat(127)}${EMOJI}\`, \`\`.`,
    `| a | b ${EMOJI} |`,
    '|--|',
    `| \\| | \`x\\|y\` | extra | cells | ${CJK}`,
    '|',
    `<div>html ${EMOJI} C:\\x <b>unclosed`,
    `<!-- comment ${CJK}`,
    `${'x'.repeat(100_000)}${EMOJI}${'y'.repeat(1000)}`,
    `#${EMOJI} not a heading`,
    `##`,
    `## ${'h'.repeat(49)}${EMOJI}`,
    'transition a → b',
    `- [ ] ${EMOJI} task`,
    `[^${EMOJI}]: footnote ${CJK}`,
    `[${EMOJI}]: <${CJK} ${EMOJI}>`,
    '    indented code C:\\x',
    '```python',
    'try:',
    '    x = 12345',
    'except:',
    '    pass',
    '```',
    `\`\`\`${EMOJI}`,
    `unclosed fence ${CJK} C:\\Users\\x transition a → b`,
  ];
  return lines.join('\r\n');
}

function nastyLoop(): string {
  return [
    '\ufeff## Entry Conditions',
    `${EMOJI}`,
    `## ${'u'.repeat(49)}${EMOJI}`,
    `${'b'.repeat(49)}${EMOJI}${'b'.repeat(10)}`,
    `${'b'.repeat(48)}${CJK}${CJK}`,
    '## State Transition Rule',
    `transition ${EMOJI} → ${CJK}`,
    `transition in-dev → d${COMBINING}ne`,
    `transition ${'s'.repeat(127)}${EMOJI} -> done`,
    'transition a ->',
    'transition → b',
    `  trigger ${EMOJI}`,
    `  halt ${EMOJI} after ${EMOJI} iterations`,
    `  handoff ${EMOJI} to ${CJK}`,
    `- transition x ---> y`,
    `1. ${EMOJI}verify ${CJK}`,
    `2. ${'v'.repeat(60)}${EMOJI}`,
    '## Halt Conditions',
    `halt stall after 10 iterations ${EMOJI}`,
    `asphalt ${EMOJI} road`,
    '## Handoff Target',
    `handoff ${FAMILY} to ${FLAG}`,
    '```',
    'transition x → y',
  ].join('\r\n');
}

function deepNesting(levels: number): string {
  return [
    '---',
    'name: deep-nesting',
    'description: Nests deeply. Use when testing loopkit.',
    '---',
    '## Description',
    `${'> '.repeat(levels)}quoted ${EMOJI} C:\\Users\\x March 2024`,
    '',
    `${'- '.repeat(levels - 1000)}listed ${CJK} /home/ann/x`,
    '',
    `${'*'.repeat(levels)}emphasis${'*'.repeat(levels)}`,
    '',
    `${'['.repeat(levels)}link${'](x.md)'.repeat(levels)}`,
    '',
    ...Array.from({ length: 60 }, (_, i) => `${'  '.repeat(i)}- level ${i} ${EMOJI}`),
    '',
  ].join('\n');
}

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'loopkit.js');

const FILES: Record<string, string> = {
  'README.md': `# Project ${EMOJI}\n\nSkills: \`nasty-unicode\`, \`writing-${EMOJI}\`, \`${'w'.repeat(63)}${EMOJI}ing\`\n`,
  'skills/nasty-unicode/SKILL.md': nastySkill(),
  'skills/nasty-unicode/LOOP.md': nastyLoop(),
  [`skills/nasty-unicode/ref ${EMOJI}.md`]: [
    `# Ref ${EMOJI}`,
    ...Array.from({ length: 150 }, (_, i) => `line ${i} ${CJK} [next](deeper-${i}.md)`),
  ].join('\r\n'),
  // one of the files the reference sends the agent on to (a chain of references)
  'skills/nasty-unicode/deeper-7.md': `# Deeper ${CJK}\n`,
  [`skills/nasty-unicode/orphan-${EMOJI}.md`]: '',
  'skills/nasty-unicode/scripts/run.py': `import requests\nprint("${EMOJI}")\n`,
  'skills/nasty-unicode/scripts/empty.sh': '',
  'skills/deep-nesting/SKILL.md': deepNesting(3000),
  'skills/deep-nesting/LOOP.md': `## State Transition Rule\n${'> '.repeat(3000)}transition a → b\n`,
  'skills/empty-file/SKILL.md': '',
  'skills/empty-file/LOOP.md': '',
  'skills/only-dashes/SKILL.md': '---',
  'skills/only-dashes/LOOP.md': '---\n',
  [`skills/${EMOJI}-${COMBINING}/SKILL.md`]: `---\nname: ${EMOJI}-${COMBINING}\ndescription:\n---\n`,
};

let root = '';
let result: LintResult;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loopkit-robustness-'));
  for (const [rel, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text, 'utf8');
  }
  result = await lint({ root });
}, 120_000);

afterAll(() => {
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

/** Check one located place: the file exists, the line is one of its lines, the column on it. */
function expectInside(file: string, line: number | null, column: number | null, what: string): void {
  if (line === null) {
    // a whole file or directory (possibly a missing one, e.g. loop-state-file-missing)
    expect(column, `${what}: no column without a line`).toBeNull();
    return;
  }
  const abs = join(root, file);
  const st = statSync(abs, { throwIfNoEntry: false });
  expect(st?.isFile(), `${what}: a line is only given inside an existing file`).toBe(true);
  const text = readFileSync(abs, 'utf8');
  expect(line, `${what}: line ≥ 1`).toBeGreaterThanOrEqual(1);
  // editor lines: after a final line break an editor shows one more (empty) line
  expect(line, `${what}: line exists`).toBeLessThanOrEqual(text.split('\n').length);
  expect(column, `${what}: column ≥ 1`).not.toBeNull();
  expect(column!, `${what}: column ≥ 1`).toBeGreaterThanOrEqual(1);
  // UTF-16 columns; the line break itself (`\r` or `\n`) is the last place on a line
  const lineText = text.split('\n')[line - 1] ?? '';
  expect(column!, `${what}: column within the line`).toBeLessThanOrEqual(lineText.length + 1);
}

describe('robustness: all rules on hostile markdown', () => {
  it('loads every skill', () => {
    expect(result.project.skills.map((s) => s.dirName).sort()).toEqual(
      [`${EMOJI}-${COMBINING}`, 'deep-nesting', 'empty-file', 'nasty-unicode', 'only-dashes'].sort(),
    );
  });

  it('no rule crashes', () => {
    const crashes = result.diagnostics.filter((d) => d.code === 'internal-error').map((d) => d.message);
    expect(crashes).toEqual([]);
  });

  it('reports something (the project really is checked)', () => {
    const codes = new Set(result.diagnostics.map((d) => d.code));
    for (const code of [
      'skill-windows-path',
      'skill-absolute-path',
      'skill-time-sensitive',
      'skill-deep-reference',
      'skill-ref-missing-toc',
      'skill-orphan-reference',
    ]) {
      expect(codes.has(code), code).toBe(true);
    }
  });

  it('every located diagnostic points inside its file', () => {
    for (const d of result.diagnostics as Diagnostic[]) {
      const what = `${d.code} ${d.file}:${d.line}:${d.column}`;
      expectInside(d.file, d.line, d.column, what);
      for (const r of d.related ?? []) expectInside(r.file, r.line, r.column, `${what} related`);
    }
  });

  it('the CLI survives nesting that overflows a main-thread stack', () => {
    const deep = 'skills/very-deep/SKILL.md';
    mkdirSync(dirname(join(root, deep)), { recursive: true });
    writeFileSync(join(root, deep), `---\nname: very-deep\ndescription: Nests. Use when testing.\n---\n${'>'.repeat(12_000)} x\n`, 'utf8');
    const r = spawnSync(process.execPath, [BIN, root, '--format', 'json'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(r.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/mu);
    expect(r.status, r.stderr).toBeLessThanOrEqual(1);
    const report = JSON.parse(r.stdout) as { diagnostics: { code: string }[] };
    expect(report.diagnostics.filter((d) => d.code === 'internal-error')).toEqual([]);
  }, 120_000);
});

describe('robustness: scale and shape', () => {
  const temp = () => {
    const d = mkdtempSync(join(tmpdir(), 'loopkit-scale-'));
    extra.push(d);
    return d;
  };
  const extra: string[] = [];
  afterAll(() => {
    for (const d of extra) rmSync(d, { recursive: true, force: true });
  }, 120_000);
  const write = (root: string, rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };

  it('10,000 transitions in one LOOP.md: every one in the graph, located', async () => {
    const root = temp();
    write(root, '.loopkit.yaml', 'loop_state_files: []\nmax_iterations: 20000\nenforced_states:\n  - name: done\n');
    write(
      root,
      'skills/running-a/SKILL.md',
      '---\nname: running-a\ndescription: Runs a chain. Use when testing.\n---\n## Description\nSee [LOOP.md](LOOP.md).\n## Rules\n1. Go.\n## State Model\n`in-s-0`\n',
    );
    const lines = ['## State Transition Rule', ''];
    for (let i = 0; i < 10_000; i++) lines.push(`transition in-s-${i} → ${i === 9_999 ? 'done' : `in-s-${i + 1}`}`);
    write(root, 'skills/running-a/LOOP.md', `${lines.join('\n')}\n`);
    const r = await lint({ root, only: ['sim-unreachable-terminal', 'loop-malformed-transition', 'state-invalid-name'] });
    expect(r.graph.edges).toHaveLength(10_000);
    expect(r.graph.edges[9_999]!.line).toBe(10_002);
    expect(r.diagnostics).toEqual([]);
  }, 120_000);

  it('10,000 skills (generated): all discovered, in order, none lost', async () => {
    const root = temp();
    write(root, '.loopkit.yaml', 'extends: agent-skills\n');
    for (let i = 0; i < 10_000; i++) {
      const name = `doing-task-${String(i).padStart(5, '0')}`;
      write(
        root,
        `skills/${name}/SKILL.md`,
        `---\nname: ${name}\ndescription: Does task ${i}. Use when task ${i} is asked for.\n---\n# Task ${i}\n`,
      );
    }
    const r = await lint({ root, only: ['skill-name-mismatch-dir', 'skill-duplicate-name'] });
    expect(r.project.skills).toHaveLength(10_000);
    expect(r.project.skills[4_321]!.name).toBe('doing-task-04321');
    expect(r.diagnostics).toEqual([]);
  }, 120_000);

  it('skill names differing only in case are kept apart, and reported the same on every run', async () => {
    const root = temp();
    write(root, '.loopkit.yaml', 'extends: agent-skills\n');
    write(root, 'skills/Doing-X/SKILL.md', '---\nname: Doing-X\ndescription: Does x. Use when x.\n---\n# X\n');
    write(root, 'skills/doing-x/SKILL.md', '---\nname: doing-x\ndescription: Does x. Use when x.\n---\n# x\n');
    const a = await lint({ root });
    const b = await lint({ root });
    expect(a.project.skills.map((s) => s.dir)).toEqual(['skills/Doing-X', 'skills/doing-x']);
    expect(a.diagnostics.map((d) => `${d.code} ${d.file}:${d.line}`)).toEqual(b.diagnostics.map((d) => `${d.code} ${d.file}:${d.line}`));
    expect(a.diagnostics.some((d) => d.code === 'skill-name-invalid-chars' && d.file === 'skills/Doing-X/SKILL.md')).toBe(true);
  });

  it("a script's line of 400,000 characters is read in linear time (a quadratic search took minutes: zxyycom/skills)", async () => {
    const root = temp();
    write(root, '.loopkit.yaml', 'extends: strict\n');
    write(
      root,
      'skills/making-reports/SKILL.md',
      '---\nname: making-reports\ndescription: Makes reports. Use when asked for a report.\n---\n# Reports\n\nRun `scripts/build.js`, then read output/report.md and output/missing.md.\n',
    );
    write(root, 'skills/making-reports/output/.gitkeep', '');
    // a minified bundle: one line that writes, with a quoted string as long as the file
    write(
      root,
      'skills/making-reports/scripts/build.js',
      `fs.writeFileSync("${'a/'.repeat(200_000)}x");fs.writeFileSync("output/report.md", t);\n`,
    );
    const r = await lint({ root });
    // the script was read: the file it writes is not missing, the other one is
    const missing = r.diagnostics.filter((d) => d.code === 'skill-named-file-missing').map((d) => d.message);
    expect(missing.some((m) => m.includes('output/missing.md'))).toBe(true);
    expect(missing.some((m) => m.includes('output/report.md'))).toBe(false);
  });

  it('files that cannot be read (a FIFO, a dangling link) are reported, and the rest is checked', async () => {
    const root = temp();
    write(root, '.loopkit.yaml', 'extends: agent-skills\n');
    write(root, 'skills/doing-c/SKILL.md', '---\nname: doing-c\ndescription: Does c. Use when c.\n---\n# C\n');
    mkdirSync(join(root, 'skills/doing-fifo'), { recursive: true });
    spawnSync('mkfifo', [join(root, 'skills/doing-fifo/SKILL.md')]);
    mkdirSync(join(root, 'skills/doing-link'), { recursive: true });
    const { symlinkSync } = await import('node:fs');
    symlinkSync(join(root, 'nowhere.md'), join(root, 'skills/doing-link/SKILL.md'));
    const r = await lint({ root });
    const unreadable = r.diagnostics.filter((d) => d.code === 'skill-read-error').map((d) => d.file);
    expect(unreadable).toContain('skills/doing-fifo/SKILL.md');
    expect(r.project.skills.map((s) => s.name)).toEqual(['doing-c']);
  });

  it.skipIf(!PERMISSIONS.apply)(
    `an unreadable SKILL.md is reported, an unreadable folder breaks nothing, and the rest is checked${PERMISSIONS.apply ? '' : ` (skipped: ${PERMISSIONS.why})`}`,
    () => {
      const root = temp();
      write(root, '.loopkit.yaml', 'extends: agent-skills\n');
      write(root, 'skills/doing-a/SKILL.md', '---\nname: doing-a\ndescription: Does a. Use when a.\n---\n# A\n');
      write(root, 'skills/doing-b/SKILL.md', '---\nname: doing-b\ndescription: Does b. Use when b.\n---\n# B\n');
      write(root, 'skills/doing-c/SKILL.md', '---\nname: doing-c\ndescription: Does c. Use when c.\n---\n# C\n');
      // the checking user (root checks as `nobody`) can read the project, but not these two
      chmodSync(root, 0o755);
      for (const d of ['skills', 'skills/doing-a', 'skills/doing-c']) chmodSync(join(root, d), 0o755);
      for (const f of ['.loopkit.yaml', 'skills/doing-c/SKILL.md', 'skills/doing-b/SKILL.md']) chmodSync(join(root, f), 0o644);
      chmodSync(join(root, 'skills/doing-a/SKILL.md'), 0o000);
      chmodSync(join(root, 'skills/doing-b'), 0o000);
      try {
        const r = spawnSync(process.execPath, [BIN, root, '--format', 'json'], { encoding: 'utf8', ...PERMISSIONS.as });
        expect(r.stderr).not.toMatch(/\n\s+at /u);
        expect(r.status).toBe(1);
        const doc = JSON.parse(r.stdout) as { skills_checked: number; diagnostics: { code: string; location: { path: string } }[] };
        const unreadable = doc.diagnostics.filter((d) => d.code === 'skill-read-error').map((d) => d.location.path);
        expect(unreadable).toContain(join(root, 'skills/doing-a/SKILL.md'));
        // a folder that cannot be read may hold a skill: reported, never a silent PASS
        expect(unreadable).toContain(join(root, 'skills/doing-b'));
        // doing-c is checked: counted, and nothing is wrong with it (an unreadable SKILL.md is no skill to
        // count; an unreadable folder, doing-b, cannot be looked into)
        expect(doc.skills_checked).toBe(1);
        expect(doc.diagnostics.filter((d) => d.location.path.startsWith(join(root, 'skills/doing-c')))).toEqual([]);
      } finally {
        chmodSync(join(root, 'skills/doing-a/SKILL.md'), 0o644);
        chmodSync(join(root, 'skills/doing-b'), 0o755);
      }
    },
  );
});
