/**
 * What an error promises: every rule's certainty, the severity policy (no heuristic is an error
 * under agent-skills or where loopkit configured the project itself; the loop-language preset the
 * user chose keeps the reference's severities; what the user writes wins), and a rule that throws.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { configFromSource } from '../src/config/load.js';
import { PRESET_NAMES, STRICT_ONLY } from '../src/config/presets.js';
import { lint, ruleIndex } from '../src/api/engine.js';
import { presetSeverity, severityPlan, type PresetChoice } from '../src/engine/severity.js';
import { rules } from '../src/rules/index.js';
import { run, Temps } from './helpers/cli.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

/** A temporary project of these files (project-relative path → text). */
const project = (files: Record<string, string>): string => temps.project(files, 'loopkit-certainty-');

const certainty = new Map(rules.map((r) => [r.meta.code, r.meta.certainty]));
const heuristics = rules.filter((r) => r.meta.certainty === 'heuristic');

/** How a run chooses its presets, as prepare() in engine/run.ts does for each kind of project. */
const CHOICES: Record<string, PresetChoice> = {
  'agent-skills (named)': { presets: ['agent-skills'], auto: false },
  'agent-skills (no .loopkit.yaml, no LOOP.md contract)': { presets: ['agent-skills'], auto: true },
  'loop-language (no .loopkit.yaml, a LOOP.md contract)': { presets: ['loop-language'], auto: true },
};

describe('certainty', () => {
  it('some rules are heuristics, and the three the reference makes errors are among them', () => {
    expect(heuristics.length).toBeGreaterThan(10);
    for (const code of ['skill-absolute-path', 'skill-windows-path', 'skill-body-too-long']) {
      const r = rules.find((x) => x.meta.code === code)!;
      expect(r.meta.certainty, code).toBe('heuristic');
      expect(r.meta.defaultSeverity, code).toBe('error');
    }
  });

  for (const [name, choice] of Object.entries(CHOICES)) {
    it(`no heuristic rule is an error: ${name}`, () => {
      // the whole mechanism, as the engine runs it: a project without .loopkit.yaml
      const plan = severityPlan(rules, ruleIndex(), configFromSource({ file: '.loopkit.yaml', text: null }), choice);
      for (const rule of rules) {
        const severity = plan.base(rule);
        expect(presetSeverity(rule.meta, choice), rule.meta.code).toBe(severity);
        if (rule.meta.certainty === 'heuristic') expect(severity, rule.meta.code).not.toBe('error');
        // a definite rule keeps its severity where the preset has no say
        else if (choice.presets[0] === 'loop-language') expect(severity, rule.meta.code).toBe(rule.meta.defaultSeverity);
      }
    });
  }

  it('the loop-language preset chosen by the user keeps the reference severities, heuristics included', () => {
    for (const rule of rules)
      expect(presetSeverity(rule.meta, { presets: ['loop-language'], auto: false }), rule.meta.code).toBe(rule.meta.defaultSeverity);
    // the last preset named decides
    expect(
      presetSeverity(heuristics.find((r) => r.meta.code === 'skill-windows-path')!.meta, {
        presets: ['loop-language', 'agent-skills'],
        auto: false,
      }),
    ).toBe('warning');
    expect(
      presetSeverity(heuristics.find((r) => r.meta.code === 'skill-windows-path')!.meta, {
        presets: ['agent-skills', 'loop-language'],
        auto: false,
      }),
    ).toBe('error');
  });

  it('a severity the user writes wins over the policy, in rules: and in overrides:', () => {
    const loaded = configFromSource({
      file: '.loopkit.yaml',
      text: 'extends: strict\nrules:\n  skill-windows-path: error\noverrides:\n  - files: skills/legacy/**\n    rules:\n      skill-absolute-path: error\n',
    });
    const plan = severityPlan(rules, ruleIndex(), loaded, { presets: ['strict'], auto: false });
    const rule = (code: string) => rules.find((r) => r.meta.code === code)!;
    expect(plan.at(rule('skill-windows-path'), 'skills/a/SKILL.md')).toBe('error');
    expect(plan.at(rule('skill-absolute-path'), 'skills/a/SKILL.md')).toBe('warning');
    expect(plan.at(rule('skill-absolute-path'), 'skills/legacy/a/SKILL.md')).toBe('error');
  });
});

/** Skills whose findings are heuristic errors under the reference: an absolute path, a Windows path, a body of 501 lines. */
const HEURISTIC_SKILL =
  '---\nname: writing-docs\ndescription: Writes the docs of a project. Use when the docs are out of date.\n---\n## Description\n\n' +
  'Templates are in `/home/ann/templates/docs.md` and run `scripts\\build.py` first.\n' +
  'See [the notes](notes.md) and [the reference](reference.md).\n' +
  'Filler line.\n'.repeat(499);
const LOOP =
  '## Entry Conditions\nReady.\n\n## Loop State Schema\n| field | type |\n|---|---|\n| story | str |\n\n## Single Iteration Step\n1. Call the writer.\n\n' +
  '## Proof of Progress\nA page more.\n\n## State Transition Rule\ntransition in-draft → in-review\ntransition in-review → done\n\n' +
  '## Halt Conditions\nNone.\n\n## Handoff Target\nhandoff done to all-agents\n';

function heuristicProject(extra: Record<string, string> = {}): string {
  return project({
    'skills/writing-docs/SKILL.md': HEURISTIC_SKILL,
    'skills/writing-docs/scripts/build.py': 'print("build")\n',
    'skills/writing-docs/notes.md': '# Notes\n',
    'skills/writing-docs/reference.md': '# Reference\n',
    ...extra,
  });
}

const HEURISTIC_ERRORS = ['skill-absolute-path', 'skill-body-too-long', 'skill-windows-path'];

