/**
 * Discovery follows the repository: every SKILL.md is checked, ignored on purpose, or reported
 * (docs/discovery.md). The fixture projects fixtures/projects/discovery-* hold one behaviour each;
 * .git folders (which a fixture cannot commit) are made in temporary directories.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../src/cli.js';
import { fromAbove, rebased } from '../src/discover/ignore.js';
import { lint } from '../src/api/engine.js';
import type { LintResult } from '../src/engine/run.js';
import { BIN, PROJECTS, ROOT, run, Temps } from './helpers/cli.js';
import { PERMISSIONS } from './helpers/permissions.js';

const temps = new Temps();
afterAll(() => temps.cleanup());
/** git on this machine: the tests that ask it are skipped (and shown as skipped) without it */
const HAS_GIT = spawnSync('git', ['--version']).status === 0;

/** A skill with a valid name and description at `rel` of `dir`. */
function writeSkill(dir: string, rel: string): void {
  const name = rel.split('/').pop()!;
  mkdirSync(join(dir, rel), { recursive: true });
  writeFileSync(join(dir, rel, 'SKILL.md'), `---\nname: ${name}\ndescription: Does ${name}. Use when ${name} is needed.\n---\n# ${name}\n`);
}

/** A SKILL.md of this text, without frontmatter. */
function writeWithoutFrontmatter(dir: string, rel: string, text: string): void {
  mkdirSync(join(dir, rel), { recursive: true });
  writeFileSync(join(dir, rel, 'SKILL.md'), text);
}

/** A SKILL.md that fails the run wherever it is checked. */
function writeBroken(dir: string, rel: string): void {
  mkdirSync(join(dir, rel), { recursive: true });
  writeFileSync(join(dir, rel, 'SKILL.md'), '---\nname: Broken Skill\n---\n');
}

const skillsOf = (r: LintResult) => r.project.skills.map((s) => s.dir);
/** The folders left out, each with the pattern and where it comes from. */
const ignoredOf = (r: LintResult) =>
  r.layout.ignored.map(({ path, match }) => `${path} ${match.pattern} (${match.source}${match.file ? ` ${match.file}` : ''})`);
const check = (root: string, options: { ignorePatterns?: string[]; preset?: string } = {}) =>
  lint({ root, concurrency: 'off', ...options });

