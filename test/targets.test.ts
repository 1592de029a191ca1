/**
 * Targets: the loaders a skill is written for decide the severity of a definite rule's finding
 * (engine/severity.ts, step 4). Detection from where a skill sits, the configuration and the
 * command line naming them, and, for every rule with a loader table and every target, the
 * severity the table promises — never an error for a loader that accepts the condition.
 */
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lint } from '../src/api/engine.js';
import { presetSeverity } from '../src/engine/severity.js';
import { detectTargets, fails, TARGETS, type Target } from '../src/model/targets.js';
import { rules } from '../src/rules/index.js';
import { listCases } from './helpers/fixtures.js';
import { run, Temps } from './helpers/cli.js';

const temps = new Temps();
afterAll(() => temps.cleanup());
const temp = () => temps.dir('loopkit-targets-');
/** A project of these files (project-relative path → text). */
const project = (files: Record<string, string>): string => temps.project(files, 'loopkit-targets-');

const NAMELESS = '---\ndescription: Formats changelog entries. Use when preparing a release.\n---\n# Formatting\n\nBody.\n';

describe('detectTargets', () => {
  const none = () => false;
  it('reads the loader from the folder a skill sits in, the nearest first', () => {
    const copilot = (p: string) => p === '.github/copilot-instructions.md';
    expect(detectTargets('.claude/skills/a', copilot)).toMatchObject({
      targets: ['claude-code'],
      alsoReadBy: ['copilot'],
      why: 'in .claude/skills/, and GitHub Copilot reads it: .github/copilot-instructions.md is there',
    });
    expect(detectTargets('.github/skills/a', none)).toMatchObject({ targets: ['copilot'], alsoReadBy: [] });
    expect(detectTargets('.agents/skills/a', copilot)).toMatchObject({ targets: ['codex'], alsoReadBy: ['copilot'] });
    expect(detectTargets('.codex/skills/a', none)).toMatchObject({ targets: ['codex'], alsoReadBy: [] });
    expect(detectTargets('packages/web/.github/skills/a', none)).toMatchObject({
      targets: ['copilot'],
      why: 'in packages/web/.github/skills/',
    });
    // GitHub Copilot reads .claude/skills/ and .agents/skills/ too only in a repository worked on with it
    // (held-out round 59): its customizations in the folder that holds the agent's folder, or above
    expect(detectTargets('.claude/skills/a', none)).toMatchObject({ targets: ['claude-code'], alsoReadBy: [], why: 'in .claude/skills/' });
    expect(detectTargets('.agents/skills/a', none)).toMatchObject({ targets: ['codex'], alsoReadBy: [] });
    for (const sign of ['.github/instructions', '.github/prompts', '.github/agents', '.github/chatmodes', '.github/skills'])
      expect(detectTargets('apps/web/.claude/skills/a', (p) => p === sign).alsoReadBy, sign).toEqual(['copilot']);
    expect(detectTargets('apps/web/.claude/skills/a', (p) => p === 'apps/web/.github/prompts').alsoReadBy).toEqual(['copilot']);
    expect(detectTargets('apps/web/.claude/skills/a', (p) => p === 'apps/api/.github/prompts').alsoReadBy).toEqual([]);
    // a skill's own sub-folder named skills does not make it another loader's
    expect(detectTargets('.claude/skills/a/examples/skills/b', none).targets).toEqual(['claude-code']);
  });
  it("another agent's own folder: the specification, read by that agent alone (held-out round 54)", () => {
    for (const dir of ['.cursor/skills/a', '.devin/skills/a', 'apps/web/.gemini/skills/a'])
      expect(detectTargets(dir, none), dir).toMatchObject({ targets: ['spec'], alsoReadBy: [] });
    // above a plugin manifest too: the nearest folder wins
    expect(detectTargets('p/.cursor/skills/a', (f) => f === '.claude-plugin/marketplace.json')).toMatchObject({
      targets: ['spec'],
      alsoReadBy: [],
    });
    // a folder that is not hidden is a collection every loader may read
    expect(detectTargets('cursor/skills/a', none).alsoReadBy.length).toBeGreaterThan(0);
  });
  it('reads plugin manifests and marketplaces above a skill', () => {
    const has = (files: string[]) => (p: string) => files.includes(p);
    expect(detectTargets('plugins/x/skills/a', has(['plugins/x/.claude-plugin/plugin.json']))).toMatchObject({
      targets: ['claude-code'],
      alsoReadBy: [],
      why: 'below plugins/x/.claude-plugin/plugin.json',
    });
    expect(detectTargets('plugins/x/skills/a', has(['.claude-plugin/marketplace.json'])).targets).toEqual(['claude-code']);
    expect(detectTargets('skills/a', has(['.codex-plugin/plugin.json'])).targets).toEqual(['codex']);
    expect(detectTargets('skills/a', has(['.claude-plugin/plugin.json', '.codex-plugin/plugin.json'])).targets).toEqual([
      'claude-code',
      'codex',
    ]);
    // the nearest manifest wins: a plugin of a marketplace of the other loader
    expect(detectTargets('p/skills/a', has(['p/.codex-plugin/plugin.json', '.claude-plugin/marketplace.json'])).targets).toEqual(['codex']);
  });
  it('anywhere else: a portable collection, the specification its target, every loader a reader', () => {
    expect(detectTargets('skills/a', none)).toMatchObject({
      targets: ['spec'],
      alsoReadBy: ['claude-code', 'copilot', 'codex', 'claude-api', 'openclaw'],
    });
    expect(detectTargets('', none).targets).toEqual(['spec']);
  });

  it('a .claude-plugin/ folder of any content is Claude Code’s, as its manifests are (held-out round 83)', () => {
    expect(detectTargets('skills/a', (p) => p === '.claude-plugin')).toMatchObject({
      targets: ['claude-code'],
      alsoReadBy: [],
      why: 'below .claude-plugin',
    });
    expect(detectTargets('skills/a', (p) => p === '.claude-plugin' || p === '.claude-plugin/plugin.json').why).toBe(
      'below .claude-plugin/plugin.json',
    );
  });

  it('an OpenClaw workspace: its skills/ beside .openclaw/, or a folder below openclaw.plugin.json', () => {
    const workspace = (p: string) => p === '.openclaw';
    expect(detectTargets('skills/a', workspace)).toMatchObject({
      targets: ['openclaw'],
      alsoReadBy: [],
      why: 'in skills/: an OpenClaw workspace (.openclaw/ is there)',
    });
    // sub-folders group skills: the nearest skills/ is the workspace's
    expect(detectTargets('skills/accounting/a', workspace).targets).toEqual(['openclaw']);
    // an agent's own folder in the workspace stays that agent's
    expect(detectTargets('.claude/skills/a', (p) => p === '.claude/.openclaw' || p === '.openclaw').targets).toEqual(['claude-code']);
    expect(detectTargets('plugins/x/skills/a', (p) => p === 'plugins/x/openclaw.plugin.json').targets).toEqual(['openclaw']);
    // a workspace below the root: its own .openclaw/ beside its skills/
    expect(detectTargets('agents/bot/skills/a', (p) => p === 'agents/bot/.openclaw').why).toBe(
      'in agents/bot/skills/: an OpenClaw workspace (agents/bot/.openclaw/ is there)',
    );
    expect(detectTargets('agents/bot/skills/a', (p) => p === 'bot/.openclaw').targets).toEqual(['spec']);
    // without the workspace's state, a skills/ folder is a portable collection
    expect(detectTargets('skills/a', none).targets).toEqual(['spec']);
  });
});

