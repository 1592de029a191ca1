/**
 * --fix on every fixture of every fixable rule: a fixed file re-checked has none of the fixed
 * problems, fixing again changes nothing, and nothing but the repair changes (per rule: sections
 * only move or are added, a frontmatter value changes only its syntax). Then the CLI: --fix writes
 * and reports what remains, --fix-dry-run prints a diff that applies and writes nothing.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { computeFixes } from '../src/api/engine.js';
import { lint } from '../src/api/engine.js';
import { rules } from '../src/rules/index.js';
import { run, Temps } from './helpers/cli.js';
import { listCases } from './helpers/fixtures.js';
import { meaningChanges } from './helpers/readings.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

/** Every file of a directory: relative path → content. */
function snapshot(dir: string, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(join(dir, prefix))) {
    const rel = prefix === '' ? name : `${prefix}/${name}`;
    if (statSync(join(dir, rel)).isDirectory()) for (const [k, v] of snapshot(dir, rel)) out.set(k, v);
    else out.set(rel, readFileSync(join(dir, rel), 'utf8'));
  }
  return out;
}

const lines = (s: string) => s.split(/\r?\n/u);
const PLACEHOLDER = /^(## .+|<!-- TODO: write this section \(added by loopkit --fix\) -->|)$/u;

/** Are the lines `small` a subsequence of `big`? */
function onlySubsequence(small: readonly string[], big: readonly string[]): boolean {
  let i = 0;
  for (const line of big) if (i < small.length && line === small[i]) i++;
  return i === small.length;
}

/** Is `small` a subsequence of `big`, and is everything else in `big` placeholder text? */
function onlyPlaceholdersAdded(before: string, after: string): boolean {
  const a = lines(before);
  const b = lines(after);
  let i = 0;
  for (const line of b) {
    if (i < a.length && line === a[i]) i++;
    else if (!PLACEHOLDER.test(line)) return false;
  }
  return i === a.length;
}

/** The frontmatter block's text (between the fences) and the rest. */
function split(text: string): { fm: string; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/u.exec(text);
  return m ? { fm: m[1]!, body: text.slice(m[0].length) } : { fm: '', body: text };
}

/** What may change, rule by rule. */
const INVARIANT: Record<string, (before: string, after: string) => void> = {
  'loop-section-order': (before, after) => {
    // the same lines, in another order
    expect(
      lines(after)
        .filter((l) => l !== '')
        .sort(),
    ).toEqual(
      lines(before)
        .filter((l) => l !== '')
        .sort(),
    );
  },
  'loop-missing-section': (before, after) => expect(onlyPlaceholdersAdded(before, after)).toBe(true),
  'skill-missing-rules': (before, after) => expect(onlyPlaceholdersAdded(before, after)).toBe(true),
  'skill-missing-section': (before, after) => expect(onlyPlaceholdersAdded(before, after)).toBe(true),
  'skill-missing-state-model': (before, after) => expect(onlyPlaceholdersAdded(before, after)).toBe(true),
  'skill-missing-description': (before, after) => expect(onlyPlaceholdersAdded(before, after)).toBe(true),
  'skill-allowed-tools-format': (before, after) => {
    // only the allowed-tools entry changed: every other line is still there, in order
    expect(split(after).body).toBe(split(before).body);
    const others = lines(before).filter((l) => !l.startsWith('allowed-tools:'));
    expect(onlySubsequence(others, lines(after))).toBe(true);
    expect(after).toMatch(/^allowed-tools:\r?\n {2}- /mu);
  },
  'skill-metadata-inline-map': (before, after) => {
    const a = split(before);
    const b = split(after);
    expect(b.body).toBe(a.body);
    expect(parse(b.fm)).toEqual(parse(a.fm));
    expect(b.fm).not.toMatch(/^metadata:.*\{/mu);
  },
};

/** Invalid fixtures whose problem is of a fixable message but cannot be fixed mechanically. */
const NOT_FIXED: Record<string, string> = {
  'skill-metadata-inline-map/flow-list': 'a flow list is not a map: what its entries mean is for the author to say',
  'skill-metadata-inline-map/hermes-is-not-one-line':
    'only a flow map of plain values is rewritten; a nested one is for the author to lay out',
};

const fixable = rules.filter((r) => r.fix);

describe('--fix on the fixtures of every fixable rule', () => {
  it('the fixable rules', () => {
    expect(fixable.map((r) => r.meta.code)).toEqual([
      'loop-missing-section',
      'loop-section-order',
      'skill-allowed-tools-format',
      'skill-metadata-inline-map',
      'skill-missing-description',
      'skill-missing-rules',
      'skill-missing-section',
      'skill-missing-state-model',
    ]);
    for (const r of fixable) expect(INVARIANT[r.meta.code], r.meta.code).toBeDefined();
  });

  for (const rule of fixable) {
    const code = rule.meta.code;
    const messages = rule.fix!.messages as readonly string[] | undefined;
    const repairable = (d: { code: string; messageId?: string }) => d.code === code && (!messages || messages.includes(d.messageId!));
    for (const c of listCases(code)) {
      it(`${code}: ${c.kind}/${c.name}`, async () => {
        const dir = temps.dir();
        cpSync(c.dir, dir, { recursive: true });
        const options = { root: dir, only: [code], ...(existsSync(join(dir, '.loopkit.yaml')) ? {} : { preset: 'loop-language' }) };
        const before = snapshot(dir);
        const had = (await lint(options)).diagnostics.filter(repairable);
        const first = await computeFixes(options);
        expect(first.skipped).toEqual([]);
        // valid cases, and problems of messages the fix part does not repair (a missing description field …)
        if (c.kind === 'valid' || had.length === 0) {
          expect(first.fixes).toEqual([]);
          return;
        }
        for (const f of first.fixes) writeFileSync(join(dir, f.path), f.after);
        const after = snapshot(dir);
        const left = (await lint(options)).diagnostics.filter(repairable);
        const key = `${code}/${c.name}`;
        if (NOT_FIXED[key]) {
          expect(first.fixes).toEqual([]);
          expect(left.length).toBeGreaterThan(0);
          return;
        }
        // a fixed file re-checked has none of the fixed problems
        expect(left).toEqual([]);
        expect(first.fixes.length).toBeGreaterThan(0);
        expect(first.result.diagnostics.filter(repairable)).toEqual([]);
        for (const f of first.fixes) expect(f.fixed[code]).toBeGreaterThan(0);
        // only the fixed files changed, and only as the rule may change them
        for (const [path, text] of before) {
          const fix = first.fixes.find((f) => f.path === path);
          if (!fix) expect(after.get(path), path).toBe(text);
          else {
            INVARIANT[code]!(text, after.get(path)!);
            expect(meaningChanges(Object.keys(fix.fixed), text, after.get(path)!), path).toEqual([]);
          }
        }
        expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
        // idempotent
        const second = await computeFixes(options);
        expect(second.fixes).toEqual([]);
      });
    }
  }
});

/** A project with one skill (SKILL.md and LOOP.md as given) and the default configuration. */
function project(skill: string, loop: string | null, config = 'loop_state_files: []\nenforced_states:\n  - name: done\n'): string {
  const dir = temps.dir();
  cpSync(join(import.meta.dirname, '..', 'fixtures', 'projects', 'clean'), dir, { recursive: true });
  writeFileSync(join(dir, '.loopkit.yaml'), config);
  writeFileSync(join(dir, 'skills', 'running-a', 'SKILL.md'), skill);
  if (loop !== null) writeFileSync(join(dir, 'skills', 'running-a', 'LOOP.md'), loop);
  return dir;
}

const SKILL = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'projects', 'clean', 'skills', 'running-a', 'SKILL.md'), 'utf8');
const LOOP = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'projects', 'clean', 'skills', 'running-a', 'LOOP.md'), 'utf8');