describe('every SKILL.md of the repository is a skill (no .loopkit.yaml)', () => {
  const dir = join(PROJECTS, 'discovery-layouts');

  it('wherever it sits: plugins at the top level, agents’ folders, inside an application, deep category folders', async () => {
    const r = await check(dir);
    expect(skillsOf(r)).toEqual([
      '.claude/skills/releasing',
      '.github/skills/triaging-issues',
      'app/.claude/skills/deploying-app',
      'docs/guides/writing/drafting-notes',
      'review-kit/skills/reviewing-code',
      'review-kit/skills/writing-tests',
      // a skill named like a default-ignored folder (build/) is a skill all the same
      'skills/build',
    ]);
    expect(r.errors).toBe(0);
  });

  it('leaves out templates, build output and broken test fixtures, names skills inside skills and other projects', async () => {
    const r = await check(dir);
    expect(ignoredOf(r)).toEqual(['_template _*/ (default)', 'build build/ (default)', 'tests tests/ (default)']);
    expect(r.layout.nested).toEqual(['.claude/skills/releasing/examples/hotfix']);
    expect(r.layout.subprojects).toEqual(['tools/other-project']);
    expect(r.layout.unchecked).toEqual([]);
    const shown = relative(ROOT, dir);
    const cli = await run([shown, '--no-color']);
    expect(cli.status).toBe(0);
    expect(cli.stdout).toMatch(/^PASS {2}0 errors, 0 warnings, 0 info {2}· {2}7 skills,/mu);
    expect(cli.stderr).toContain(
      'loopkit: 1 SKILL.md file inside another skill was not checked as a skill of its own: .claude/skills/releasing/examples/hotfix.',
    );
    expect(cli.stderr).toContain(
      'loopkit: 1 folder has a .loopkit.yaml of its own and is a project of its own, not checked with this one: tools/other-project. ' +
        'Check it with `loopkit check tools/other-project`.',
    );
    // --verbose says what was left out, and why
    const verbose = (await run([shown, '--verbose', '--quiet'])).stderr;
    expect(verbose).toContain(`  skills: every SKILL.md below ${shown}\n  ignored: 3 folders:\n`);
    expect(verbose).toContain(`    tests/ (default): ${shown}/tests\n`);
    expect(verbose).toContain(`  projects of their own: ${shown}/tools/other-project\n`);
  });

  it('a test fixture project given as the root is checked (the defaults apply below the root)', async () => {
    const r = await check(join(dir, 'tests', 'fixtures'));
    expect(skillsOf(r)).toEqual(['broken-skill']);
    expect(r.errors).toBeGreaterThan(0);
  });

  it('a skill reached through symbolic links is one skill, checked at its real place', async () => {
    const r = await check(join(PROJECTS, 'discovery-symlinks'));
    expect(skillsOf(r)).toEqual(['skills/reviewing-code']);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('a link that leaves the project is not followed, and a link back to the root does not loop', async () => {
    const outside = temps.dir();
    writeBroken(outside, 'foreign');
    const dir = temps.dir();
    writeSkill(dir, 'skills/reviewing-code');
    mkdirSync(join(dir, 'plugins'));
    symlinkSync(outside, join(dir, 'plugins', 'foreign'));
    symlinkSync('..', join(dir, 'plugins', 'mine'));
    const r = await check(dir);
    expect(skillsOf(r)).toEqual(['skills/reviewing-code']);
    expect(r.errors).toBe(0);
  });

  it('node_modules is never walked, and a .gitignore cannot make the defaults walk it', async () => {
    const dir = temps.dir();
    writeSkill(dir, 'skills/reviewing-code');
    writeBroken(dir, 'node_modules/some-package/skills/theirs');
    writeBroken(dir, 'dist/skills/copied');
    // committed for git's sake: loopkit still leaves build output out
    writeFileSync(join(dir, '.gitignore'), '!dist/\n');
    const r = await check(dir);
    expect(skillsOf(r)).toEqual(['skills/reviewing-code']);
    expect(ignoredOf(r)).toEqual(['dist dist/ (default)', 'node_modules node_modules/ (default)']);
  });

  it.skipIf(!PERMISSIONS.apply)(
    `a folder that cannot be read is a skill-read-error, never a silent PASS${PERMISSIONS.apply ? '' : ` (skipped: ${PERMISSIONS.why})`}`,
    () => {
      const dir = temps.dir();
      writeSkill(dir, 'skills/reviewing-code');
      writeSkill(dir, 'locked/drafting-notes');
      // the checking user (root checks as `nobody`) can read the project, but not `locked/`
      for (const d of ['', 'skills', 'skills/reviewing-code', 'locked/drafting-notes']) chmodSync(join(dir, d), 0o755);
      for (const f of ['skills/reviewing-code/SKILL.md', 'locked/drafting-notes/SKILL.md']) chmodSync(join(dir, f), 0o644);
      chmodSync(join(dir, 'locked'), 0o000);
      try {
        const r = spawnSync(process.execPath, [BIN, dir, '--no-color', '--no-cache'], { encoding: 'utf8', ...PERMISSIONS.as });
        expect(r.status).toBe(1);
        expect(r.stdout).toContain('locked: error: Failed to read the folder locked/: any skill in it was not checked  [skill-read-error]');
        expect(r.stdout).not.toContain('PASS');
      } finally {
        chmodSync(join(dir, 'locked'), 0o755);
      }
    },
  );

  it('every default pattern leaves its folder out, at the top and at any depth', async () => {
    // the table of docs/discovery.md, written out here: a default dropped from the code fails
    const defaults: [string, string][] = [
      ['.git', '.git/'],
      ['.hg', '.hg/'],
      ['.svn', '.svn/'],
      ['node_modules', 'node_modules/'],
      ['.venv', '.venv/'],
      ['venv', 'venv/'],
      ['dist', 'dist/'],
      ['build', 'build/'],
      ['out', 'out/'],
      ['coverage', 'coverage/'],
      ['test', 'test/'],
      ['tests', 'tests/'],
      ['fixtures', 'fixtures/'],
      ['testdata', 'testdata/'],
      ['scenarios', 'scenarios/'],
      ['tmp', 'tmp/'],
      ['_template', '_*/'],
      ['__tests__', '_*/'],
    ];
    const root = temps.dir();
    writeSkill(root, 'skills/planning');
    for (const [folder] of defaults) {
      writeBroken(root, `${folder}/pkg/broken`);
      writeBroken(root, `tools/deep/${folder}/pkg/broken`);
    }
    const r = await check(root);
    expect(skillsOf(r)).toEqual(['skills/planning']);
    expect(r.errors).toBe(0);
    const want = defaults.flatMap(([folder, pattern]) => [`${folder} ${pattern} (default)`, `tools/deep/${folder} ${pattern} (default)`]);
    expect(ignoredOf(r)).toEqual(want.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('a `_` folder that groups skills is walked; one that is a skill itself or is named for a part is not (held-out round 93)', async () => {
    const root = temps.dir();
    // an application's skills grouped in `_services/` and `_experts/`
    writeSkill(root, 'system/hub/_services/weather');
    writeSkill(root, 'system/agents/_experts/applications');
    // a template is a skill folder whose name no skill can have; parts are named for what they are
    writeBroken(root, 'system/_template');
    writeBroken(root, 'system/_templates/basic');
    writeBroken(root, 'skills/_archive/old-planner');
    writeBroken(root, 'skills/__tests__/broken');
    writeBroken(root, 'skills/_shared-drafts/x');
    const r = await check(root);
    expect(skillsOf(r)).toEqual(['system/agents/_experts/applications', 'system/hub/_services/weather']);
    expect(r.errors).toBe(0);
    expect(ignoredOf(r)).toEqual([
      'skills/__tests__ _*/ (default)',
      'skills/_archive _*/ (default)',
      'skills/_shared-drafts _*/ (default)',
      'system/_template _*/ (default)',
      'system/_templates _*/ (default)',
    ]);
  });

  it("skill-creator's workspace (<skill>-workspace/ with iteration-1/ or skill-snapshot/) is left out; another -workspace folder is walked (held-out round 95)", async () => {
    const root = temps.dir();
    writeSkill(root, 'skills/tfx-auto');
    // the copy skill-creator keeps before an edit, and a run's output
    writeBroken(root, 'skills/tfx-workspace/skill-snapshot/tfx-auto');
    writeBroken(root, 'skills/tfx-workspace/iteration-1/eval-0/outputs');
    writeBroken(root, 'skills/auto-workspace/skill-snapshot');
    // a skill group that happens to end in -workspace
    writeSkill(root, 'skills/team-workspace/planning');
    const r = await check(root);
    expect(skillsOf(r)).toEqual(['skills/team-workspace/planning', 'skills/tfx-auto']);
    expect(r.errors).toBe(0);
    expect(ignoredOf(r)).toEqual(['skills/auto-workspace *-workspace/ (default)', 'skills/tfx-workspace *-workspace/ (default)']);
  });

  it('a default does not hide a plugin of its name (plugins/build/ with its manifest, held-out round 65)', async () => {
    const root = temps.dir();
    mkdirSync(join(root, 'plugins/build/.claude-plugin'), { recursive: true });
    writeFileSync(join(root, 'plugins/build/.claude-plugin/plugin.json'), '{"name": "build"}\n');
    writeSkill(root, 'plugins/build/skills/building');
    writeBroken(root, 'packages/app/build/copied');
    const r = await check(root);
    expect(skillsOf(r)).toEqual(['plugins/build/skills/building']);
    expect(ignoredOf(r)).toEqual(['packages/app/build build/ (default)']);
  });

  it('a project without any skill is exit 2, with what was ignored', async () => {
    const dir = temps.dir();
    writeBroken(dir, 'tests/fixtures/broken');
    const r = await run([dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('no skills found in');
    expect(r.stderr).toContain('no SKILL.md below the root (1 folder ignored: tests/ (by default))');
  });
});

describe('a skill at the project root (docs/discovery.md, "The skill at the root")', () => {
  const RULES = join(PROJECTS, '..', 'rules', 'skill-outside-skills-dir');

  it('a single-skill repository is one skill whose folder is the root, with its scripts, references and shipped templates', async () => {
    const r = await check(join(PROJECTS, 'single-skill'));
    expect(skillsOf(r)).toEqual(['']);
    const [skill] = r.project.skills;
    expect(skill!.name).toBe('filling-pdf-forms');
    // the checkout folder's name (single-skill) is not the author's: the skill's folder is named by its frontmatter
    expect(skill!.dirName).toBe('filling-pdf-forms');
    expect(skill!.skillFile.path).toBe('SKILL.md');
    expect(skill!.scripts!.map((f) => f.path)).toEqual(['scripts/fill_form.py', 'scripts/list_fields.py']);
    expect([...skill!.references.keys()]).toEqual(['references/fields.md', 'assets/report-template/SKILL.md']);
    // a SKILL.md in its assets/ is a template it ships, part of it (not a skill with a `{{form-name}}` name)
    expect(r.layout.nested).toEqual(['assets/report-template']);
    expect(r.layout.unchecked).toEqual([]);
    const cli = await run([relative(ROOT, join(PROJECTS, 'single-skill')), '--no-color']);
    expect(cli.stdout).toMatch(/^PASS {2}0 errors, 0 warnings, 0 info {2}· {2}1 skill,/u);
    expect(cli.status).toBe(0);
  });

  it('its mistakes are reported at SKILL.md:line, and a name hint never renames the checkout folder', async () => {
    const shown = relative(ROOT, join(PROJECTS, 'single-skill-errors'));
    // strict: skill-reference-broken-link is outside the default set of agent-skills (docs/presets.md)
    const r = await run([shown, '--no-color', '--preset', 'strict']);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      `${shown}/SKILL.md:2:1: error: name 'Filling PDF Forms' contains invalid characters (only [a-z0-9-] allowed)  [skill-name-invalid-chars]\n` +
        "    hint: Not allowed: 'F', spaces, 'P', 'D'. Use lower-case kebab-case: write `name: filling-pdf-forms`.\n",
    );
    expect(r.stdout).toContain(
      `${shown}/SKILL.md:14:45: error: Link 'references/checklist.md' points at 'references/checklist.md', which does not exist  [skill-broken-link]`,
    );
    // a reference file's link is tried from the file and from the skill's folder (the root): neither
    // exists; a link of a reference document is a warning (whether it is meant to be followed is a guess)
    expect(r.stdout).toContain(
      `${shown}/references/fields.md:4:58: warning: Link 'references/choices.md' points at 'references/references/choices.md', which does not exist  [skill-reference-broken-link]`,
    );
    expect(r.stdout).toMatch(/^FAIL {2}2 errors, 1 warning, 1 info \(not shown: run with --verbose to see them\) {2}· {2}1 skill,/mu);
    expect(r.stdout).not.toContain('skill-name-mismatch-dir');
    expect(r.stdout).not.toContain('skill-outside-skills-dir');
  });

  it('a router skill at the top of its collection: the skills below stay skills of their own, and their folders are none of its files', async () => {
    // strict: skill-orphan-reference is outside the default set of agent-skills (docs/presets.md)
    const r = await check(join(PROJECTS, 'root-router'), { preset: 'strict' });
    expect(skillsOf(r)).toEqual(['', 'skills/drafting-notes', 'skills/reviewing-code']);
    expect(r.layout.nested).toEqual(['assets/skill-template']);
    const [router, drafting] = r.project.skills;
    expect(router!.name).toBe('routing-requests');
    // its own entries: the folder that holds the other skills is not one of them
    expect(router!.entries.map((e) => e.name)).toEqual(['README.md', 'SKILL.md', 'assets', 'references']);
    // the house style, linked from both, is drafting-notes' file: its `references/examples.md` lands in that skill's folder
    expect(r.diagnostics.filter((d) => d.code === 'skill-broken-link' || d.code === 'skill-reference-broken-link')).toEqual([]);
    expect(drafting!.references.get('references/style.md')?.file?.path).toBe('skills/drafting-notes/references/style.md');
    // another skill's unlinked file is that skill's orphan, not the router's
    const orphans = r.diagnostics.filter((d) => d.code === 'skill-orphan-reference').map((d) => `${d.file} ${d.skill}`);
    expect(orphans).toEqual(['skills/reviewing-code/checklist.md reviewing-code']);
    expect(r.errors).toBe(0);
  });

  it('a skill whose tree holds SKILL.md files outside a skills/ folder (held-out round 85): they are its nodes, named on stderr', async () => {
    const dir = temps.dir('loopkit-root-tree-');
    writeSkill(dir, '');
    writeSkill(dir, 'bitable');
    writeSkill(dir, 'bitable/create');
    writeSkill(dir, 'examples/pipeline');
    writeSkill(dir, 'skills/reviewing-code');
    const r = await check(dir);
    // the collection's skills are in skills/; every other SKILL.md below the root skill is part of it
    expect(skillsOf(r)).toEqual(['', 'skills/reviewing-code']);
    expect(r.layout.nested).toEqual(['bitable', 'bitable/create', 'examples/pipeline']);
    const cli = await run([dir, '--no-color']);
    expect(cli.stderr).toContain(
      '3 SKILL.md files inside other skills were not checked as skills of their own: bitable, bitable/create, examples/pipeline.',
    );
  });

  it('`loopkit check <one skill folder>` checks that folder as the skill', async () => {
    const folder = join(PROJECTS, 'root-router', 'skills', 'drafting-notes');
    const r = await check(folder);
    expect(r.project.skills.map((s) => [s.dir, s.name])).toEqual([['', 'drafting-notes']]);
    const cli = await run([relative(ROOT, folder), '--no-color']);
    expect(cli.stdout).toMatch(/^PASS {2}0 errors, 0 warnings, 0 info {2}· {2}1 skill,/u);
    expect(cli.status).toBe(0);
    expect(cli.stderr).not.toContain('index of the collection');
  });

  it('without frontmatter the root SKILL.md is an index, named in a note', async () => {
    const index = await run([join(RULES, 'valid', 'root-index')]);
    expect(index.status).toBe(0);
    expect(index.stderr).toContain(
      'the SKILL.md at the project root has no frontmatter: read as an index of the collection, not as a skill',
    );
    expect(index.stdout).toMatch(/· {2}1 skill,/u);
  });

  it('with skills directories, the root skill is checked where skills_dir names the root, else reported', async () => {
    const named = await check(join(RULES, 'valid', 'root-named-in-skills-dir'));
    expect(skillsOf(named)).toEqual(['', 'reviewing-code']);
    expect(named.layout.unchecked).toEqual([]);
    const root = await run([join(RULES, 'invalid', 'project-root'), '--no-color']);
    expect(root.status).toBe(1);
    expect(root.stdout).toContain(
      'SKILL.md: error: The skill at the project root was not checked: it is outside skills_dir (skills/)  [skill-outside-skills-dir]',
    );
    // the loop-language default skills/ that does not exist: the message says how to check a repository that is one skill
    const dir = temps.dir();
    writeFileSync(join(dir, '.loopkit.yaml'), 'loop_state_files: []\n');
    writeFileSync(
      join(dir, 'SKILL.md'),
      '---\nname: reviewing-code\ndescription: Reviews code. Use when a diff needs review.\n---\n# Reviewing\n',
    );
    const missing = await run([dir]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(
      `skills directory 'skills/' (the default of skills_dir) not found in ${dir}; the SKILL.md at the root is a skill: ` +
        'write `skills_dir: .` in .loopkit.yaml to check a repository that is one skill (the folders below with a SKILL.md are skills too)',
    );
    writeFileSync(join(dir, '.loopkit.yaml'), 'skills_dir: .\nloop_state_files: []\n');
    expect(skillsOf(await check(dir))).toEqual(['']);
  });
});

describe('.gitignore files, as git reads them', () => {
  it('the root’s and nested ones: anchoring, globs, directory patterns, negation', async () => {
    // a copy: loopkit's own repository tracks the fixture's ignored skills, and a tracked SKILL.md is checked
    const r = await check(temps.copyOf(join(PROJECTS, 'discovery-gitignore')));
    expect(skillsOf(r)).toEqual(['packs/generated/summarizing', 'packs/old-but-kept/reviving', 'skills/shipping']);
    expect(ignoredOf(r)).toEqual([
      'drafts drafts/ (gitignore .gitignore)',
      'generated /generated/ (gitignore .gitignore)',
      'packs/old-v1 old-*/ (gitignore packs/.gitignore)',
      'skills/scratch.local *.local/ (gitignore .gitignore)',
    ]);
    expect(r.errors).toBe(0);
  });

  it('.git/info/exclude, also of a linked work tree (a .git file)', async () => {
    const repo = temps.dir();
    writeSkill(repo, 'skills/reviewing-code');
    writeBroken(repo, 'scratch/trying');
    mkdirSync(join(repo, '.git', 'info'), { recursive: true });
    writeFileSync(join(repo, '.git', 'info', 'exclude'), '# local\nscratch/\n');
    expect(skillsOf(await check(repo))).toEqual(['skills/reviewing-code']);

    // a work tree made by `git worktree add`: .git is a file, info/exclude is in the common directory
    const tree = temps.dir();
    writeSkill(tree, 'skills/reviewing-code');
    writeBroken(tree, 'scratch/trying');
    mkdirSync(join(repo, '.git', 'worktrees', 'tree'), { recursive: true });
    writeFileSync(join(repo, '.git', 'worktrees', 'tree', 'commondir'), '../..\n');
    writeFileSync(join(tree, '.git'), `gitdir: ${join(repo, '.git', 'worktrees', 'tree')}\n`);
    expect(skillsOf(await check(tree))).toEqual(['skills/reviewing-code']);
  });

  it.skipIf(!HAS_GIT)(
    'a SKILL.md git tracks is checked where a .gitignore names its folder (git ignores untracked files only); an untracked one there is not',
    async () => {
      const repo = temps.dir();
      const git = (...args: string[]) =>
        spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo, encoding: 'utf8' });
      expect(git('init', '-q').status).toBe(0);
      writeSkill(repo, 'skills/reviewing-code');
      writeSkill(repo, 'tools/.claude/skills/adapting-apis');
      writeBroken(repo, 'tools/.claude/skills/local-notes');
      writeFileSync(join(repo, '.gitignore'), '.claude/\n');
      expect(git('add', '.gitignore', 'skills').status).toBe(0);
      expect(git('add', '-f', 'tools/.claude/skills/adapting-apis/SKILL.md').status).toBe(0);
      expect(git('commit', '-q', '-m', 'skills').status).toBe(0);
      const r = await check(repo);
      expect(skillsOf(r)).toEqual(['skills/reviewing-code', 'tools/.claude/skills/adapting-apis']);
      expect(r.errors).toBe(0);
      // the same tree without git: the .gitignore is all there is to go by
      spawnSync('rm', ['-rf', join(repo, '.git')]);
      expect(skillsOf(await check(repo))).toEqual(['skills/reviewing-code']);
    },
  );

  it.skipIf(!HAS_GIT)("git is asked with core.fsmonitor off: a checked repository's own git config runs no command", async () => {
    const repo = temps.dir();
    const outside = temps.dir('loopkit-fsmonitor-');
    const marker = join(outside, 'ran');
    const hook = join(outside, 'hook.sh');
    writeFileSync(hook, `#!/bin/sh\ntouch '${marker}'\n`);
    chmodSync(hook, 0o755);
    const git = (...args: string[]) =>
      spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], {
        cwd: repo,
        encoding: 'utf8',
      });
    expect(git('init', '-q').status).toBe(0);
    writeSkill(repo, 'skills/reviewing-code');
    writeSkill(repo, 'tools/.claude/skills/adapting-apis');
    // a .gitignore naming a folder of the walk: discovery asks git which SKILL.md files it tracks
    writeFileSync(join(repo, '.gitignore'), '.claude/\n');
    expect(git('add', '.gitignore', 'skills').status).toBe(0);
    expect(git('add', '-f', 'tools/.claude/skills/adapting-apis/SKILL.md').status).toBe(0);
    expect(git('commit', '-q', '-m', 'skills').status).toBe(0);
    expect(git('config', 'core.fsmonitor', hook).status).toBe(0);
    expect(skillsOf(await check(repo))).toEqual(['skills/reviewing-code', 'tools/.claude/skills/adapting-apis']);
    expect(existsSync(marker), "the repository's fsmonitor hook ran").toBe(false);
    // the planted hook is one git would run for the same question asked without the override
    git('ls-files', '--cached', '--', '*SKILL.md');
    expect(existsSync(marker)).toBe(true);
  });

  it('the .gitignore files above the project root, up to the repository’s top', async () => {
    const repo = temps.dir();
    mkdirSync(join(repo, '.git'));
    // the root itself under an ignored folder is still checked: naming it is asking for it
    writeFileSync(join(repo, '.gitignore'), 'packages/skills/drafts/\nscratch/\n/skills/\nout-of-project/\n*.bak\n');
    const root = join(repo, 'packages', 'skills');
    writeSkill(root, 'reviewing-code');
    writeSkill(root, 'skills/anchored-elsewhere');
    writeBroken(root, 'drafts/half-done');
    writeBroken(root, 'deeper/scratch/trying');
    const r = await check(root);
    // `/skills/` of the repository's top names another folder than the project's skills/
    expect(skillsOf(r)).toEqual(['reviewing-code', 'skills/anchored-elsewhere']);
    expect(ignoredOf(r)).toEqual([
      `deeper/scratch scratch/ (gitignore ${join(repo, '.gitignore')})`,
      `drafts packages/skills/drafts/ (gitignore ${join(repo, '.gitignore')})`,
    ]);
  });

  it('ancestor patterns: unanchored ones apply as written; anchored ones only by their literal way into the project', () => {
    expect(fromAbove('scratch/', 'packages/skills')).toBe('scratch/');
    expect(fromAbove('!keep.md', 'packages/skills')).toBe('!keep.md');
    expect(fromAbove('packages/skills/drafts/', 'packages/skills')).toBe('/drafts/');
    expect(fromAbove('/packages/skills/drafts', 'packages/skills')).toBe('/drafts');
    expect(fromAbove('!packages/skills/drafts/keep/', 'packages/skills')).toBe('!/drafts/keep/');
    expect(fromAbove('packages/skills/', 'packages/skills')).toBeNull();
    expect(fromAbove('packages/other/drafts/', 'packages/skills')).toBeNull();
    expect(fromAbove('packages/*/drafts/', 'packages/skills')).toBeNull();
    expect(fromAbove('# comment', 'packages/skills')).toBeNull();
  });

  it('nested file patterns become patterns of the root', () => {
    expect(rebased('old-*/', 'packs')).toBe('packs/**/old-*/');
    expect(rebased('!old-but-kept/', 'packs')).toBe('!packs/**/old-but-kept/');
    expect(rebased('/only-here', 'packs')).toBe('packs/only-here');
    expect(rebased('a/b', 'packs')).toBe('packs/a/b');
    expect(rebased('x', 'odd[name]')).toBe('odd\\[name\\]/**/x');
    expect(rebased('', 'packs')).toBeNull();
    expect(rebased('# comment', 'packs')).toBeNull();
    expect(rebased('drafts/', '')).toBe('drafts/');
  });
});

describe('ignores: in .loopkit.yaml and --ignore-pattern', () => {
  const dir = join(PROJECTS, 'discovery-ignores');

  it('ignores: leaves folders out, and `!` re-includes one the defaults leave out', async () => {
    const r = await check(dir);
    expect(skillsOf(r)).toEqual(['fixtures/showcase', 'legacy/broken', 'skills/planning']);
    expect(ignoredOf(r)).toEqual(['experiments experiments/ (config .loopkit.yaml)']);
  });

  it('a leading `./` anchors a pattern at the root, like `/`', async () => {
    const root = temps.dir();
    writeFileSync(join(root, '.loopkit.yaml'), 'extends: agent-skills\nignores:\n  - ./drafts/\n');
    writeSkill(root, 'skills/planning');
    writeBroken(root, 'drafts/half-done');
    writeSkill(root, 'tools/drafts/kept');
    const r = await check(root);
    expect(skillsOf(r)).toEqual(['skills/planning', 'tools/drafts/kept']);
    expect(ignoredOf(r)).toEqual(['drafts ./drafts/ (config .loopkit.yaml)']);
    const cli = await check(root, { ignorePatterns: ['./tools/'] });
    expect(skillsOf(cli)).toEqual(['skills/planning']);
  });

  it('nothing below an ignored folder can be re-included, by ignores: or a .gitignore', async () => {
    const root = temps.dir();
    writeFileSync(join(root, '.loopkit.yaml'), 'extends: agent-skills\nignores:\n  - legacy/\n  - "!legacy/keep/"\n');
    writeFileSync(join(root, '.gitignore'), 'drafts/\n!drafts/keep/\n');
    writeSkill(root, 'skills/planning');
    writeBroken(root, 'legacy/keep');
    writeBroken(root, 'drafts/keep');
    const r = await check(root);
    expect(skillsOf(r)).toEqual(['skills/planning']);
    expect(r.errors).toBe(0);
    // the ignored folders are named, nothing below them
    expect(ignoredOf(r)).toEqual(['drafts drafts/ (gitignore .gitignore)', 'legacy legacy/ (config .loopkit.yaml)']);
  });

  it('--ignore-pattern leaves out more for one run (repeatable)', async () => {
    const without = await run([dir, '--no-color']);
    expect(without.status).toBe(1);
    expect(without.stdout).toContain('legacy/broken/SKILL.md:2:1: error:');
    const withPattern = await run([dir, '--ignore-pattern', 'legacy/', '--ignore-pattern', 'skills/planning/', '--json']);
    expect(withPattern.status).toBe(0);
    expect(JSON.parse(withPattern.stdout)).toMatchObject({ skills_checked: 1 });
  });

  it('a bad --ignore-pattern is a usage error (exit 2)', async () => {
    const r = await run([dir, '--ignore-pattern', '../elsewhere/']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("loopkit: error: --ignore-pattern: '../elsewhere/' reaches outside the project ('..')");
  });
});

describe('skills directories (skills_dir)', () => {
  it('a SKILL.md outside them fails the run: skill-outside-skills-dir (fixtures/rules/skill-outside-skills-dir)', async () => {
    const r = await run([join(PROJECTS, '..', 'rules', 'skill-outside-skills-dir', 'invalid', 'skills-dir-written'), '--no-color']);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('FAIL  2 errors');
    expect(r.stdout).toContain('plugins/notes/skills/drafting-notes/SKILL.md: error:');
    // inside a skill, in a test fixture folder, in another project: not reported
    expect(r.stdout).not.toMatch(/examples|tests\/fixtures|vendor-kit/u);
  });

  it('a skills directory inside an ignored folder is checked all the same, with the defaults inside it', async () => {
    const dir = temps.dir();
    writeFileSync(join(dir, '.loopkit.yaml'), 'extends: agent-skills\nskills_dir: build/skills\n');
    writeSkill(dir, 'build/skills/reviewing-code');
    writeBroken(dir, 'build/skills/_template');
    const r = await check(dir);
    expect(skillsOf(r)).toEqual(['build/skills/reviewing-code']);
    expect(r.errors).toBe(0);
  });

  it('a skill at any depth of a skills directory is checked; one inside a skill is part of it', async () => {
    const dir = temps.dir();
    writeFileSync(join(dir, '.loopkit.yaml'), 'extends: agent-skills\nskills_dir: skills/\n');
    writeSkill(dir, 'skills/product/specs/drafting-prds');
    writeSkill(dir, 'skills/reviewing-code');
    writeSkill(dir, 'skills/reviewing-code/examples/demo');
    const r = await check(dir);
    expect(skillsOf(r)).toEqual(['skills/product/specs/drafting-prds', 'skills/reviewing-code']);
    expect(r.layout.nested).toEqual(['skills/reviewing-code/examples/demo']);
  });

  it('a skills directory named through a link holds the skills of its real place', async () => {
    const dir = temps.dir();
    writeFileSync(join(dir, '.loopkit.yaml'), 'extends: agent-skills\nskills_dir: .claude/skills\n');
    writeSkill(dir, 'skills/reviewing-code');
    mkdirSync(join(dir, '.claude'));
    symlinkSync('../skills', join(dir, '.claude', 'skills'));
    const r = await check(dir);
    expect(skillsOf(r)).toEqual(['skills/reviewing-code']);
    expect(r.errors).toBe(0);
  });

  it("the loop-language preset's default skills/ that does not exist: exit 2, naming where the skills are", async () => {
    const dir = temps.dir();
    writeFileSync(join(dir, '.loopkit.yaml'), 'loop_state_files: []\n');
    writeSkill(dir, '.claude/skills/reviewing-code');
    writeSkill(dir, '.claude/skills/drafting-notes');
    const r = await run([dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      "skills directory 'skills/' (the default of skills_dir) not found in " +
        `${dir}; 2 SKILL.md files are in .claude/skills/: name that folder in skills_dir in .loopkit.yaml, or write \`extends: agent-skills\` to check every SKILL.md of the project`,
    );
  });
});

describe("loopkit's own repository", () => {
  it('passes for the right reason: its skills checked, its fixtures ignored, its examples projects of their own', async () => {
    const r = await check(ROOT);
    expect(skillsOf(r)).toEqual([
      'skills/accepting-stories',
      'skills/running-desk-checks',
      'skills/running-tdd-loops',
      'skills/verifying-stories',
      'skills/writing-stories',
    ]);
    expect(r.layout.unchecked).toEqual([]);
    expect(r.layout.subprojects).toEqual(['examples/loop', 'examples/loop-controller']);
    expect(ignoredOf(r)).toEqual(expect.arrayContaining(['fixtures fixtures/ (default)', 'node_modules node_modules/ (default)']));
    expect(r.errors).toBe(0);
  });
});

describe('the project of files given as arguments (the pre-commit hook)', () => {
  it('the nearest folder above with a .loopkit.yaml, else the top of the git repository', async () => {
    const repo = temps.dir();
    mkdirSync(join(repo, '.git'));
    writeSkill(repo, 'review-kit/skills/reviewing-code');
    writeSkill(repo, 'tools/other-project/skills/drafting-notes');
    writeFileSync(join(repo, 'tools', 'other-project', '.loopkit.yaml'), 'extends: agent-skills\n');
    expect(projectRoot([join(repo, 'review-kit', 'skills', 'reviewing-code', 'SKILL.md')], repo)).toBe('.');
    expect(projectRoot([join(repo, 'tools', 'other-project', 'skills', 'drafting-notes', 'SKILL.md')], repo)).toBe(
      join('tools', 'other-project'),
    );
    const r = await run([join(repo, 'review-kit', 'skills', 'reviewing-code', 'SKILL.md'), '--json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ skills_checked: 1 });
  });
});

describe('a SKILL.md without frontmatter named as another skill is a piece of it (held-out round 32: UiPath/skills)', () => {
  const overrideOf = (dir: string, rel: string) =>
    writeWithoutFrontmatter(
      dir,
      rel,
      '<!--flavor:web:start-->\n  Use the web designer.\n<!--flavor:web:end-->\n\nSee [the template](assets/x.json).\n',
    );

  it('is not checked as a skill, and the run names it on stderr', async () => {
    const dir = temps.dir('loopkit-fragments-');
    writeSkill(dir, 'skills/making-flows');
    writeSkill(dir, 'skills/running-tests');
    overrideOf(dir, 'skill-flavors/web/making-flows');
    const r = await check(dir);
    expect(skillsOf(r)).toEqual(['skills/making-flows', 'skills/running-tests']);
    expect(r.layout.fragments).toEqual(['skill-flavors/web/making-flows']);
    expect(r.diagnostics.filter((d) => d.file.startsWith('skill-flavors/'))).toEqual([]);
    const cli = await run([dir, '--no-cache']);
    expect(cli.status).toBe(0);
    expect(cli.stderr).toContain('1 SKILL.md file has no frontmatter and is named as another skill that has one');
    expect(cli.stderr).toContain('skill-flavors/web/making-flows');
  });

  it('a SKILL.md without frontmatter of a name of its own is a skill, and fails the run', async () => {
    const dir = temps.dir('loopkit-fragments-');
    writeSkill(dir, 'skills/making-flows');
    overrideOf(dir, 'skill-flavors/web/drawing-maps');
    const r = await check(dir);
    expect(skillsOf(r)).toEqual(['skill-flavors/web/drawing-maps', 'skills/making-flows']);
    expect(r.layout.fragments).toEqual([]);
    expect(r.diagnostics.map((d) => `${d.file} ${d.code}`)).toContain('skill-flavors/web/drawing-maps/SKILL.md skill-missing-frontmatter');
  });

  it('a SKILL.md that cannot be read (a dangling symbolic link) is no piece: it is a skill that fails to load', async () => {
    const dir = temps.dir('loopkit-fragments-');
    writeSkill(dir, 'marketing/making-flows');
    mkdirSync(join(dir, 'gemini/skills/making-flows'), { recursive: true });
    // a link to where the skill used to be (the collection moved it): Gemini CLI finds nothing there
    symlinkSync('../../../engineering/making-flows/SKILL.md', join(dir, 'gemini/skills/making-flows/SKILL.md'));
    const r = await check(dir);
    expect(r.layout.fragments).toEqual([]);
    // (a skill that cannot be read is a load problem of the project, not a skill of its model)
    expect(skillsOf(r)).toEqual(['marketing/making-flows']);
    expect(r.diagnostics.map((d) => `${d.file} ${d.code}`)).toContain('gemini/skills/making-flows/SKILL.md skill-read-error');
    expect((await run([dir, '--no-cache'])).status).toBe(1);
  });

  it('two of one name both without frontmatter are both skills: no skill of theirs has one to be a piece of', async () => {
    const dir = temps.dir('loopkit-fragments-');
    overrideOf(dir, 'skills/making-flows');
    overrideOf(dir, 'skill-flavors/web/making-flows');
    const r = await check(dir);
    expect(skillsOf(r)).toEqual(['skill-flavors/web/making-flows', 'skills/making-flows']);
    expect(r.layout.fragments).toEqual([]);
  });
});

describe('a SKILL.md without frontmatter above skills of its own is an index of them (held-out round 44: an OpenClaw plugin)', () => {
  const guideAt = (dir: string, rel: string) =>
    writeWithoutFrontmatter(dir, rel, '# The plugin: setup guide\n\nInstall it, then use the skills below.\n');

  it('is not checked as a skill; the skills below it are, and the run names it on stderr', async () => {
    const dir = temps.dir('loopkit-index-');
    guideAt(dir, 'openclaw');
    writeSkill(dir, 'openclaw/skills/making-plans');
    writeSkill(dir, 'plugin/skills/making-plans');
    const r = await check(dir);
    expect(skillsOf(r)).toEqual(['openclaw/skills/making-plans', 'plugin/skills/making-plans']);
    expect(r.layout.indexes).toEqual(['openclaw']);
    expect(r.layout.nested).toEqual([]);
    const cli = await run([dir, '--no-cache']);
    expect(cli.status).toBe(0);
    expect(cli.stderr).toContain('1 SKILL.md file has no frontmatter and holds skills below it: read as an index of them');
    expect((await run([dir, '--no-cache', '--verbose'])).stderr).toMatch(
      /indexes of the skills below them \(no frontmatter\): \S*openclaw\n/,
    );
  });

  it('a SKILL.md without frontmatter above only a template in its assets/ is a skill that lacks its frontmatter', async () => {
    const dir = temps.dir('loopkit-index-');
    guideAt(dir, 'skills/making-plans');
    writeSkill(dir, 'skills/making-plans/assets/plan-template');
    const r = await check(dir);
    expect(r.layout.indexes).toEqual([]);
    expect(skillsOf(r)).toEqual(['skills/making-plans']);
    expect(r.diagnostics.map((d) => `${d.file} ${d.code}`)).toContain('skills/making-plans/SKILL.md skill-missing-frontmatter');
    expect((await run([dir, '--no-cache'])).status).toBe(1);
  });

  it('above SKILL.md files that have no frontmatter either, it is a skill: there is no skill for it to index', async () => {
    const dir = temps.dir('loopkit-index-');
    guideAt(dir, 'openclaw');
    guideAt(dir, 'openclaw/skills/making-plans');
    const r = await check(dir);
    expect(r.layout.indexes).toEqual([]);
    expect(r.diagnostics.map((d) => `${d.file} ${d.code}`)).toContain('openclaw/SKILL.md skill-missing-frontmatter');
  });

  it("in an agent's skills folder it is a skill that lacks its frontmatter: that agent loads it", async () => {
    const dir = temps.dir('loopkit-index-');
    guideAt(dir, '.agents/skills/planning');
    writeSkill(dir, '.agents/skills/planning/making-plans');
    const r = await check(dir);
    expect(r.layout.indexes).toEqual([]);
    expect(r.diagnostics.map((d) => `${d.file} ${d.code}`)).toContain('.agents/skills/planning/SKILL.md skill-missing-frontmatter');
  });

  it('inside a skills directory the configuration names, a SKILL.md without frontmatter stays a skill', async () => {
    const dir = temps.dir('loopkit-index-');
    writeFileSync(join(dir, '.loopkit.yaml'), 'extends: agent-skills\nskills_dir: skills/\n');
    guideAt(dir, 'skills/openclaw');
    writeSkill(dir, 'skills/openclaw/skills/making-plans');
    const r = await check(dir);
    expect(r.layout.indexes).toEqual([]);
    expect(r.diagnostics.map((d) => `${d.file} ${d.code}`)).toContain('skills/openclaw/SKILL.md skill-missing-frontmatter');
  });
});

describe("a SKILL.md without frontmatter in a code package's folder is the package's document (held-out round 60: a Go package named skill)", () => {
  const template = '# Skill title\n\nDescribe when to use this skill.\n';
  it('is not checked as a skill, and the run names it on stderr', async () => {
    const dir = temps.dir('loopkit-package-');
    writeWithoutFrontmatter(dir, 'skill', template);
    writeFileSync(join(dir, 'skill', 'go.mod'), 'module example.com/kit/skill\n');
    writeSkill(dir, '.github/skills/planning');
    const r = await check(dir);
    expect(skillsOf(r)).toEqual(['.github/skills/planning']);
    expect(r.layout.packageDocs).toEqual(['skill']);
    const cli = await run([dir, '--no-cache']);
    expect(cli.status).toBe(0);
    expect(cli.stderr).toContain("1 SKILL.md file has no frontmatter and sits in a code package's folder");
    expect((await run([dir, '--no-cache', '--verbose'])).stderr).toMatch(
      /documents of the code packages they sit in \(no frontmatter\): \S*skill\n/,
    );
  });

  it('with a frontmatter, in a skills folder, or at the root, it is a skill', async () => {
    const dir = temps.dir('loopkit-package-');
    // a skill whose scripts have a package.json, in skills/: checked, and lacks its frontmatter
    writeWithoutFrontmatter(dir, 'skills/formatting', template);
    writeFileSync(join(dir, 'skills/formatting', 'package.json'), '{}\n');
    // a package that ships a real skill
    writeSkill(dir, 'packages/cli');
    writeFileSync(join(dir, 'packages/cli', 'package.json'), '{}\n');
    // in an agent's folder
    writeWithoutFrontmatter(dir, '.claude/skills/releasing', template);
    writeFileSync(join(dir, '.claude/skills/releasing', 'pyproject.toml'), '[project]\n');
    const r = await check(dir);
    expect(r.layout.packageDocs).toEqual([]);
    expect(skillsOf(r)).toEqual(['.claude/skills/releasing', 'packages/cli', 'skills/formatting']);
    expect(r.diagnostics.map((d) => `${d.file} ${d.code}`)).toContain('skills/formatting/SKILL.md skill-missing-frontmatter');
    const root = temps.dir('loopkit-package-');
    writeWithoutFrontmatter(root, '', template);
    writeFileSync(join(root, 'package.json'), '{}\n');
    writeSkill(root, 'skills/formatting');
    expect((await check(root)).layout.packageDocs).toEqual([]);
  });
});

/** The skills and the SKILL.md folders inside them (parts of them) of a new project of these skills. */
async function skillsAndNested(...rels: string[]): Promise<{ skills: string[]; nested: string[] }> {
  const dir = temps.dir('loopkit-nested-');
  for (const rel of rels) writeSkill(dir, rel);
  const r = await check(dir);
  return { skills: skillsOf(r), nested: r.layout.nested };
}

describe('a SKILL.md in a folder named skills is the router of the skills beside it (held-out round 46: an index in .aceharness/skills)', () => {
  it('the skills below it are skills of their own; its own resource folders stay part of it', async () => {
    const dir = temps.dir('loopkit-router-');
    writeSkill(dir, 'workflows/web/.aceharness/skills');
    writeSkill(dir, 'workflows/web/.aceharness/skills/reviewing-code');
    writeSkill(dir, 'workflows/web/.aceharness/skills/assets/skill-template');
    const r = await check(dir);
    expect(skillsOf(r)).toEqual(['workflows/web/.aceharness/skills', 'workflows/web/.aceharness/skills/reviewing-code']);
    expect(r.layout.nested).toEqual(['workflows/web/.aceharness/skills/assets/skill-template']);
  });

  it('below a skill of any other folder name, a SKILL.md is part of that skill', async () => {
    expect(await skillsAndNested('tools/checking-tests', 'tools/checking-tests/rules/r001')).toEqual({
      skills: ['tools/checking-tests'],
      nested: ['tools/checking-tests/rules/r001'],
    });
  });
});

describe('in a Codex skills folder every SKILL.md is a skill (Codex loads each one below .agents/skills; held-out round 52)', () => {
  it('a SKILL.md inside another skill of .agents/skills or .codex/skills is a skill of its own', async () => {
    const dir = temps.dir('loopkit-codex-');
    writeSkill(dir, '.agents/skills/dailybot');
    writeSkill(dir, '.agents/skills/dailybot/ask');
    writeSkill(dir, '.codex/skills/planning/create');
    writeSkill(dir, '.codex/skills/planning');
    const r = await check(dir);
    expect(skillsOf(r)).toEqual([
      '.agents/skills/dailybot',
      '.agents/skills/dailybot/ask',
      '.codex/skills/planning',
      '.codex/skills/planning/create',
    ]);
    expect(r.layout.nested).toEqual([]);
  });

  it('so it is where the configuration names the skills directory', async () => {
    const dir = temps.dir('loopkit-codex-');
    writeFileSync(join(dir, '.loopkit.yaml'), 'extends: agent-skills\nskills_dir: .agents/skills/\n');
    writeSkill(dir, '.agents/skills/dailybot');
    writeSkill(dir, '.agents/skills/dailybot/ask');
    const r = await check(dir);
    expect(skillsOf(r)).toEqual(['.agents/skills/dailybot', '.agents/skills/dailybot/ask']);
  });

  it('elsewhere a SKILL.md inside another skill is part of it', async () => {
    expect(await skillsAndNested('.claude/skills/dailybot', '.claude/skills/dailybot/ask')).toEqual({
      skills: ['.claude/skills/dailybot'],
      nested: ['.claude/skills/dailybot/ask'],
    });
  });
});

describe("a SKILL.md without frontmatter in an agent's skills folder is no piece (held-out round 56: Codex copies generated without frontmatter)", () => {
  it('is checked as a skill, and fails the run', async () => {
    const dir = temps.dir('loopkit-fragments-');
    writeSkill(dir, 'plugins/kit/skills/making-flows');
    writeWithoutFrontmatter(dir, '.agents/skills/making-flows', '# Making flows\n\nDraw the flow, then check it.\n');
    const r = await check(dir);
    expect(r.layout.fragments).toEqual([]);
    expect(skillsOf(r)).toContain('.agents/skills/making-flows');
    expect(r.diagnostics.map((d) => `${d.file} ${d.code}`)).toContain('.agents/skills/making-flows/SKILL.md skill-missing-frontmatter');
  });
});