describe('severity by target', () => {
  it('a missing name: no finding in a Claude Code plugin, a not-portable note in .claude/skills (Copilot reads it), an error for Copilot and a portable collection', async () => {
    const root = project({
      '.github/copilot-instructions.md': '# Working on this repository\n',
      'plugins/p/.claude-plugin/plugin.json': '{"name": "p"}\n',
      'plugins/p/skills/formatting/SKILL.md': NAMELESS,
      '.claude/skills/formatting-notes/SKILL.md': NAMELESS,
      '.github/skills/formatting-logs/SKILL.md': NAMELESS,
      'skills/formatting-docs/SKILL.md': NAMELESS,
    });
    const r = await lint({ root, only: ['skill-missing-name'] });
    expect(r.diagnostics.map((d) => [d.file, d.severity, d.message])).toEqual([
      ['.claude/skills/formatting-notes/SKILL.md', 'info', 'not portable: name field missing from frontmatter'],
      ['.github/skills/formatting-logs/SKILL.md', 'error', 'name field missing from frontmatter'],
      ['skills/formatting-docs/SKILL.md', 'error', 'name field missing from frontmatter'],
    ]);
    expect(r.diagnostics[0]!.help).toContain(
      "GitHub Copilot rejects it. The skill is written for Claude Code (in .claude/skills/, and GitHub Copilot reads it: .github/copilot-instructions.md is there), and its name is the author's choice for Claude Code.",
    );
    expect(r.diagnostics[1]!.help).toContain('GitHub Copilot rejects it.');
  });

  it('in .claude/skills read by Copilot too: a name Claude Code accepts is a note, a skill Copilot skips for what it lacks a warning (held-out rounds 58, 88, 90)', async () => {
    const root = project({
      '.github/copilot-instructions.md': '# Working on this repository\n',
      '.claude/skills/add-models/SKILL.md':
        '---\nname: dyad:add-models\ndescription: Adds a model. Use when adding a model.\n---\n# Add models\n',
      '.claude/skills/audit_logging/SKILL.md': '---\nname: audit_logging\ndescription: Audits logs. Use when auditing.\n---\n# Audit\n',
      '.claude/skills/audit-integrity/SKILL.md': '# Audit integrity\n\nChecks the audit trail.\n',
    });
    const r = await lint({ root, only: ['skill-name-invalid-chars', 'skill-missing-frontmatter'] });
    expect(r.diagnostics.map((d) => [d.file, d.code, d.severity])).toEqual([
      ['.claude/skills/add-models/SKILL.md', 'skill-name-invalid-chars', 'info'],
      ['.claude/skills/audit-integrity/SKILL.md', 'skill-missing-frontmatter', 'warning'],
      ['.claude/skills/audit_logging/SKILL.md', 'skill-name-invalid-chars', 'info'],
    ]);
    // without a sign of Copilot, nothing but Claude Code reads the folder: no finding of the name
    const alone = project({
      '.claude/skills/audit_logging/SKILL.md': '---\nname: audit_logging\ndescription: Audits logs. Use when auditing.\n---\n# Audit\n',
    });
    expect((await lint({ root: alone, only: ['skill-name-invalid-chars'] })).diagnostics).toEqual([]);
  });

  it('an OpenClaw workspace (held-out round 78): what OpenClaw loads is no finding, what it does not load is an error', async () => {
    const skill = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n# Notes\n`;
    const root = project({
      '.openclaw/workspace-state.json': '{}\n',
      // OpenClaw checks no rule of a name's form, and no description's length
      'skills/sprint-method/SKILL.md': skill('13-Day Sprint Method', 'Plans a sprint. Use when planning.'),
      'skills/long-notes/SKILL.md': skill('long-notes', 'x'.repeat(1100)),
      // a skill without frontmatter has no description: OpenClaw does not load it
      'skills/accounting/invoices/SKILL.md': '# Invoices\n\nMatches invoices.\n',
      // the same skills outside the workspace: a portable collection
      'shared/skills/sprint-method/SKILL.md': skill('13-Day Sprint Method', 'Plans a sprint. Use when planning.'),
    });
    const r = await lint({ root, only: ['skill-name-invalid-chars', 'skill-description-too-long', 'skill-missing-frontmatter'] });
    expect(r.diagnostics.map((d) => [d.file, d.code, d.severity])).toEqual([
      ['shared/skills/sprint-method/SKILL.md', 'skill-name-invalid-chars', 'error'],
      ['skills/accounting/invoices/SKILL.md', 'skill-missing-frontmatter', 'error'],
    ]);
    expect(r.diagnostics[1]!.help).toContain('OpenClaw skips the skill without a word.');
  });

  it('a sub-skill in a Codex folder (held-out round 83): what Codex rejects of it as a skill of its own is a warning, what breaks it as a part stays an error', async () => {
    const root = project({
      '.agents/skills/forms/SKILL.md':
        '---\nname: forms\ndescription: Routes form questions. Use when building forms.\n---\n# Forms\n\nRead [core](core/SKILL.md).\n',
      // no name: the router links it; Codex, which loads every SKILL.md of its folder, skips it as a skill
      '.agents/skills/forms/core/SKILL.md': '---\ndescription: The core API.\n---\n# Core\n\nSee [the guide](guide.md).\n',
      // the same file as a skill of its own: an error
      '.agents/skills/tables/SKILL.md': '---\ndescription: Builds tables. Use when building tables.\n---\n# Tables\n',
    });
    const r = await lint({ root, only: ['skill-missing-name', 'skill-broken-link'] });
    expect(r.diagnostics.map((d) => [d.file, d.code, d.severity])).toEqual([
      ['.agents/skills/forms/core/SKILL.md', 'skill-missing-name', 'warning'],
      ['.agents/skills/forms/core/SKILL.md', 'skill-broken-link', 'error'],
      ['.agents/skills/tables/SKILL.md', 'skill-missing-name', 'error'],
    ]);
    expect(r.diagnostics[0]!.message).toBe('not portable: name field missing from frontmatter');
    expect(r.diagnostics[0]!.help).toContain(
      'OpenAI Codex rejects it. It sits in the folder of the skill .agents/skills/forms/, as its part, and OpenAI Codex loads it as a skill of its own too.',
    );
    // below a router whose folder is a skills folder, the skills are its collection's, not its parts
    const router = project({
      'tools/skills/SKILL.md': '---\nname: tools\ndescription: Lists the tools. Use when choosing a tool.\n---\n# Tools\n',
      'tools/skills/tables/SKILL.md': '---\ndescription: Builds tables. Use when building tables.\n---\n# Tables\n',
    });
    const routed = await lint({ root: router, only: ['skill-missing-name'] });
    expect(routed.diagnostics.map((d) => [d.file, d.severity])).toEqual([['tools/skills/tables/SKILL.md', 'error']]);
    // named targets stand
    const named = await lint({ root, only: ['skill-missing-name'], targets: ['codex'] });
    expect(named.diagnostics.map((d) => d.severity)).toEqual(['error', 'error']);
  });

  it('what only the specification asks for is a warning in a portable collection (held-out round 61) and in another agent’s folder unless every known loader rejects it (round 66); an error where the specification is named', async () => {
    const mismatched = '---\nname: formatting-other\ndescription: Formats code. Use when code needs formatting.\n---\n# Formatting\n';
    const root = project({ 'skills/formatting/SKILL.md': mismatched, '.cursor/skills/formatting/SKILL.md': mismatched });
    const detected = await lint({ root, only: ['skill-name-mismatch-dir'] });
    // in another agent's folder too: Claude Code and Copilot accept it, what Cursor does is not known
    expect(detected.diagnostics.map((d) => [d.file, d.severity, d.message.startsWith('not portable: ')])).toEqual([
      ['.cursor/skills/formatting/SKILL.md', 'warning', true],
      ['skills/formatting/SKILL.md', 'warning', true],
    ]);
    expect(detected.diagnostics[0]!.help).toContain('what the agent of the skill’s folder does is not known'.replace('’', "'"));
    expect(detected.diagnostics[1]!.help).toContain('Only the Agent Skills specification (and its validator, skills-ref) asks for it');
    const named = await lint({ root, only: ['skill-name-mismatch-dir'], targets: ['spec'] });
    expect(named.diagnostics.map((d) => d.severity)).toEqual(['error', 'error']);
    // a condition a loader that reads the collection rejects stays an error there; in another agent's
    // folder, one every loader loopkit knows rejects (a frontmatter no loader parses) stays an error,
    // one Claude Code accepts (no frontmatter at all) is a warning
    const nameless = await lint({ root: project({ 'skills/formatting-docs/SKILL.md': NAMELESS }), only: ['skill-missing-name'] });
    expect(nameless.diagnostics.map((d) => d.severity)).toEqual(['error']);
    const agent = project({
      '.agent/skills/formatting/SKILL.md': '---\nname: formatting\nname: other\n---\n# Formatting\n',
      '.agent/skills/linting/SKILL.md': '# Linting\n',
    });
    const broken = await lint({ root: agent, only: ['skill-invalid-frontmatter', 'skill-missing-frontmatter'] });
    expect(broken.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['skill-invalid-frontmatter', 'error'],
      ['skill-missing-frontmatter', 'warning'],
    ]);
  });

  it('the loop-language preset keeps the reference severities; named targets apply there too', async () => {
    const root = project({ 'plugins/p/.claude-plugin/plugin.json': '{}\n', 'plugins/p/skills/formatting/SKILL.md': NAMELESS });
    const reference = await lint({ root, only: ['skill-missing-name'], preset: 'loop-language' });
    expect(reference.diagnostics.map((d) => d.severity)).toEqual(['error']);
    const named = await lint({ root, only: ['skill-missing-name'], preset: 'loop-language', targets: ['claude-code'] });
    expect(named.diagnostics).toEqual([]);
  });

  it('targets: in .loopkit.yaml and in overrides:, --target over both; rules: over every target', async () => {
    const root = project({
      '.loopkit.yaml': 'extends: agent-skills\ntargets: copilot\noverrides:\n  - files: "skills/claude-*/**"\n    targets: [claude-code]\n',
      'skills/formatting/SKILL.md': NAMELESS,
      'skills/claude-formatting/SKILL.md': NAMELESS,
    });
    const shown = async (extra: { targets?: string[] } = {}) =>
      (await lint({ root, only: ['skill-missing-name'], ...extra })).diagnostics.map((d) => `${d.file} ${d.severity}`);
    // Copilot requires a name; the override makes one skill Claude Code's, which names it after its folder
    expect(await shown()).toEqual(['skills/formatting/SKILL.md error']);
    expect(await shown({ targets: ['claude-code'] })).toEqual([]);
    expect(await shown({ targets: ['claude-code,copilot'] })).toEqual([
      'skills/claude-formatting/SKILL.md error',
      'skills/formatting/SKILL.md error',
    ]);
    writeFileSync(join(root, '.loopkit.yaml'), 'extends: agent-skills\ntargets: claude-code\nrules:\n  skill-missing-name: warning\n');
    expect(await shown()).toEqual(['skills/claude-formatting/SKILL.md warning', 'skills/formatting/SKILL.md warning']);
  });

  it('an unknown target is a located configuration error, or a usage error on the command line, with a suggestion', async () => {
    const root = project({ '.loopkit.yaml': 'targets: [claude-code, copilt]\n', 'skills/formatting/SKILL.md': NAMELESS });
    const config = await run(['check', root]);
    expect(config.status).toBe(2);
    expect(config.stderr).toContain(".loopkit.yaml:1:24: targets.1: unknown target 'copilt'; did you mean 'copilot'?");
    const cli = await run(['check', root, '--target', 'claude-cod']);
    expect(cli.status).toBe(2);
    expect(cli.stderr).toContain("unknown target 'claude-cod'; did you mean 'claude-code'?");
  });

  // every rule with a loader table, under each target named: the severity the table promises
  // the rules whose table is about an agent file's or manifest's loaders (its place, not --target) are
  // judged by place in their fixtures and in test/agents.test.ts
  const tabled = rules.filter((r) => r.meta.loaders !== undefined && r.meta.loaders !== 'every' && r.meta.loadersOf !== 'agent-file');
  // a heuristic measured against the specification's text that nothing enforces (metadata typed as
  // strings): certain of its fact, guidance in effect, and its table still says where it is portable
  const TABLED_HEURISTICS = ['skill-metadata-deep-nesting'];
  it('every definite rule has a loader table, every heuristic none but those measured against the specification', () => {
    for (const r of rules) {
      if (r.meta.certainty === 'definite' || TABLED_HEURISTICS.includes(r.meta.code)) expect(r.meta.loaders, r.meta.code).toBeDefined();
      else expect(r.meta.loaders, r.meta.code).toBeUndefined();
    }
    expect(tabled.length).toBeGreaterThan(10);
  });
  for (const rule of tabled) {
    it(`${rule.meta.code}: for each target, the severity its loader table gives; never an error where the loader accepts it`, async () => {
      const table = rule.meta.loaders as Exclude<typeof rule.meta.loaders, 'every' | undefined>;
      // under agent-skills, or under strict for a heuristic outside the default set
      const presetName = presetSeverity(rule.meta, { presets: ['agent-skills'], auto: false }) === 'off' ? 'strict' : 'agent-skills';
      const preset = presetSeverity(rule.meta, { presets: [presetName], auto: false });
      // the rule's invalid fixtures of a portable collection (no config of their own, no loader's folder)
      const cases = listCases(rule.meta.code).filter(
        (c) =>
          c.kind === 'invalid' &&
          !existsSync(join(c.dir, '.loopkit.yaml')) &&
          !['.claude', '.agents', '.codex', '.github'].some((f) => existsSync(join(c.dir, f))),
      );
      let seen = 0;
      for (const c of cases) {
        const root = temp();
        cpSync(c.dir, root, { recursive: true });
        for (const target of TARGETS as readonly Target[]) {
          const r = await lint({ root, only: [rule.meta.code], preset: presetName, targets: [target] });
          const mine = r.diagnostics.filter((d) => d.code === rule.meta.code);
          const want = fails(table[target]) ? preset : 'off';
          if (want === 'off') expect(mine, `${c.name} for ${target}`).toEqual([]);
          else for (const d of mine) expect(d.severity, `${c.name} for ${target}`).toBe(want);
          if (!fails(table[target]))
            expect(
              mine.some((d) => d.severity === 'error'),
              `${c.name}: an error for ${target}`,
            ).toBe(false);
          seen += mine.length;
        }
      }
      // a table where some loader fails the condition reports it for that target; one where every
      // loader accepts it (skill-allowed-tools-format) reports nothing under agent-skills
      if ((TARGETS as readonly Target[]).some((t) => fails(table[t])))
        expect(seen, 'some target fails the condition of one of its fixtures').toBeGreaterThan(0);
      else expect(seen, 'no target fails the condition: nothing is reported').toBe(0);
    });
  }
});