describe('the policy, end to end', () => {
  it('no .loopkit.yaml, no LOOP.md: the heuristics are warnings, the build passes, and the note says why', async () => {
    const dir = heuristicProject();
    const r = await run([dir, '--json']);
    const doc = JSON.parse(r.stdout) as { diagnostics: { code: string; severity: string }[] };
    // in the default set a warning; a heuristic measured below the bar is strict's only (docs/presets.md)
    for (const code of HEURISTIC_ERRORS)
      expect(doc.diagnostics.find((d) => d.code === code)?.severity, code).toBe(STRICT_ONLY.includes(code) ? undefined : 'Warning');
    expect(doc.diagnostics.filter((d) => d.severity === 'Error')).toEqual([]);
    expect(r.status).toBe(0);
    const strict = JSON.parse((await run([dir, '--json', '--preset', 'strict'])).stdout) as {
      diagnostics: { code: string; severity: string }[];
    };
    for (const code of HEURISTIC_ERRORS) expect(strict.diagnostics.find((d) => d.code === code)?.severity, code).toBe('Warning');
    expect(r.stderr).toContain(
      'checked as a plain Agent Skills collection (preset agent-skills); only what loopkit is certain of is an error',
    );
  });

  it('no .loopkit.yaml, a LOOP.md contract: loop-language, but only definite findings are errors, and the note says so', async () => {
    const dir = heuristicProject({ 'skills/writing-docs/LOOP.md': LOOP });
    const result = await lint({ root: dir });
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    // the contract is judged by the Loop Language (its definite findings are errors) …
    expect(errors.map((d) => d.code)).toContain('state-invalid-name');
    // … but no guess is
    for (const d of errors) expect(certainty.get(d.code), d.code).toBe('definite');
    for (const code of HEURISTIC_ERRORS) expect(result.diagnostics.find((d) => d.code === code)?.severity, code).toBe('warning');
    expect(result.presetNote).toMatch(
      /^no \.loopkit\.yaml: checked as a Loop Language project .*\(preset loop-language\); only what loopkit is certain of is an error/u,
    );
    expect(result.presetNote).toContain('pass --preset loop-language');
  });

  for (const [how, files, args] of [
    ['--preset loop-language', {}, ['--preset', 'loop-language']],
    ['a .loopkit.yaml without extends', { '.loopkit.yaml': 'loop_state_files: []\n' }, []],
    ['extends: loop-language', { '.loopkit.yaml': 'extends: loop-language\n' }, []],
  ] as const) {
    it(`the loop-language preset chosen by the user (${how}) keeps the reference's errors, and prints no note`, async () => {
      const dir = heuristicProject(files);
      const r = await run([dir, '--json', ...args]);
      const doc = JSON.parse(r.stdout) as { diagnostics: { code: string; severity: string }[] };
      for (const code of HEURISTIC_ERRORS) expect(doc.diagnostics.find((d) => d.code === code)?.severity, code).toBe('Error');
      expect(r.status).toBe(1);
      expect(r.stderr).not.toContain('certain');
    });
  }

  it('a severity written in .loopkit.yaml wins over the policy', async () => {
    const dir = heuristicProject({ '.loopkit.yaml': 'extends: strict\nrules:\n  skill-windows-path: error\n' });
    const doc = JSON.parse((await run([dir, '--json'])).stdout) as { diagnostics: { code: string; severity: string }[] };
    expect(doc.diagnostics.find((d) => d.code === 'skill-windows-path')?.severity).toBe('Error');
    expect(doc.diagnostics.find((d) => d.code === 'skill-absolute-path')?.severity).toBe('Warning');
  });

  it('every preset has a name the CLI accepts', async () => {
    expect([...PRESET_NAMES].sort()).toEqual(['agent-skills', 'loop-language', 'strict']);
    for (const name of PRESET_NAMES)
      expect((await run(['fixtures/projects/seed-skills', '--preset', name, '--no-cache'])).status, name).not.toBe(2);
  });
});

describe('internal-error', () => {
  it('a rule that throws becomes one internal-error diagnostic, an error; the other rules still run', async () => {
    const dir = heuristicProject();
    const project = rules.find((r) => r.meta.code === 'skill-duplicate-name')!;
    const file = rules.find((r) => r.meta.code === 'skill-windows-path')!;
    const check = project.check!;
    const filePart = file.file!.check;
    project.check = () => {
      throw new Error('boom in the project part');
    };
    file.file!.check = () => {
      throw new Error('boom in the file part');
    };
    try {
      // strict: skill-absolute-path is outside the default set of agent-skills
      const r = await lint({
        root: dir,
        concurrency: 'off',
        preset: 'strict',
        only: ['skill-duplicate-name', 'skill-windows-path', 'skill-absolute-path'],
      });
      const crashes = r.diagnostics.filter((d) => d.code === 'internal-error');
      expect(crashes.map((d) => [d.severity, d.message, d.file])).toEqual([
        ['error', 'Rule skill-duplicate-name crashed: boom in the project part', 'skills'],
        ['error', 'Rule skill-windows-path crashed: boom in the file part', 'skills/writing-docs/SKILL.md'],
      ]);
      expect(crashes[0]!.help).toContain('bug in loopkit');
      // the rule that did not throw reported its finding
      expect(r.diagnostics.map((d) => d.code)).toContain('skill-absolute-path');
      expect(r.errors).toBe(2);
    } finally {
      project.check = check;
      file.file!.check = filePart;
    }
    // and once the rule is mended, nothing of it is left
    const again = await lint({ root: dir, concurrency: 'off', only: ['skill-duplicate-name', 'skill-windows-path'] });
    expect(again.diagnostics.map((d) => d.code)).toEqual(['skill-windows-path']);
  });
});