describe('--fix keeps every other byte', () => {
  it('CRLF line breaks and a file without a final line break: sections reordered and added as they are', async () => {
    const sections = LOOP.split(/(?=^## )/mu);
    // Halt Conditions first, Entry Conditions dropped, CRLF, no final newline
    const shuffled = [sections[5]!, ...sections.slice(1, 5), sections[6]!].join('').replace(/\n/gu, '\r\n').replace(/\r\n$/u, '');
    const dir = project(SKILL, shuffled);
    const r = await computeFixes({ root: dir });
    expect(r.fixes.map((f) => [f.path, f.fixed])).toEqual([
      ['skills/running-a/LOOP.md', { 'loop-missing-section': 1, 'loop-section-order': 1 }],
    ]);
    const after = r.fixes[0]!.after;
    expect(after.replace(/\r\n/gu, '')).not.toContain('\n');
    expect(after.endsWith('\n')).toBe(false);
    expect(
      after.startsWith('## Entry Conditions\r\n\r\n<!-- TODO: write this section (added by loopkit --fix) -->\r\n\r\n## Loop State Schema'),
    ).toBe(true);
    expect(after.indexOf('## Halt Conditions')).toBeGreaterThan(after.indexOf('## State Transition Rule'));
    expect(after.endsWith('handoff done to all-agents')).toBe(true);
    expect(r.result.diagnostics).toEqual([]);
  });

  it('a suppressed problem is not fixed', async () => {
    const dir = project(
      SKILL,
      `<!-- loopkit-disable loop-missing-section -->\n${LOOP.replace(/## Proof of Progress[\s\S]*?(?=## State)/u, '')}`,
    );
    const r = await computeFixes({ root: dir });
    expect(r.fixes).toEqual([]);
  });

  it('a fix that would break the YAML of the frontmatter is not applied', async () => {
    // a fix part gone wrong: it writes an unclosed flow list
    const part = rules.find((r) => r.meta.code === 'skill-allowed-tools-format')!.fix!;
    const spy = vi.spyOn(part, 'fix').mockImplementation(({ file }) => {
      const at = file.text.indexOf('Read, Grep');
      return [{ start: at, end: at + 'Read, Grep'.length, text: '[Read, Grep' }];
    });
    try {
      const dir = project(SKILL.replace('description:', 'allowed-tools: Read, Grep\ndescription:'), LOOP);
      const r = await computeFixes({ root: dir });
      expect(spy).toHaveBeenCalled();
      expect(r.fixes).toEqual([]);
      expect(r.skipped).toEqual([{ path: 'skills/running-a/SKILL.md', reason: 'the fix would break the syntax of the file' }]);
      expect(r.result.diagnostics.map((d) => d.code)).toEqual(['skill-allowed-tools-format']);
    } finally {
      spy.mockRestore();
    }
  });

  it('allowed-tools becomes a YAML list of the same tools, quoted where a plain item would read otherwise', async () => {
    const dir = project(
      SKILL.replace('description:', 'allowed-tools: "Bash(git log *), Read:,*, Bash(git add:*, git diff)"  # tools\ndescription:'),
      LOOP,
    );
    const r = await computeFixes({ root: dir });
    expect(r.fixes.map((f) => f.fixed)).toEqual([{ 'skill-allowed-tools-format': 1 }]);
    expect(r.fixes[0]!.after).toContain(
      'allowed-tools:\n  - Bash(git log *)\n  - "Read:"\n  - "*"\n  - Bash(git add:*, git diff)  # tools\ndescription:',
    );
    expect(meaningChanges(['skill-allowed-tools-format'], r.fixes[0]!.before, r.fixes[0]!.after)).toEqual([]);
  });

  it('several fixes in one SKILL.md, in canonical order', async () => {
    const dir = project(
      '---\nname: running-a\ndescription: Runs a tiny loop. Use when testing loopkit.\nallowed-tools: Read, Grep\nmetadata: {owner: qa, tier: "2"}\n---\nSee [LOOP.md](LOOP.md).\n\n## State Model\n\n`in-dev` to `done`.\n',
      LOOP,
    );
    const r = await computeFixes({ root: dir });
    expect(r.fixes).toHaveLength(1);
    expect(r.fixes[0]!.after).toBe(
      '---\nname: running-a\ndescription: Runs a tiny loop. Use when testing loopkit.\nallowed-tools:\n  - Read\n  - Grep\nmetadata:\n  owner: qa\n  tier: "2"\n---\nSee [LOOP.md](LOOP.md).\n\n## Description\n\n<!-- TODO: write this section (added by loopkit --fix) -->\n\n## Rules\n\n<!-- TODO: write this section (added by loopkit --fix) -->\n\n## State Model\n\n`in-dev` to `done`.\n',
    );
    expect(r.result.diagnostics).toEqual([]);
  });
});

describe('loopkit check --fix / --fix-dry-run', () => {
  const broken = () =>
    project(
      SKILL.replace('description:', 'allowed-tools: Read, Grep\ndescription:'),
      LOOP.replace(/## Halt Conditions\n\nNone\.\n\n/u, '').replace(
        '## Entry Conditions',
        '## Halt Conditions\n\nNone.\n\n## Entry Conditions',
      ),
    );

  it('--fix-dry-run prints a diff that applies, writes nothing, exits 1; nothing to fix exits 0', async () => {
    const dir = broken();
    const before = snapshot(dir);
    const r = await run(['check', '--fix-dry-run'], { cwd: dir });
    expect(r.status).toBe(1);
    expect(snapshot(dir)).toEqual(before);
    expect(r.stdout).toContain('--- a/skills/running-a/LOOP.md\n+++ b/skills/running-a/LOOP.md\n@@ ');
    expect(r.stdout).toContain('-allowed-tools: Read, Grep\n+allowed-tools:\n+  - Read\n+  - Grep\n');
    expect(r.stderr).toBe(
      'loopkit: --fix would fix 2 problems in 2 files (nothing written):\n  skills/running-a/LOOP.md: loop-section-order\n  skills/running-a/SKILL.md: skill-allowed-tools-format\n',
    );
    // the diff is a patch: git apply gives what --fix writes
    const patched = temps.dir();
    cpSync(dir, patched, { recursive: true });
    writeFileSync(join(patched, 'fix.patch'), r.stdout);
    const apply = spawnSync('git', ['apply', 'fix.patch'], { cwd: patched, encoding: 'utf8' });
    expect(apply.stderr).toBe('');
    await run(['check', '--fix'], { cwd: dir });
    for (const [path, text] of snapshot(dir)) expect(readFileSync(join(patched, path), 'utf8'), path).toBe(text);
    const clean = await run(['check', '--fix-dry-run'], { cwd: dir });
    expect(clean.status).toBe(0);
    expect(clean.stdout).toBe('');
    expect(clean.stderr).toBe('loopkit: nothing to fix\n');
  });

  it('--fix writes the fixes, says what it fixed, and reports what remains (with its exit code)', async () => {
    const dir = broken();
    writeFileSync(
      join(dir, 'skills', 'running-a', 'LOOP.md'),
      readFileSync(join(dir, 'skills', 'running-a', 'LOOP.md'), 'utf8') + 'halt stalled after 3 iterations\n',
    );
    const r = await run(['check', '--fix', '--no-color'], { cwd: dir });
    expect(r.stderr).toContain('loopkit: fixed 2 problems in 2 files:\n');
    expect(r.stdout).toContain("Unknown halt reason 'stalled'");
    expect(r.stdout).toMatch(/^PASS {2}0 errors, 1 warning/mu);
    expect(r.status).toBe(0);
    expect((await run(['check', '--json'], { cwd: dir })).stdout).toBe((await run(['check', '--json', '--fix'], { cwd: dir })).stdout);
  });

  it('with file arguments, only those files are fixed; --rule limits the rules', async () => {
    const dir = broken();
    const r = await run(['check', '--fix', join(dir, 'skills', 'running-a', 'SKILL.md')]);
    expect(r.stderr).toContain('skills/running-a/SKILL.md: skill-allowed-tools-format');
    expect(r.stderr).not.toContain('LOOP.md:');
    expect(r.stdout).toContain('[loop-section-order]');
  });

  it('--rule limits the fixes to the named rules', async () => {
    // LOOP.md: out of order and a section missing (two rules); SKILL.md: a flow-style metadata map
    const loop = LOOP.replace(/## Proof of Progress\n[\s\S]*?(?=## )/u, '');
    const dir = project(
      SKILL.replace('description:', 'metadata: {owner: qa}\ndescription:'),
      loop
        .replace(/## Halt Conditions\n\nNone\.\n\n/u, '')
        .replace('## Entry Conditions', '## Halt Conditions\n\nNone.\n\n## Entry Conditions'),
    );
    const loopFile = join(dir, 'skills', 'running-a', 'LOOP.md');
    const skillFile = join(dir, 'skills', 'running-a', 'SKILL.md');
    const skillBefore = readFileSync(skillFile, 'utf8');
    const only = await run(['check', '--fix', '--rule', 'loop-section-order', '--no-color'], { cwd: dir });
    expect(only.stderr).toBe('loopkit: fixed 1 problem in 1 file:\n  skills/running-a/LOOP.md: loop-section-order\n');
    const fixed = readFileSync(loopFile, 'utf8');
    expect(fixed.indexOf('## Halt Conditions')).toBeGreaterThan(fixed.indexOf('## Entry Conditions'));
    // what other rules would fix is left as it was
    expect(fixed).not.toContain('## Proof of Progress');
    expect(readFileSync(skillFile, 'utf8')).toBe(skillBefore);
    // without --rule, the other two are fixed too
    const all = await run(['check', '--fix', '--no-color'], { cwd: dir });
    expect(all.stderr).toBe(
      'loopkit: fixed 2 problems in 2 files:\n  skills/running-a/LOOP.md: loop-missing-section\n  skills/running-a/SKILL.md: skill-metadata-inline-map\n',
    );
    expect(readFileSync(loopFile, 'utf8')).toContain('## Proof of Progress');
  });

  it('--fix and --fix-dry-run together are a usage error', async () => {
    const r = await run(['check', 'fixtures/projects/clean', '--fix', '--fix-dry-run']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--fix and --fix-dry-run exclude each other');
  });
});