describe('saying which targets a skill got and why', () => {
  const root = () =>
    project({
      '.github/copilot-instructions.md': '# Working on this repository\n',
      '.claude/skills/formatting-notes/SKILL.md': NAMELESS,
      'plugins/p/.claude-plugin/plugin.json': '{}\n',
      'plugins/p/skills/formatting/SKILL.md': NAMELESS,
      'skills/formatting-docs/SKILL.md': NAMELESS,
    });
  it('--print-config <file>: the skill, its loaders and why, and every rule’s severity in that file', async () => {
    const dir = root();
    const r = await run(['check', dir, '--print-config', join(dir, '.claude/skills/formatting-notes/SKILL.md')]);
    expect(r.status).toBe(0);
    const shown = JSON.parse(r.stdout) as {
      file: string;
      skill: string;
      targets: unknown;
      rules: Record<string, string>;
      presets: string[];
    };
    expect(shown).toMatchObject({
      file: '.claude/skills/formatting-notes/SKILL.md',
      skill: 'formatting-notes',
      presets: ['agent-skills'],
      targets: {
        targets: ['claude-code'],
        alsoReadBy: ['copilot'],
        why: 'in .claude/skills/, and GitHub Copilot reads it: .github/copilot-instructions.md is there',
      },
    });
    // Copilot reads .claude/skills and requires a name: not portable, a note (the name is the author's
    // choice for Claude Code); Claude Code accepts any folder name
    expect(shown.rules['skill-missing-name']).toBe('info');
    expect(shown.rules['skill-name-mismatch-dir']).toBe('off');
    expect(shown.rules['skill-broken-link']).toBe('error');
    const plugin = JSON.parse((await run(['check', dir, '--print-config', join(dir, 'plugins/p/skills/formatting/SKILL.md')])).stdout);
    expect(plugin.targets).toEqual({ targets: ['claude-code'], alsoReadBy: [], why: 'below plugins/p/.claude-plugin/plugin.json' });
    expect(plugin.rules['skill-missing-name']).toBe('off');
    const named = JSON.parse(
      (await run(['check', dir, '--target', 'copilot', '--print-config', join(dir, 'plugins/p/skills/formatting/SKILL.md')])).stdout,
    );
    expect(named.targets).toEqual({ targets: ['copilot'], alsoReadBy: ['claude-code'], why: '--target' });
    expect(named.rules['skill-missing-name']).toBe('error');
    const outside = await run(['check', dir, '--print-config', tmpdir()]);
    expect(outside.status).toBe(2);
    expect(outside.stderr).toContain('is not a file of the project');
  });
  it('--verbose: the loaders per group of skills, and why', async () => {
    const r = await run(['check', root(), '--verbose']);
    expect(r.stderr).toContain('  targets (the loaders the skills are written for):\n');
    expect(r.stderr).toContain(
      '    claude-code: 1 skill (in .claude/skills/, and GitHub Copilot reads it: .github/copilot-instructions.md is there); also read by copilot\n',
    );
    expect(r.stderr).toContain('    claude-code: 1 skill (below plugins/p/.claude-plugin/plugin.json)\n');
    expect(r.stderr).toContain(
      '    spec: 1 skill (in no loader’s folder and below no plugin manifest: a portable collection); also read by claude-code, copilot, codex, claude-api, openclaw\n',
    );
  });
  it('loopkit rules --target: the rules on for a skill written for that loader; --json carries each loader table', async () => {
    const cc = await run(['rules', '--target', 'claude-code']);
    expect(cc.status).toBe(0);
    expect(cc.stdout).not.toMatch(/^skill-missing-name /mu);
    expect(cc.stdout).toMatch(/^skill-invalid-frontmatter +error /mu);
    // Claude Code documents the form of a name but is not known to reject a skill for it (held-out round 33)
    expect(cc.stdout).not.toMatch(/^skill-name-invalid-chars /mu);
    const copilot = await run(['rules', '--target', 'copilot']);
    expect(copilot.stdout).toMatch(/^skill-missing-name +error /mu);
    const json = JSON.parse((await run(['rules', '--json'])).stdout) as { code: string; loaders: unknown }[];
    expect(json.find((r) => r.code === 'skill-missing-name')!.loaders).toMatchObject({
      'claude-code': { does: 'accepts', source: 'https://code.claude.com/docs/en/skills#frontmatter-reference' },
      copilot: { does: 'rejects' },
    });
    expect(json.find((r) => r.code === 'skill-broken-link')!.loaders).toBe('every');
    expect((await run(['rules', '--target', 'copilt'])).stderr).toContain("did you mean 'copilot'?");
  });
});
