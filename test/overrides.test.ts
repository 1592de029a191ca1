/**
 * Per-glob overrides (`overrides:` in .loopkit.yaml, as ESLint and markdownlint-cli2 have them):
 * severities for the files an entry's globs match, a later entry winning, every entry winning over
 * `rules:`; located configuration errors; the cache stays correct when they change.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfigText } from '../src/config/load.js';
import { lint } from '../src/api/engine.js';
import type { LintResult } from '../src/engine/run.js';
import { matchesGlob } from '../src/engine/severity.js';
import { PROJECTS, run } from './helpers/cli.js';

const OVERRIDES = join(PROJECTS, 'overrides');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'loopkit-overrides-'));
  dirs.push(d);
  return d;
};
const copy = () => {
  const d = temp();
  cpSync(OVERRIDES, d, { recursive: true });
  return d;
};

/** The findings of the codes the fixture is about, as `file code severity`. */
const CODES = ['config-unknown-key', 'skill-broken-link', 'skill-time-sensitive', 'skill-windows-path'];
const shown = (r: LintResult) => r.diagnostics.filter((d) => CODES.includes(d.code)).map((d) => `${d.file} ${d.code} ${d.severity}`);

describe('overrides', () => {
  it('give severities per file: a folder, a glob list, a later entry over an earlier one, over rules:, and on where rules: says off', async () => {
    expect(shown(await lint({ root: OVERRIDES }))).toEqual([
      // an override for the config file itself
      '.loopkit.yaml config-unknown-key info',
      // skills/legacy/: the broken link a warning, the Windows path off
      'skills/legacy/formatting-logs/SKILL.md skill-broken-link warning',
      // skills/legacy/old-notes/**: a later entry turns the broken link off (no line at all)
      // skills/release-*/SKILL.md: skill-time-sensitive is off in rules: but on here
      'skills/release-notes/SKILL.md skill-time-sensitive warning',
      'skills/release-notes/SKILL.md skill-broken-link error',
      'skills/release-notes/SKILL.md skill-windows-path info',
      // no override: rules: (info) and the preset (error, definite)
      'skills/writing-docs/SKILL.md skill-broken-link error',
      'skills/writing-docs/SKILL.md skill-windows-path info',
    ]);
  });

  it('a rule on only in an override counts in the summary as it reports; --rule still selects it', async () => {
    const r = await lint({ root: OVERRIDES, only: ['skill-time-sensitive'] });
    expect(r.diagnostics.map((d) => d.file)).toEqual(['skills/release-notes/SKILL.md']);
    expect(r.ruleStats).toEqual([{ code: 'skill-time-sensitive', category: 'structure', errors: 0, warnings: 1, info: 0 }]);
  });

  it('accept aliases of codes', async () => {
    const dir = copy();
    writeFileSync(
      join(dir, '.loopkit.yaml'),
      'extends: agent-skills\noverrides:\n  - files: "**"\n    rules:\n      loop-unknown-halt-reason: off\n      skill-broken-link: info\n',
    );
    expect((await lint({ root: dir, only: ['skill-broken-link'] })).diagnostics.map((d) => d.severity)).toEqual([
      'info',
      'info',
      'info',
      'info',
    ]);
  });

  it('an unknown rule in an override is a configuration error at its line, with a suggestion (exit 2)', async () => {
    const dir = copy();
    writeFileSync(
      join(dir, '.loopkit.yaml'),
      'extends: agent-skills\noverrides:\n  - files: skills/**\n    rules:\n      skill-broken-links: off\n      skill-time-sensitiv: warn\n',
    );
    const r = await run([dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      ".loopkit.yaml:5:7: overrides.0.rules.skill-broken-links: unknown rule 'skill-broken-links'; did you mean 'skill-broken-link'?",
    );
    expect(r.stderr).toContain(
      ".loopkit.yaml:6:7: overrides.0.rules.skill-time-sensitiv: unknown rule 'skill-time-sensitiv'; did you mean 'skill-time-sensitive'?",
    );
  });

  it('a broken entry is a located configuration error; an unknown key in an entry is config-unknown-key, with a suggestion', () => {
    const load = (text: string) => parseConfigText(text, '.loopkit.yaml');
    const message = (text: string) => {
      try {
        load(text);
        return 'accepted';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(message('overrides:\n  - file: skills/**\n    rules: {skill-broken-link: off}\n')).toBe(
      '.loopkit.yaml:2:5: overrides.0.files: required: the glob, or list of globs, of the files the entry applies to\n' +
        ".loopkit.yaml:2:5: Unknown key 'file' in overrides entry 1; did you mean 'files'?",
    );
    expect(message('overrides:\n  - files: []\n')).toBe('.loopkit.yaml:2:12: overrides.0.files: expected at least one glob');
    expect(message('overrides:\n  - files: ""\n')).toBe('.loopkit.yaml:2:12: overrides.0.files.0: a glob must not be empty');
    expect(message('overrides: skills/**\n')).toBe('.loopkit.yaml:1:12: overrides: expected a list of {files, rules} entries');
    expect(message('overrides:\n  - files: a\n    rules:\n      x: fatal\n')).toBe(
      '.loopkit.yaml:4:10: overrides.0.rules.x: expected one of off, info, warning, error',
    );
    const ok = load('overrides:\n  - files: skills/**\n    rule: {skill-broken-link: off}\n');
    expect(ok.warnings.map((w) => [w.line, w.column, w.message])).toEqual([
      [3, 5, "Unknown key 'rule' in overrides entry 1; did you mean 'rules'?"],
    ]);
    expect(ok.config.overrides).toEqual([{ files: ['skills/**'], rules: {}, targets: [] }]);
    // a lone glob is a one-item list; an empty overrides: is none
    expect(load('overrides:\n  - files: "*.md"\n').config.overrides).toEqual([{ files: ['*.md'], rules: {}, targets: [] }]);
    expect(load('overrides:\n').config.overrides).toEqual([]);
  });

  it('globs: project-relative paths, minimatch syntax, dot files included, a trailing / is the whole folder', () => {
    const yes: [string, string][] = [
      ['skills/a/SKILL.md', 'skills/**'],
      ['skills/a/SKILL.md', 'skills/'],
      ['skills/a/SKILL.md', './skills/**/SKILL.md'],
      ['skills/a/SKILL.md', '/skills/*/SKILL.md'],
      ['.claude/skills/a/SKILL.md', '**/SKILL.md'],
      ['.claude/skills/a/SKILL.md', '.claude/**'],
      ['skills/release-1/SKILL.md', 'skills/release-*/SKILL.md'],
      ['skills/a/references/guide.md', 'skills/a/{references,assets}/*.md'],
      ['.loopkit.yaml', '.loopkit.yaml'],
      ['README.md', '*.md'],
    ];
    const no: [string, string][] = [
      ['skills/a/SKILL.md', '*.md'],
      ['skills/a/SKILL.md', 'skills/*'],
      ['skillsx/a/SKILL.md', 'skills/'],
      ['skills/legacy-a/SKILL.md', 'skills/legacy/'],
      ['skills/a/SKILL.md', '!skills/**'],
    ];
    for (const [file, glob] of yes) expect(matchesGlob(file, glob), `${file} ~ ${glob}`).toBe(true);
    for (const [file, glob] of no) expect(matchesGlob(file, glob), `${file} !~ ${glob}`).toBe(false);
  });

  it('the cache stays correct: a changed override applies at once, and a cached run reports what an uncached one does', async () => {
    const dir = copy();
    const cacheFile = join(temp(), 'cache.json');
    const first = await lint({ root: dir, cacheFile });
    expect(first.timing.runner.cached).toBe(0);
    const cached = await lint({ root: dir, cacheFile });
    expect(cached.timing.runner.parsed).toBe(0);
    expect(shown(cached)).toEqual(shown(first));
    // the same files, another override: the per-file results come from the cache, the severities from the new config
    const config = join(dir, '.loopkit.yaml');
    writeFileSync(config, readFileSync(config, 'utf8').replace('      skill-broken-link: warning\n', '      skill-broken-link: info\n'));
    const changed = await lint({ root: dir, cacheFile });
    expect(changed.timing.runner.parsed).toBe(0);
    expect(shown(changed)).toContain('skills/legacy/formatting-logs/SKILL.md skill-broken-link info');
    expect(shown(changed)).toEqual(shown(await lint({ root: dir })));
  });
});
