/**
 * Property-based tests (fast-check): for generated inputs — LOOP.md and SKILL.md text built from
 * the DSL's own grammar mixed with markdown and junk, YAML frontmatter, whole projects — the
 * pipeline never throws, every position points inside its file, and the output is the same on
 * every run and whatever order the files were written in.
 *
 * Seeded and bounded: LOOPKIT_PROPERTY_RUNS (default 60) sets the number of cases per property,
 * LOOPKIT_PROPERTY_SEED the seed (default fixed), so `npm test` is fast and repeatable; run longer
 * with e.g. `LOOPKIT_PROPERTY_RUNS=2000 npx vitest run test/properties.test.ts`.
 */
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { computeFixes } from '../src/api/engine.js';
import { lint } from '../src/api/engine.js';
import { jsonReport } from '../src/reporters/json.js';
import { textReport } from '../src/reporters/text.js';
import { parseDsl } from '../src/parse/dsl.js';
import { extractFile } from '../src/parse/extract.js';
import { parseFrontmatter } from '../src/parse/frontmatter.js';
import { sourceFile } from '../src/parse/markdown.js';
import { sectionsAt } from '../src/parse/sections.js';

const RUNS = Number(process.env.LOOPKIT_PROPERTY_RUNS ?? 60);
const SEED = Number(process.env.LOOPKIT_PROPERTY_SEED ?? 20261123);
const params = (runs = RUNS) => ({ numRuns: runs, seed: SEED, endOnFailure: true });

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

// ---- generators -------------------------------------------------------------------------------

const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/u);
const state = fc.oneof(
  fc.tuple(word, word).map(([a, b]) => `${a}-${b}`),
  fc.constantFrom('done', 'in-dev', 'halted-stall', 'in-qa', 'Bad_State', 'in.dev', '`in-dev`'),
);
const arrow = fc.constantFrom('→', '->', '--->', '=>', '-->', ' ');
const junk = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '*',
    '**',
    '_',
    '[',
    ']',
    '(',
    '`',
    '```',
    '~~~',
    '> ',
    '- ',
    '1. ',
    '| a | b |',
    '|---|---|',
    '<!--',
    '-->',
    '\\',
    '\r',
    '\t',
    '\u0000',
    '🚀',
    'é',
  ),
);
/** A line of LOOP.md: DSL, markdown, or junk. */
const loopLine = fc.oneof(
  fc.tuple(state, arrow, state).map(([a, r, b]) => `transition ${a} ${r} ${b}`),
  fc.tuple(fc.constantFrom('', '- ', '1. ', '`'), state, state).map(([m, a, b]) => `${m}transition ${a} → ${b}`),
  junk.map((j) => `trigger ${j}`),
  fc
    .tuple(word, fc.constantFrom('3', '10', 'ten', '-1', '99999999999', ''))
    .map(([r, n]) => `halt ${r}${n === '' ? '' : ` after ${n} iterations`}`),
  fc.tuple(word, word).map(([s, a]) => `handoff ${s} to ${a}`),
  fc.constantFrom('## Entry Conditions', '## State Transition Rule', '## Halt Conditions', '## Handoff Target', '# Title', '### Sub', ''),
  fc.tuple(fc.constantFrom('1. ', '2) ', '- '), word).map(([m, w]) => `${m}${w} the thing`),
  junk,
);
const loopText = fc.array(loopLine, { maxLength: 40 }).map((lines) => lines.join(fc.sample(fc.constantFrom('\n'), 1)[0]!));

const yamlValue = fc.oneof(
  junk,
  fc.constantFrom(
    '"quoted',
    "'x'",
    '[a, b',
    '{a: 1}',
    '>',
    '|',
    '.inf',
    '.nan',
    '~',
    'null',
    'yes',
    '- a\n  - b',
    '&a x',
    '*a',
    '!!binary x',
  ),
);
const frontmatter = fc
  .array(fc.tuple(fc.constantFrom('name', 'description', 'metadata', 'license', 'allowed-tools', 'x', 'level', ''), yamlValue), {
    maxLength: 6,
  })
  .map((pairs) => `---\n${pairs.map(([k, v]) => `${k}: ${v}`).join('\n')}\n---\n`);
const skillText = fc
  .tuple(fc.oneof(frontmatter, fc.constant('')), fc.array(loopLine, { maxLength: 30 }))
  .map(([fm, lines]) => `${fm}${lines.join('\n')}`);

// ---- checks -----------------------------------------------------------------------------------

/** A 1-based place lies inside the text: an existing line, a column on it (or just past its end). */
function inside(text: string, line: number | null | undefined, column: number | null | undefined): boolean {
  if (line == null) return column == null;
  const lines = text.split('\n');
  if (line < 1 || line > lines.length) return false;
  if (column == null) return true;
  return column >= 1 && column <= lines[line - 1]!.length + 1;
}

/** Every {line, column} pair in a value (deeply), with the path to it. */
function places(value: unknown, path = ''): { path: string; line: number; column: number | null }[] {
  const out: { path: string; line: number; column: number | null }[] = [];
  if (value === null || typeof value !== 'object') return out;
  const o = value as Record<string, unknown>;
  if (typeof o.line === 'number') out.push({ path, line: o.line, column: typeof o.column === 'number' ? o.column : null });
  for (const [k, v] of Object.entries(o)) if (v !== null && typeof v === 'object') out.push(...places(v, `${path}.${k}`));
  return out;
}

/** A generated project: an optional config, one to four skills (with or without LOOP.md), maybe a README. */
const project = fc.record({
  config: fc.oneof(
    fc.constant(null),
    fc.constantFrom(
      'loop_state_files: []\n',
      'max_iterations: 2\nloop_state_files: []\n',
      'extends: agent-skills\n',
      'halt_reasons: [stall]\n',
    ),
  ),
  skills: fc.uniqueArray(
    fc.tuple(
      word.map((w) => `running-${w}`),
      skillText,
      fc.option(loopText, { nil: undefined }),
    ),
    {
      minLength: 1,
      maxLength: 4,
      selector: (s) => s[0],
    },
  ),
  readme: fc.option(junk, { nil: undefined }),
});

/** The files of a generated project: project-relative path and text. */
function projectFiles(p: typeof project extends fc.Arbitrary<infer T> ? T : never): [string, string][] {
  const files: [string, string][] = [];
  if (p.config !== null) files.push(['.loopkit.yaml', p.config]);
  if (p.readme !== undefined) files.push(['README.md', `# Readme\n\n\`${p.readme}\`\n`]);
  for (const [name, skill, loop] of p.skills) {
    files.push([`skills/${name}/SKILL.md`, skill]);
    if (loop !== undefined) files.push([`skills/${name}/LOOP.md`, loop]);
  }
  return files;
}

/** Write files, in the given order, into a new temporary directory. */
function writeProject(order: [string, string][]): string {
  const root = mkdtempSync(join(tmpdir(), 'loopkit-prop-'));
  temps.push(root);
  for (const [rel, text] of order) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

describe('properties', () => {
  it('the DSL parser never throws, places everything inside the file, and is deterministic', () => {
    fc.assert(
      fc.property(loopText, (text) => {
        const run = () => {
          const file = sourceFile('LOOP.md', text, true);
          return parseDsl(file, sectionsAt(file, 2));
        };
        const a = run();
        for (const p of places(a)) expect(inside(text, p.line, p.column), `${p.path} ${p.line}:${p.column}`).toBe(true);
        expect(JSON.stringify(run())).toBe(JSON.stringify(a));
      }),
      params(RUNS * 3),
    );
  });

  it('the frontmatter reader never throws and places every key inside the file', () => {
    fc.assert(
      fc.property(skillText, (text) => {
        const fm = parseFrontmatter(sourceFile('SKILL.md', text, false));
        for (const p of places(fm)) expect(inside(text, p.line, p.column), `${p.path} ${p.line}:${p.column}`).toBe(true);
      }),
      params(RUNS * 3),
    );
  });

  it('markdown → facts never throws and every extracted place is inside the file', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('skill', 'loop', 'reference', 'handoffs') as fc.Arbitrary<'skill' | 'loop' | 'reference' | 'handoffs'>,
        skillText,
        (kind, text) => {
          const { facts } = extractFile(`skills/x/${kind === 'loop' ? 'LOOP' : 'SKILL'}.md`, kind, text);
          const located = places(facts).filter((p) => !p.path.includes('.value')); // YAML values are data
          for (const p of located) expect(inside(text, p.line, p.column), `${p.path} ${p.line}:${p.column}`).toBe(true);
        },
      ),
      params(RUNS * 2),
    );
  });

  it('on generated projects the whole pipeline never throws, locates every diagnostic inside its file, and gives the same bytes whatever the order the files were written in', async () => {
    await fc.assert(
      fc.asyncProperty(project, async (p) => {
        const files = projectFiles(p);
        const report = async (root: string) => {
          const r = await lint({ root, preset: p.config === null ? 'loop-language' : undefined });
          for (const d of r.diagnostics) {
            const text = files.find(([rel]) => rel === d.file)?.[1];
            if (text === undefined) continue; // a directory, or a file the project names but lacks
            expect(inside(text, d.line, d.column), `${d.code} ${d.file}:${d.line}:${d.column}`).toBe(true);
            expect(d.code).not.toBe('internal-error');
          }
          for (const rel of r.diagnostics.flatMap((d) => d.related ?? [])) {
            const text = files.find(([f]) => f === rel.file)?.[1];
            if (text !== undefined) expect(inside(text, rel.line, rel.column), `related ${rel.file}:${rel.line}:${rel.column}`).toBe(true);
          }
          return `${jsonReport(r)}${textReport(r, { color: false })}`.split(root).join('<root>');
        };
        const first = await report(writeProject(files));
        const again = await report(writeProject([...files].reverse()));
        expect(again).toBe(first);
      }),
      params(Math.max(10, Math.floor(RUNS / 2))),
    );
  }, 120_000);
  it('--fix on generated projects never throws, changes only what it fixes, and is idempotent', async () => {
    let fixed = 0;
    await fc.assert(
      fc.asyncProperty(project, async (p) => {
        const files = projectFiles(p);
        const root = writeProject(files);
        const preset = p.config === null ? 'loop-language' : undefined;
        const run = await computeFixes({ root, preset });
        if (run.fixes.length > 0) fixed++;
        for (const fix of run.fixes) {
          expect(fix.before).toBe(files.find(([rel]) => rel === fix.path)?.[1]);
          expect(fix.after).not.toBe(fix.before);
          expect(Object.keys(fix.fixed).length).toBeGreaterThan(0);
          writeFileSync(join(root, fix.path), fix.after);
        }
        // fixed once, nothing is left to fix: a second run changes nothing
        const again = await computeFixes({ root, preset });
        expect(again.fixes.map((f) => f.path)).toEqual([]);
      }),
      params(Math.max(10, Math.floor(RUNS / 2))),
    );
    // the generated projects do need fixing (else the property proves nothing)
    expect(fixed).toBeGreaterThan(0);
  }, 120_000);
});
