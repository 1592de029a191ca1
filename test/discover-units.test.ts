/**
 * Skill discovery driven directly in the test process (src/discover/walk.ts, src/discover/discover.ts):
 * hasFrontmatter, gitProgram, walkProject on real temporary directories (ignored folders and why,
 * kept defaults, `.gitignore` files, projects of their own, symbolic links and loops, `starts`,
 * folders that cannot be read, the SKILL.md files git tracks), resolveSkillsDirs and isGlob, classify
 * on walks written out (skills, nested skills, the root skill, indexes, pieces, package documents,
 * unchecked skills and why), homesOf, foldersOf and everySkill. Every test compares whole results,
 * so that a mutation of either file changes what one of them sees (docs/discovery.md).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { trees } from './helpers/tree.js';
import { afterAll, describe, expect, it } from 'vitest';
import {
  classify,
  foldersOf,
  globsFor,
  homesOf,
  isGlob,
  resolveSkillsDirs,
  ROOT_SKILL_FOLDERS,
  type Discovery,
} from '../src/discover/discover.js';
import { IgnoreRules, repositoryTop, type IgnoreMatch } from '../src/discover/ignore.js';
import { gitProgram, hasFrontmatter, walkProject, type Walk } from '../src/discover/walk.js';
import { everySkill } from '../src/engine/project.js';

const TREES = trees('loopkit-discover-');
const BASE = TREES.base;
afterAll(() => TREES.remove());
const tree = (files?: Record<string, string>) => TREES.tree(files);

/** A SKILL.md with frontmatter, and one without. */
const FM = '---\nname: x\ndescription: Does x.\n---\n# x\n';
const NO_FM = '# An index\n';

/** A symbolic link at `rel` of `root` to `target` (as written: relative to the link's folder, or absolute). */
function link(root: string, rel: string, target: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  symlinkSync(target, join(root, rel));
}

/** The ignore rules of a project at `root` outside any git work tree, with these settings. */
const rulesOf = (root: string, ignores: string[] = [], ignorePatterns: string[] = []) =>
  IgnoreRules.forProject(root, { ignores, configFile: ignores.length > 0 ? '.loopkit.yaml' : null, ignorePatterns });

/** A walk's result, whole: the fields not given are empty. */
function walked(root: string, w: Partial<Omit<Walk, 'realPaths'>> & { reals?: Record<string, string> }): Walk {
  const skillDirs = w.skillDirs ?? [];
  const reals = w.reals ?? {};
  return {
    skillDirs,
    realPaths: new Map(skillDirs.map((d) => [d, reals[d] ?? (d === '' ? root : join(root, d))])),
    subprojects: w.subprojects ?? [],
    ignored: w.ignored ?? [],
    rootIndex: w.rootIndex ?? false,
    unreadable: w.unreadable ?? [],
  };
}

const byDefault = (pattern: string): IgnoreMatch => ({ source: 'default', pattern, keepsSkill: true });
const byCondition = (pattern: string): IgnoreMatch => ({ source: 'default', pattern, keepsSkill: false, conditional: true });

describe('the temporary directory of these tests', () => {
  it('is in no git work tree (the plain projects read no git file and ask git nothing)', () => {
    expect(repositoryTop(BASE)).toBeNull();
  });
});

describe('isGlob and globsFor: glob syntax, with fast-glob loaded only for settings that may use it', () => {
  // these run first: fast-glob, once loaded, stays loaded
  it('before globsFor, a setting without glob characters is a plain path and one with them is refused', () => {
    expect(isGlob('skills')).toBe(false);
    expect(isGlob('./.claude/skills/x-y_z.1')).toBe(false);
    for (const p of ['a*', 'a?', 'a[b', 'a]', 'a{b', 'a}', 'a(b', 'a)', '!a', 'a+b', '@a']) {
      expect(() => isGlob(p)).toThrow(new Error('isGlob: call globsFor first'));
    }
  });

  it('globsFor does not load fast-glob for plain settings only', async () => {
    await globsFor(['skills', '.claude/skills', './x']);
    expect(() => isGlob('skills/*')).toThrow(new Error('isGlob: call globsFor first'));
  });

  it('globsFor loads it when any setting may be a glob; then isGlob is fast-glob’s judgement', async () => {
    await globsFor(['skills', 'plugins/*/skills']);
    expect(
      ['skills', 'skills/*', 'a?', '{a,b}', 'a[bc]', '!(a)', '+(a)', '@(a)', 'a(b)', 'a{b}', 'a+b', 'a@b', 'a]'].map((p) => [p, isGlob(p)]),
    ).toEqual([
      ['skills', false],
      ['skills/*', true],
      ['a?', true],
      ['{a,b}', true],
      ['a[bc]', true],
      ['!(a)', true],
      ['+(a)', true],
      ['@(a)', true],
      ['a(b)', false],
      ['a{b}', false],
      ['a+b', false],
      ['a@b', false],
      ['a]', false],
    ]);
  });
});

describe('hasFrontmatter: does a SKILL.md start with a frontmatter block', () => {
  const root = tree({
    'plain/SKILL.md': '---\nname: x\n---\n# x\n',
    'bom-crlf/SKILL.md': '\uFEFF---\r\nname: x\r\n---\r\nbody\r\n',
    'empty-block/SKILL.md': '---\n---\n',
    'spaces/SKILL.md': '--- \t\nname: x\n---  \t\nbody',
    'at-end/SKILL.md': '---\nname: x\n---',
    'heading-first/SKILL.md': '# Title\n---\nname: x\n---\n',
    'unclosed/SKILL.md': '---\nname: x\n',
    'four-dashes/SKILL.md': '----\nname: x\n----\n',
    'closed-by-text/SKILL.md': '---\nname: x\n---x\n',
    'blank-first/SKILL.md': '\n---\nname: x\n---\n',
    'one-line/SKILL.md': '--- name: x ---\n',
    'empty/SKILL.md': '',
    'dir/SKILL.md/x': 'a folder named SKILL.md',
  });
  const outside = tree({ 'SKILL.md': FM, 'index/SKILL.md': NO_FM });
  link(root, 'inside-link/SKILL.md', '../plain/SKILL.md');
  link(root, 'outside-link/SKILL.md', join(outside, 'SKILL.md'));
  link(root, 'dangling/SKILL.md', '../nowhere/SKILL.md');
  const at = (d: string) => hasFrontmatter(join(root, d, 'SKILL.md'), root);

  it('is true for a block of `---` lines, with a BOM, CRLF, spaces or tabs after the dashes, empty, or at the end of the file', () => {
    expect(['plain', 'bom-crlf', 'empty-block', 'spaces', 'at-end'].map(at)).toEqual([true, true, true, true, true]);
  });

  it('is false for a file that does not start with one: a heading first, unclosed, other dashes, text after the closing dashes, a blank line, one line, empty', () => {
    expect(['heading-first', 'unclosed', 'four-dashes', 'closed-by-text', 'blank-first', 'one-line', 'empty'].map(at)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('is null for what cannot be read: a missing file, a folder, a dangling link, a link that leads out of the root', () => {
    expect(['missing', 'dir', 'dangling', 'outside-link'].map(at)).toEqual([null, null, null, null]);
  });

  it('follows a link that stays inside the root, and reads a file named by a path outside the root (only links are confined)', () => {
    expect(at('inside-link')).toBe(true);
    expect(hasFrontmatter(join(outside, 'SKILL.md'), root)).toBe(true);
    expect(hasFrontmatter(join(outside, 'index', 'SKILL.md'), root)).toBe(false);
  });
});

describe('gitProgram: git from the PATH, never from the project', () => {
  const EXEC = '#!/bin/sh\nexit 0\n';
  const outside = tree({ 'bin/git': EXEC, 'other/git': EXEC, 'plain/git': 'not executable', 'dir/git/x': '', 'rel/git': EXEC });
  chmodSync(join(outside, 'bin/git'), 0o755);
  chmodSync(join(outside, 'other/git'), 0o755);
  chmodSync(join(outside, 'rel/git'), 0o755);
  chmodSync(join(outside, 'plain/git'), 0o644);
  const root = tree({ git: EXEC, 'bin/git': EXEC });
  chmodSync(join(root, 'git'), 0o755);
  chmodSync(join(root, 'bin/git'), 0o755);
  const bin = join(outside, 'bin');
  const path = (...dirs: string[]) => dirs.join(':');

  it('is the first `git` of the PATH that is an executable file', () => {
    expect(gitProgram(root, { PATH: path(bin, join(outside, 'other')) })).toBe(join(bin, 'git'));
    expect(gitProgram(root, { PATH: path(join(outside, 'other'), bin) })).toBe(join(outside, 'other', 'git'));
  });

  it('passes over entries without one: missing, a folder named git, a file that may not be executed, an empty entry', () => {
    const dirs = [join(outside, 'missing'), join(outside, 'dir'), join(outside, 'plain'), '', bin];
    expect(gitProgram(root, { PATH: path(...dirs) })).toBe(join(bin, 'git'));
    expect(gitProgram(root, { PATH: path(...dirs.slice(0, 4)) })).toBeNull();
  });

  it('never takes one in the project: the root itself or a folder below it on the PATH', () => {
    expect(gitProgram(root, { PATH: root })).toBeNull();
    expect(gitProgram(root, { PATH: join(root, 'bin') })).toBeNull();
    expect(gitProgram(root, { PATH: path(root, join(root, 'bin'), bin) })).toBe(join(bin, 'git'));
  });

  it('never takes one from a relative entry (the working directory, wherever it is)', () => {
    const rel = relative(process.cwd(), join(outside, 'rel'));
    expect(rel.startsWith('/')).toBe(false);
    expect(gitProgram(root, { PATH: rel })).toBeNull();
    expect(gitProgram(root, { PATH: path(rel, bin) })).toBe(join(bin, 'git'));
  });

  it('reads PATH, else Path, else finds none; GIT and the other git variables are not read', () => {
    expect(gitProgram(root, { Path: bin })).toBe(join(bin, 'git'));
    expect(gitProgram(root, { PATH: join(outside, 'other'), Path: bin })).toBe(join(outside, 'other', 'git'));
    expect(gitProgram(root, { PATH: '', Path: bin })).toBeNull();
    expect(gitProgram(root, {})).toBeNull();
    expect(gitProgram(root, { GIT: join(bin, 'git'), GIT_EXEC_PATH: bin, PATH: '' })).toBeNull();
  });

  it('takes the process’s environment by default (git is installed on this machine)', () => {
    const found = gitProgram(root);
    expect(found).toBe(gitProgram(root, process.env));
    expect(found).not.toBeNull();
    expect(found!.endsWith('/git')).toBe(true);
  });
});

describe('walkProject: the folders that hold a SKILL.md', () => {
  it('finds every folder with a SKILL.md, sorted, with its real path; files and other folders are passed over', () => {
    const root = tree({
      'b/SKILL.md': FM,
      'a/x/SKILL.md': FM,
      'a/notes.md': '',
      'c/d/e.txt': '',
      'z.md': '',
      'skill.md/SKILL.md': FM,
      'lower/skill.md': FM,
      'other/SKILL.MD': FM,
    });
    expect(walkProject(root, rulesOf(root))).toEqual(walked(root, { skillDirs: ['a/x', 'b', 'skill.md'] }));
  });

  it('a SKILL.md that is no readable file (a folder, a dangling link) is still a skill’s, below the root', () => {
    const root = tree({ 'folder/SKILL.md/x': '', 'nofm/SKILL.md': NO_FM });
    link(root, 'dangling/SKILL.md', 'nowhere');
    expect(walkProject(root, rulesOf(root))).toEqual(walked(root, { skillDirs: ['dangling', 'folder', 'nofm'] }));
  });

  it('the root’s SKILL.md with frontmatter is the root skill (folder ``)', () => {
    const root = tree({ 'SKILL.md': FM, 'skills/a/SKILL.md': FM });
    expect(walkProject(root, rulesOf(root))).toEqual(walked(root, { skillDirs: ['', 'skills/a'] }));
  });

  it('the root’s SKILL.md without frontmatter is an index of the collection, no skill', () => {
    const root = tree({ 'SKILL.md': NO_FM, 'skills/a/SKILL.md': FM });
    expect(walkProject(root, rulesOf(root))).toEqual(walked(root, { skillDirs: ['skills/a'], rootIndex: true }));
  });

  it('the root’s SKILL.md that cannot be read is the root skill, as below the root (its read error is reported)', () => {
    const dangling = tree({ 'skills/a/SKILL.md': FM });
    link(dangling, 'SKILL.md', 'nowhere.md');
    expect(walkProject(dangling, rulesOf(dangling))).toEqual(walked(dangling, { skillDirs: ['', 'skills/a'] }));
  });

  it('a root that does not exist is an empty walk', () => {
    const root = join(BASE, 'no-such-root');
    expect(walkProject(root, rulesOf(BASE))).toEqual(walked(root, {}));
  });
});

describe('walkProject: ignored folders, with the pattern that ignores each', () => {
  const KEPT = ['.git', '.hg', '.svn', 'node_modules', '.venv', 'venv', 'dist', 'build', 'out', 'coverage'];
  const TESTS = ['test', 'tests', 'fixtures', 'testdata', 'scenarios', 'tmp'];

  it('the defaults (version control, dependencies, build output, tests, tmp) are not walked, at any depth', () => {
    const files: Record<string, string> = { 'skills/a/SKILL.md': FM };
    for (const name of [...KEPT, ...TESTS]) {
      files[`${name}/pkg/SKILL.md`] = FM;
      files[`deep/${name}/pkg/SKILL.md`] = FM;
    }
    const root = tree(files);
    const names = [...KEPT, ...TESTS].sort();
    expect(walkProject(root, rulesOf(root))).toEqual(
      walked(root, {
        skillDirs: ['skills/a'],
        ignored: [
          ...names.map((n) => ({ path: n, match: byDefault(`${n}/`) })),
          ...names.map((n) => ({ path: `deep/${n}`, match: byDefault(`${n}/`) })),
        ].sort((a, b) => (a.path < b.path ? -1 : 1)),
      }),
    );
  });

  it('a default keeps a folder that is a skill itself or a plugin, and the folders inside it are walked', () => {
    const root = tree({
      'build/SKILL.md': FM,
      'build/sub/SKILL.md': FM,
      'build/node_modules/p/SKILL.md': FM,
      'tests/.claude-plugin/plugin.json': '{}',
      'tests/skills/t/SKILL.md': FM,
      'dist/.codex-plugin/plugin.json': '{}',
      'dist/skills/d/SKILL.md': FM,
      'out/README.md': '',
      'out/o/SKILL.md': FM,
      'coverage/.claude-plugin/other.json': '{}',
      'coverage/c/SKILL.md': FM,
    });
    expect(walkProject(root, rulesOf(root))).toEqual(
      walked(root, {
        skillDirs: ['build', 'build/sub', 'dist/skills/d', 'tests/skills/t'],
        ignored: [
          { path: 'build/node_modules', match: byDefault('node_modules/') },
          { path: 'coverage', match: byDefault('coverage/') },
          { path: 'out', match: byDefault('out/') },
        ],
      }),
    );
  });

  it('a `_` folder is hidden when it is a skill itself or named for a part, walked when it groups skills', () => {
    const root = tree({
      '_services/weather/SKILL.md': FM,
      '_shared/x/SKILL.md': FM,
      '_template/SKILL.md': FM,
      'app/__tests__/t/SKILL.md': FM,
    });
    expect(walkProject(root, rulesOf(root))).toEqual(
      walked(root, {
        skillDirs: ['_services/weather'],
        ignored: [
          { path: '_shared', match: byCondition('_*/') },
          { path: '_template', match: byCondition('_*/') },
          { path: 'app/__tests__', match: byCondition('_*/') },
        ],
      }),
    );
  });

  it('a `-workspace` folder is hidden when it holds iteration-1/ or skill-snapshot/, walked otherwise', () => {
    const root = tree({
      'a-workspace/iteration-1/x/SKILL.md': FM,
      'b-workspace/skill-snapshot/SKILL.md': FM,
      'c-workspace/y/SKILL.md': FM,
    });
    expect(walkProject(root, rulesOf(root))).toEqual(
      walked(root, {
        skillDirs: ['c-workspace/y'],
        ignored: [
          { path: 'a-workspace', match: byCondition('*-workspace/') },
          { path: 'b-workspace', match: byCondition('*-workspace/') },
        ],
      }),
    );
  });

  it('`ignores:` hides folders (a skill’s too), `./` anchors at the root, `!` re-includes a default, and files are matched too', () => {
    const root = tree({
      'drafts/a/SKILL.md': FM,
      'top/SKILL.md': FM,
      'x/top/SKILL.md': FM,
      'fixtures/f/SKILL.md': FM,
      'c/SKILL.md': FM,
      'd/SKILL.md': FM,
    });
    const config = (pattern: string): IgnoreMatch => ({ source: 'config', pattern, file: '.loopkit.yaml', keepsSkill: false });
    expect(walkProject(root, rulesOf(root, ['drafts/', './top/', '!fixtures/', 'c/SKILL.md']))).toEqual(
      walked(root, {
        skillDirs: ['d', 'fixtures/f', 'x/top'],
        ignored: [
          { path: 'drafts', match: config('drafts/') },
          { path: 'top', match: config('./top/') },
        ],
      }),
    );
  });

  it('--ignore-pattern hides folders as the command line’s', () => {
    const root = tree({ 'wip/a/SKILL.md': FM, 'skills/b/SKILL.md': FM });
    expect(walkProject(root, rulesOf(root, [], ['wip']))).toEqual(
      walked(root, {
        skillDirs: ['skills/b'],
        ignored: [{ path: 'wip', match: { source: 'command line', pattern: 'wip', keepsSkill: false } }],
      }),
    );
  });

  it('nothing below an ignored folder is re-included', () => {
    const root = tree({ 'drafts/keep/SKILL.md': FM, 'drafts/keep/more/SKILL.md': FM });
    expect(walkProject(root, rulesOf(root, ['drafts/', '!drafts/keep/']))).toEqual(
      walked(root, {
        ignored: [{ path: 'drafts', match: { source: 'config', pattern: 'drafts/', file: '.loopkit.yaml', keepsSkill: false } }],
      }),
    );
  });

  it('`.gitignore` files hide folders and SKILL.md files (outside a git work tree: all there is), and cannot re-include a default', () => {
    const root = tree({
      '.gitignore': 'local/\n!build/\n',
      'local/a/SKILL.md': FM,
      'build/b/SKILL.md': FM,
      'pkg/.gitignore': 'gen/\n',
      'pkg/gen/SKILL.md': FM,
      'pkg/kept/SKILL.md': FM,
      'hid/.gitignore': 'SKILL.md\n',
      'hid/SKILL.md': FM,
      'hid/below/SKILL.md': FM,
      'gen/SKILL.md': FM,
    });
    expect(walkProject(root, rulesOf(root))).toEqual(
      walked(root, {
        skillDirs: ['gen', 'pkg/kept'],
        ignored: [
          { path: 'build', match: byDefault('build/') },
          { path: 'local', match: { source: 'gitignore', pattern: 'local/', file: '.gitignore', keepsSkill: false } },
          { path: 'pkg/gen', match: { source: 'gitignore', pattern: 'gen/', file: 'pkg/.gitignore', keepsSkill: false } },
        ],
      }),
    );
  });

  it('a `.gitignore` that is a folder, or a link that leads nowhere, is not read', () => {
    const root = tree({ '.gitignore/x': 'a/\n', 'a/SKILL.md': FM, 'b/c/SKILL.md': FM });
    link(root, 'b/.gitignore', 'nowhere');
    expect(walkProject(root, rulesOf(root))).toEqual(walked(root, { skillDirs: ['a', 'b/c'] }));
  });

  it('the ignored folders are sorted by path, not in the order of the walk', () => {
    const root = tree({ 'z/tmp/x': '', 'a/tmp/x': '', 'a-b/tmp/x': '', 'A/tmp/x': '' });
    expect(walkProject(root, rulesOf(root)).ignored.map((i) => i.path)).toEqual(['A/tmp', 'a-b/tmp', 'a/tmp', 'z/tmp']);
  });
});

describe('walkProject: projects of their own', () => {
  it('a folder below the root with a .loopkit.yaml is not walked and is named; the root’s own does not count', () => {
    const root = tree({
      '.loopkit.yaml': '',
      'skills/a/SKILL.md': FM,
      'tools/other/.loopkit.yaml': '',
      'tools/other/skills/b/SKILL.md': FM,
      'tools/other/SKILL.md': FM,
      'b/.loopkit.yaml': '',
      'c/.loopkit.yaml/x': 'a folder of that name counts too',
      // walked before `tools-b`, sorted after it
      'tools-b/.loopkit.yaml': '',
    });
    expect(walkProject(root, rulesOf(root))).toEqual(
      walked(root, { skillDirs: ['skills/a'], subprojects: ['b', 'c', 'tools-b', 'tools/other'] }),
    );
  });

  it('links into a project of its own are not followed; a link into a folder whose name only starts like it is', () => {
    const root = tree({
      'sub/.loopkit.yaml': '',
      'sub/skills/q/SKILL.md': FM,
      'sub-b/skills/r/SKILL.md': FM,
    });
    link(root, 'ln/one', '../sub/skills');
    link(root, 'ln/two', '../sub-b/skills');
    expect(walkProject(root, rulesOf(root, ['sub-b/']))).toEqual(
      walked(root, {
        skillDirs: ['ln/two/r'],
        reals: { 'ln/two/r': join(root, 'sub-b/skills/r') },
        subprojects: ['sub'],
        ignored: [{ path: 'sub-b', match: { source: 'config', pattern: 'sub-b/', file: '.loopkit.yaml', keepsSkill: false } }],
      }),
    );
  });
});

describe('walkProject: symbolic links to folders', () => {
  it('a folder reached at its real place and through links is walked once, at its real place, whatever the names sort as', () => {
    const root = tree({ 'skills/x/SKILL.md': FM, 'skills/tmp/t.md': '' });
    link(root, '.claude/skills', '../skills');
    link(root, 'a-link', 'skills');
    link(root, 'skills/x/self', '..');
    // walked once: what it ignores is named once, at its real place
    expect(walkProject(root, rulesOf(root))).toEqual(
      walked(root, { skillDirs: ['skills/x'], ignored: [{ path: 'skills/tmp', match: byDefault('tmp/') }] }),
    );
  });

  it('links that leave the project, lead nowhere or name a file are not walked', () => {
    const outside = tree({ 'foreign/SKILL.md': FM });
    const root = tree({ 'skills/x/SKILL.md': FM, 'README.md': '' });
    link(root, 'plugins/foreign', join(outside, 'foreign'));
    link(root, 'plugins/up', '../..');
    link(root, 'plugins/dangling', 'nowhere');
    link(root, 'plugins/readme', '../README.md');
    expect(walkProject(root, rulesOf(root))).toEqual(walked(root, { skillDirs: ['skills/x'] }));
  });

  it('a folder reached only through links is walked at the first link’s path, links found through links too', () => {
    const root = tree({ 'store/q/y/SKILL.md': FM, 'store/q/w/SKILL.md': FM });
    link(root, 'A', 'store/q');
    link(root, 'B', 'store');
    link(root, 'C/deep', '../B');
    expect(walkProject(root, rulesOf(root, ['store/']))).toEqual(
      walked(root, {
        skillDirs: ['A/w', 'A/y'],
        reals: { 'A/w': join(root, 'store/q/w'), 'A/y': join(root, 'store/q/y') },
        ignored: [{ path: 'store', match: { source: 'config', pattern: 'store/', file: '.loopkit.yaml', keepsSkill: false } }],
      }),
    );
  });

  it('a link to a folder the rules ignore is ignored as the folder would be', () => {
    const root = tree({ 'skills/x/SKILL.md': FM });
    link(root, 'dist', 'skills');
    expect(walkProject(root, rulesOf(root))).toEqual(
      walked(root, { skillDirs: ['skills/x'], ignored: [{ path: 'dist', match: byDefault('dist/') }] }),
    );
  });
});

describe('walkProject: starts (a skills_dir inside an ignored folder)', () => {
  it('a start the walk from the root does not reach is walked as a root of its own, with the defaults from there', () => {
    const root = tree({
      'build/skills/x/SKILL.md': FM,
      'build/skills/tests/t/SKILL.md': FM,
      'build/skills/.loopkit.yaml': '',
      'build/other/SKILL.md': FM,
    });
    expect(walkProject(root, rulesOf(root), ['build/skills'])).toEqual(
      walked(root, {
        skillDirs: ['build/skills/x'],
        ignored: [
          { path: 'build', match: byDefault('build/') },
          { path: 'build/skills/tests', match: byDefault('tests/') },
        ],
      }),
    );
  });

  it('a start the walk reached already is not walked again, and a start that does not exist is passed over', () => {
    const root = tree({ 'skills/x/SKILL.md': FM, 'skills/node_modules/p/SKILL.md': FM });
    expect(walkProject(root, rulesOf(root), ['skills', 'missing', 'skills/x'])).toEqual(
      walked(root, { skillDirs: ['skills/x'], ignored: [{ path: 'skills/node_modules', match: byDefault('node_modules/') }] }),
    );
  });

  it('a skill reached at a start and through a link is kept at its real place', () => {
    const root = tree({ 'build/skills/x/SKILL.md': FM });
    link(root, 'L', 'build');
    expect(walkProject(root, rulesOf(root), ['build/skills'])).toEqual(
      walked(root, { skillDirs: ['build/skills/x'], ignored: [{ path: 'build', match: byDefault('build/') }] }),
    );
  });
});

describe('walkProject: folders that cannot be read', () => {
  /**
   * A folder whose path is longer than the system allows (PATH_MAX, 4096 bytes): listed in its parent,
   * it cannot be read, whoever runs the tests (root reads a folder without permissions). Made through
   * a link outside the project, whose path is short.
   */
  function tooDeep(root: string, top: string): { rel: string; remove: () => void } {
    const parts = [top];
    for (let length = root.length + 1 + top.length; length < 4096;) {
      const n = Math.min(200, 4100 - length - 1);
      parts.push(String.fromCharCode(97 + (parts.length % 26)).repeat(n));
      length += n + 1;
    }
    // made in two steps: the first half from the root, the rest through a link to it from outside the project
    const half = Math.floor(parts.length / 2);
    const shortcut = TREES.fresh('short');
    mkdirSync(join(root, ...parts.slice(0, half)), { recursive: true });
    symlinkSync(join(root, ...parts.slice(0, half)), shortcut);
    mkdirSync(join(shortcut, ...parts.slice(half)), { recursive: true });
    writeFileSync(join(shortcut, ...parts.slice(half), 'SKILL.md'), FM);
    return { rel: parts.join('/'), remove: () => rmSync(join(shortcut, parts[half]!), { recursive: true, force: true }) };
  }

  it('folders that cannot be listed are named, sorted by path (any skill in them was not found), and the rest is walked', () => {
    const root = tree({ 'skills/a/SKILL.md': FM });
    // walked x before x-y, sorted x-y before x
    const deep = [tooDeep(root, 'x'), tooDeep(root, 'x-y')];
    try {
      expect(deep.map((d) => root.length + 1 + d.rel.length)).toEqual([4100, 4100]);
      expect(walkProject(root, rulesOf(root))).toEqual(walked(root, { skillDirs: ['skills/a'], unreadable: [deep[1]!.rel, deep[0]!.rel] }));
    } finally {
      for (const d of deep) d.remove();
    }
  });

  it('a folder without read permission is named where permissions apply; root reads it', () => {
    const root = tree({ 'skills/a/SKILL.md': FM, 'locked/b/SKILL.md': FM, 'also/c/SKILL.md': FM });
    chmodSync(join(root, 'locked'), 0o000);
    chmodSync(join(root, 'also'), 0o000);
    try {
      const w = walkProject(root, rulesOf(root));
      if (process.getuid?.() === 0) {
        expect(w).toEqual(walked(root, { skillDirs: ['also/c', 'locked/b', 'skills/a'] }));
      } else {
        expect(w).toEqual(walked(root, { skillDirs: ['skills/a'], unreadable: ['also', 'locked'] }));
      }
    } finally {
      chmodSync(join(root, 'locked'), 0o755);
      chmodSync(join(root, 'also'), 0o755);
    }
  });
});

describe('walkProject: SKILL.md files git tracks (git is asked only in a git work tree)', () => {
  /** git in `dir`, for a test's set-up: the test fails when git is missing or refuses, never skips. */
  function git(dir: string, ...args: string[]): void {
    const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
    if (r.error !== undefined || r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.error?.message ?? r.stderr}`);
  }
  const gitignored = (path: string, pattern: string, file = '.gitignore'): { path: string; match: IgnoreMatch } => ({
    path,
    match: { source: 'gitignore', pattern, file, keepsSkill: false },
  });

  /** A repository whose .gitignore hides folders and SKILL.md files, some of them tracked all the same. */
  function repository(): string {
    const root = tree({
      '.gitignore': '.claude/\nhidden/\ndeep/\nnode_modules/\n/SKILL.md\nother/SKILL.md\nother2/SKILL.md\n',
      'SKILL.md': FM,
      '.claude/settings.json': '{}',
      '.claude/skills/tracked/SKILL.md': FM,
      '.claude/skills/tracked/notes/SKILL.md': FM,
      '.claude/skills/untracked/SKILL.md': FM,
      'hidden/NOTSKILL.md': FM,
      'hidden/x/SKILL.md': FM,
      'deep/a/b/SKILL.md': FM,
      'node_modules/p/SKILL.md': FM,
      'other/SKILL.md': FM,
      'other2/SKILL.md': FM,
      'cfg/c/SKILL.md': FM,
      'skills/s/SKILL.md': FM,
    });
    git(root, 'init', '-q');
    git(
      root,
      'add',
      '-f',
      '.gitignore',
      'SKILL.md',
      '.claude/skills/tracked/SKILL.md',
      'hidden/NOTSKILL.md',
      'deep/a/b/SKILL.md',
      'node_modules/p/SKILL.md',
      'other2/SKILL.md',
      'cfg/c/SKILL.md',
      'skills/s/SKILL.md',
    );
    return root;
  }

  it('git is installed on this machine (the tests below need it)', () => {
    expect(spawnSync('git', ['--version']).status).toBe(0);
  });

  it('a tracked SKILL.md is a skill where a .gitignore hides it or its folders; untracked ones, other files and defaults stay out', () => {
    const root = repository();
    expect(walkProject(root, rulesOf(root, ['cfg/']))).toEqual(
      walked(root, {
        skillDirs: ['', '.claude/skills/tracked', 'deep/a/b', 'other2', 'skills/s'],
        ignored: [
          gitignored('.claude/skills/tracked/notes', '.claude/'),
          gitignored('.claude/skills/untracked', '.claude/'),
          { path: '.git', match: byDefault('.git/') },
          { path: 'cfg', match: { source: 'config', pattern: 'cfg/', file: '.loopkit.yaml', keepsSkill: false } },
          gitignored('hidden', 'hidden/'),
          { path: 'node_modules', match: byDefault('node_modules/') },
        ],
      }),
    );
  });

  it('without git on the PATH, the ignore files are all there is to go by', () => {
    const root = repository();
    const saved = process.env.PATH;
    process.env.PATH = '';
    try {
      expect(walkProject(root, rulesOf(root))).toEqual(
        walked(root, {
          // the root's SKILL.md is ignored: neither a skill nor an index
          skillDirs: ['cfg/c', 'skills/s'],
          ignored: [
            gitignored('.claude', '.claude/'),
            { path: '.git', match: byDefault('.git/') },
            gitignored('deep', 'deep/'),
            gitignored('hidden', 'hidden/'),
            { path: 'node_modules', match: byDefault('node_modules/') },
          ],
        }),
      );
    } finally {
      process.env.PATH = saved;
    }
  });

  it('git runs with core.fsmonitor off: the repository’s own configuration cannot make it run a command', () => {
    const root = tree({ '.gitignore': 'local/\n', 'local/x/SKILL.md': FM });
    git(root, 'init', '-q');
    git(root, 'add', '-f', 'local/x/SKILL.md');
    const marker = join(root, 'fsmonitor-ran');
    writeFileSync(join(root, 'hook.sh'), `#!/bin/sh\necho ran >> '${marker}'\nexit 1\n`);
    chmodSync(join(root, 'hook.sh'), 0o755);
    git(root, 'config', 'core.fsmonitor', join(root, 'hook.sh'));
    expect(walkProject(root, rulesOf(root))).toEqual(
      walked(root, { skillDirs: ['local/x'], ignored: [{ path: '.git', match: byDefault('.git/') }] }),
    );
    expect(existsSync(marker)).toBe(false);
  });

  it('outside a git work tree git is not run: the ignore files are all there is to go by', () => {
    const root = tree({ '.gitignore': 'local/\n', 'local/x/SKILL.md': FM, 'skills/s/SKILL.md': FM });
    // a git that records that it ran, first on the PATH
    const bin = tree({});
    const ran = join(bin, 'ran');
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$@" >> '${ran}'\nexit 128\n`);
    chmodSync(join(bin, 'git'), 0o755);
    const saved = process.env.PATH;
    process.env.PATH = `${bin}:${saved ?? ''}`;
    try {
      expect(walkProject(root, rulesOf(root))).toEqual(walked(root, { skillDirs: ['skills/s'], ignored: [gitignored('local', 'local/')] }));
    } finally {
      process.env.PATH = saved;
    }
    expect(existsSync(ran)).toBe(false);
  });

  it('in a project below the top of its repository, paths are the project’s (a .gitignore above the root counts too)', () => {
    const top = tree({
      '.gitignore': 'proj/kept/\n',
      'proj/.gitignore': '.claude/\n',
      'proj/.claude/skills/t/SKILL.md': FM,
      'proj/.claude/skills/u/SKILL.md': FM,
      'proj/kept/k/SKILL.md': FM,
    });
    git(top, 'init', '-q');
    git(top, 'add', '-f', 'proj/.claude/skills/t/SKILL.md', 'proj/kept/k/SKILL.md');
    const root = join(top, 'proj');
    expect(walkProject(root, rulesOf(root))).toEqual(
      walked(root, {
        skillDirs: ['.claude/skills/t', 'kept/k'],
        ignored: [gitignored('.claude/skills/u', '.claude/')],
      }),
    );
  });
});

describe('resolveSkillsDirs: the skills directories a skills_dir setting names', () => {
  const outside = tree({ 'skills/o/SKILL.md': FM });
  const root = tree({
    'skills/a/SKILL.md': FM,
    '.claude/skills/x/SKILL.md': FM,
    'plugins/p/skills/y/SKILL.md': FM,
    'plugins/q/skills/z/SKILL.md': FM,
    'plugins/r/skills': 'a file',
    'linked/skills/l/SKILL.md': FM,
    'node_modules/skills/n': '',
    '.git/skills/g': '',
    'other/skills/o': '',
    'README.md': '',
  });
  link(root, 'plugins/ln', '../linked');
  link(root, 'plugins/out', outside);

  it('a plain path is the folder it names, each once, in setting order: `./`, a trailing `/`, `.` and an absolute path inside the root', () => {
    expect(
      resolveSkillsDirs(root, ['skills', './skills', 'skills/', '.claude/skills', '.', './', join(root, 'plugins'), '././skills']),
    ).toEqual({
      dirs: ['skills', '.claude/skills', '', 'plugins'],
      missing: [],
    });
  });

  it('a plain path that is no folder is missing, in setting order; a glob that matches nothing is not', () => {
    expect(resolveSkillsDirs(root, ['nope', 'skills', 'README.md', 'x/*/skills', 'gone/'])).toEqual({
      dirs: ['skills'],
      missing: ['nope', 'README.md', 'gone/'],
    });
  });

  it('a glob is the folders it matches, sorted: through links that stay inside the project, never files', () => {
    expect(resolveSkillsDirs(root, ['plugins/*/skills/'])).toEqual({
      dirs: ['plugins/ln/skills', 'plugins/p/skills', 'plugins/q/skills'],
      missing: [],
    });
  });

  it('a glob matches dot-folders but never node_modules or .git; `./` and `.` in its results are the project’s way', () => {
    expect(resolveSkillsDirs(root, ['*/skills'])).toEqual({ dirs: ['.claude/skills', 'linked/skills', 'other/skills'], missing: [] });
    expect(resolveSkillsDirs(root, ['./plugins/{p,q}/skills', '{.,skills}', 'skills'])).toEqual({
      dirs: ['plugins/p/skills', 'plugins/q/skills', '', 'skills'],
      missing: [],
    });
  });
});

/** Walks written out for classify: real paths below R, the project's real root. */
const R = '/r';
const realOf = (d: string): string | null => (d === '' ? R : `${R}/${d}`);
function walkOf(skillDirs: string[], extra: Partial<Walk> = {}): Walk {
  return {
    skillDirs,
    realPaths: new Map(skillDirs.map((d) => [d, realOf(d)!])),
    subprojects: [],
    ignored: [],
    rootIndex: false,
    unreadable: [],
    ...extra,
  };
}
/** A discovery, whole: the fields not given are empty. */
const discovery = (d: Partial<Discovery>): Discovery => ({
  skills: [],
  fragments: [],
  indexes: [],
  packageDocs: [],
  nested: [],
  unchecked: [],
  subprojects: [],
  ignored: [],
  rootIndex: false,
  unreadable: [],
  ...d,
});
/** A frontmatterIn of this table (true for folders not in it), and the folders it was asked of, in order. */
function frontmatters(table: Record<string, boolean | null>): { fn: (d: string) => boolean | null; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    fn: (d) => {
      calls.push(d);
      return d in table ? table[d]! : true;
    },
  };
}

describe('classify: every SKILL.md is a skill (no skills directories)', () => {
  it('each folder is a skill, one inside another skill’s folder is part of it, and the walk’s findings pass through', () => {
    const ignored = [{ path: 'build', match: byDefault('build/') }];
    const walk = walkOf(
      [
        '.claude/skills/releasing',
        '.claude/skills/releasing/examples/hotfix',
        'docs/a',
        'tools/ct',
        'tools/ct/rules/r001',
        'tools/ct/rules/r001/deeper',
      ],
      { subprojects: ['p'], ignored, rootIndex: true, unreadable: ['u'] },
    );
    expect(classify(walk, null, realOf)).toEqual(
      discovery({
        skills: ['.claude/skills/releasing', 'docs/a', 'tools/ct'],
        nested: ['.claude/skills/releasing/examples/hotfix', 'tools/ct/rules/r001', 'tools/ct/rules/r001/deeper'],
        subprojects: ['p'],
        ignored,
        rootIndex: true,
        unreadable: ['u'],
      }),
    );
  });

  it('in a Codex skills folder (.agents/skills/, .codex/skills/) every SKILL.md is a skill, a skill’s sub-folders too', () => {
    const walk = walkOf([
      '.agents/skills/dailybot',
      '.agents/skills/dailybot/ask',
      '.claude/skills/d',
      '.claude/skills/d/e',
      '.codex/skills/a',
      '.codex/skills/a/b/c',
      'agents/skills/h',
      'agents/skills/h/i',
      'x/.agents/skills/f',
      'x/.agents/skills/f/g',
    ]);
    expect(classify(walk, null, realOf)).toEqual(
      discovery({
        skills: [
          '.agents/skills/dailybot',
          '.agents/skills/dailybot/ask',
          '.claude/skills/d',
          '.codex/skills/a',
          '.codex/skills/a/b/c',
          'agents/skills/h',
          'x/.agents/skills/f',
          'x/.agents/skills/f/g',
        ],
        nested: ['.claude/skills/d/e', 'agents/skills/h/i'],
      }),
    );
  });

  it('a SKILL.md whose folder is a skills directory is a router: the skills below are skills, its resource folders part of it', () => {
    const router = 'w/.aceharness/skills';
    const walk = walkOf([
      'skills',
      'skills/a',
      'skills/references/t',
      router,
      `${router}/assets`,
      `${router}/references/r/s`,
      `${router}/scripts/t`,
      `${router}/scriptsx/u`,
      `${router}/x`,
      `${router}/x/y`,
    ]);
    expect(classify(walk, null, realOf)).toEqual(
      discovery({
        skills: ['skills', 'skills/a', router, `${router}/scriptsx/u`, `${router}/x`],
        nested: ['skills/references/t', `${router}/assets`, `${router}/references/r/s`, `${router}/scripts/t`, `${router}/x/y`],
      }),
    );
  });

  it('the root skill holds every folder but those in a skills/ folder: its resource folders, its tree of sub-skills', () => {
    const walk = walkOf([
      '',
      '.claude/skills/c',
      'assets',
      'assets/t',
      'assetsx',
      'bitable',
      'bitable/create',
      'plugins/p/skills/q',
      'references/r',
      'references/skills/r',
      'scripts/s/deep',
      'skills/review',
      'skills/review/assets/x',
    ]);
    expect(classify(walk, null, realOf)).toEqual(
      discovery({
        skills: ['', '.claude/skills/c', 'plugins/p/skills/q', 'skills/review'],
        nested: [
          'assets',
          'assets/t',
          'assetsx',
          'bitable',
          'bitable/create',
          'references/r',
          // in the root skill's resource folder, though in a skills/ folder too
          'references/skills/r',
          'scripts/s/deep',
          'skills/review/assets/x',
        ],
      }),
    );
    expect(ROOT_SKILL_FOLDERS).toEqual(['assets', 'references', 'scripts']);
  });

  it('a SKILL.md without frontmatter above skills with one is an index of them; above templates, unreadable or bare ones it is a skill', () => {
    const fm = frontmatters({
      ab: false,
      'ab/c': false,
      abx: true,
      bare: false,
      'bare/x': false,
      fm: true,
      nul: false,
      'nul/x': null,
      openclaw: false,
      'openclaw/skills/do': true,
      solo: false,
      tmpl: false,
      'tmpl/assets/t': true,
      'tmpl/scripts/s': true,
      unread: null,
      'unread/y': true,
    });
    const walk = walkOf([
      'ab',
      'ab/c',
      'abx',
      'bare',
      'bare/x',
      'fm',
      'fm/z',
      'nul',
      'nul/x',
      'openclaw',
      'openclaw/skills/do',
      'solo',
      'tmpl',
      'tmpl/assets/t',
      'tmpl/scripts/s',
      'unread',
      'unread/y',
    ]);
    expect(classify(walk, null, realOf, fm.fn)).toEqual(
      discovery({
        skills: ['ab', 'abx', 'bare', 'fm', 'nul', 'openclaw/skills/do', 'solo', 'tmpl', 'unread'],
        nested: ['ab/c', 'bare/x', 'fm/z', 'nul/x', 'tmpl/assets/t', 'tmpl/scripts/s', 'unread/y'],
        indexes: ['openclaw'],
      }),
    );
    // only the folders with a SKILL.md folder below them are read, and below them until one has frontmatter
    expect(fm.calls).toEqual(['ab', 'ab/c', 'bare', 'bare/x', 'fm', 'nul', 'nul/x', 'openclaw', 'openclaw/skills/do', 'tmpl', 'unread']);
  });

  it('in an agent’s skills folder a SKILL.md without frontmatter is no index (the agent loads it); the skills folder itself and a plugin’s are', () => {
    const fm = frontmatters({
      '.claude/skills': false,
      '.claude/skills/g': false,
      'plugins/p/skills/x': false,
    });
    const walk = walkOf([
      '.claude/skills',
      '.claude/skills/g',
      '.claude/skills/g/sub',
      '.claude/skills/h',
      'plugins/p/skills/x',
      'plugins/p/skills/x/y',
    ]);
    expect(classify(walk, null, realOf, fm.fn)).toEqual(
      discovery({
        skills: ['.claude/skills/g', '.claude/skills/h', 'plugins/p/skills/x/y'],
        nested: ['.claude/skills/g/sub'],
        indexes: ['.claude/skills', 'plugins/p/skills/x'],
      }),
    );
    expect(fm.calls).toEqual(['.claude/skills', '.claude/skills/g', '.claude/skills/g/sub', 'plugins/p/skills/x', 'plugins/p/skills/x/y']);
  });

  it('a SKILL.md without frontmatter in a code package’s folder is its document; an index or one with frontmatter is not', () => {
    const fm = frontmatters({ 'go/skill': false, pkg: false, plug: false, 'rs/unread': null });
    const packages = new Set(['go/skill', 'go/skill2', 'plug', 'rs/unread']);
    const walk = walkOf(['go/skill', 'go/skill2', 'pkg', 'plug', 'plug/skills/do', 'rs/unread']);
    // one that cannot be read is a skill that fails to load
    expect(classify(walk, null, realOf, fm.fn, (d) => packages.has(d))).toEqual(
      discovery({ skills: ['go/skill2', 'pkg', 'plug/skills/do', 'rs/unread'], indexes: ['plug'], packageDocs: ['go/skill'] }),
    );
  });

  it('a SKILL.md without frontmatter named as another skill with one is a piece of it; in an agent’s folder, unread or all without, it is a skill', () => {
    const fm = frontmatters({
      '.claude/skills/making-flows': false,
      'a/nofm': false,
      'b/nofm': false,
      dup: false,
      'skill-flavors/web/making-flows': false,
      solo: false,
      'w/unread': null,
    });
    const walk = walkOf([
      '.claude/skills/making-flows',
      'a/nofm',
      'b/nofm',
      'dup',
      'p/two',
      'q/two',
      'skill-flavors/web/making-flows',
      'skills/making-flows',
      'solo',
      'w/unread',
      'x/dup',
      'z/unread',
    ]);
    expect(classify(walk, null, realOf, fm.fn)).toEqual(
      discovery({
        skills: [
          '.claude/skills/making-flows',
          'a/nofm',
          'b/nofm',
          'p/two',
          'q/two',
          'skills/making-flows',
          'solo',
          'w/unread',
          'x/dup',
          'z/unread',
        ],
        fragments: ['dup', 'skill-flavors/web/making-flows'],
      }),
    );
    // only the folders that share a name are read
    expect(fm.calls).toEqual([
      '.claude/skills/making-flows',
      'skill-flavors/web/making-flows',
      'skills/making-flows',
      'a/nofm',
      'b/nofm',
      'dup',
      'x/dup',
      'p/two',
      'q/two',
      'w/unread',
      'z/unread',
    ]);
  });

  it('each SKILL.md is read once, though indexes and pieces both ask', () => {
    const fm = frontmatters({ a: false });
    expect(classify(walkOf(['a', 'a/assets/t', 'x/a']), null, realOf, fm.fn)).toEqual(
      discovery({ skills: ['x/a'], fragments: ['a'], nested: ['a/assets/t'] }),
    );
    expect(fm.calls).toEqual(['a', 'x/a']);
  });

  it('without frontmatter and package readers, every folder has frontmatter and none is a package', () => {
    expect(classify(walkOf(['a', 'b/a', 'c', 'c/skills/d']), null, realOf)).toEqual(
      discovery({ skills: ['a', 'b/a', 'c'], nested: ['c/skills/d'] }),
    );
  });
});

describe('classify: skills directories (skills_dir)', () => {
  it('the folders inside the skills directories are the skills; every other SKILL.md is unchecked, with why', () => {
    const walk = walkOf(['', 'other/c', 'other/c/d', 'skills', 'skills/a', 'skills/a/ex', 'skills/cat/b', 'skillsx/e']);
    const fm = frontmatters({ 'skills/a': false, 'skills/cat/b': false, 'other/c': false });
    expect(classify(walk, ['skills'], realOf, fm.fn, () => true)).toEqual(
      discovery({
        skills: ['skills/a', 'skills/cat/b'],
        nested: ['skills/a/ex'],
        unchecked: [
          { dir: '', reason: 'root' },
          { dir: 'other/c', reason: 'outside' },
          { dir: 'skills', reason: 'skills-dir' },
          { dir: 'skillsx/e', reason: 'outside' },
        ],
      }),
    );
    // no index and no package document is looked for; pieces only where names are shared
    expect(fm.calls).toEqual([]);
  });

  it('where a skills directory is the root, the root skill is checked and only its resource folders are part of it', () => {
    const found = ['', 'assets', 'assets/t', 'assetsx', 'bitable', 'references/r', 'scripts', 'skills/x'];
    expect(classify(walkOf(found), [''], realOf)).toEqual(
      discovery({ skills: ['', 'assetsx', 'bitable', 'skills/x'], nested: ['assets', 'assets/t', 'references/r', 'scripts'] }),
    );
    // a skills directory whose real path is the root's (a link to it) names the root too
    const linked = (d: string) => (d === 'here' ? R : realOf(d));
    expect(classify(walkOf(['', 'a']), ['here'], linked)).toEqual(discovery({ skills: ['', 'a'] }));
  });

  it('the root skill is unchecked when no skills directory is the root, or the root has no real path', () => {
    expect(classify(walkOf(['', 'skills/a']), ['skills'], realOf)).toEqual(
      discovery({ skills: ['skills/a'], unchecked: [{ dir: '', reason: 'root' }] }),
    );
    const noRoot = (d: string) => (d === '' ? null : realOf(d));
    expect(classify(walkOf(['', 'skills/a']), ['skills', ''], noRoot)).toEqual(
      discovery({ skills: ['skills/a'], unchecked: [{ dir: '', reason: 'root' }] }),
    );
  });

  it('in a Codex skills folder every SKILL.md is a skill; in another one a sub-folder’s is part of its skill', () => {
    const walk = walkOf(['.agents/skills/d', '.agents/skills/d/ask', '.agents/skills/d/ask/more', 'skills/e', 'skills/e/f']);
    expect(classify(walk, ['.agents/skills', 'skills'], realOf)).toEqual(
      discovery({ skills: ['.agents/skills/d', '.agents/skills/d/ask', '.agents/skills/d/ask/more', 'skills/e'], nested: ['skills/e/f'] }),
    );
  });

  it('a folder that is a skill in one skills directory is not part of another skill in an outer one', () => {
    const walk = walkOf(['skills/x', 'skills/x/y', 'skills/z', 'skills/z/w']);
    expect(classify(walk, ['skills', 'skills/x'], realOf)).toEqual(
      discovery({ skills: ['skills/x', 'skills/x/y', 'skills/z'], nested: ['skills/z/w'] }),
    );
  });

  it('folders are placed by their real paths; a skills directory that has none is passed over; one inside an unchecked one is reported once', () => {
    const walk = walkOf(['ln/x', 'ln/x/inner', 'ln2/y', 'out/z', 'out/z/zz'], {
      realPaths: new Map([
        ['ln/x', `${R}/skills/x`],
        ['ln/x/inner', `${R}/skills/x/inner`],
        ['ln2/y', `${R}/skills-extra/y`],
        ['out/z', `${R}/out/z`],
        ['out/z/zz', `${R}/out/z/zz`],
      ]),
    });
    const some = (d: string) => (d === 'gone' ? null : realOf(d));
    expect(classify(walk, ['gone', 'skills'], some)).toEqual(
      discovery({
        skills: ['ln/x'],
        nested: ['ln/x/inner'],
        unchecked: [
          { dir: 'ln2/y', reason: 'outside' },
          { dir: 'out/z', reason: 'outside' },
        ],
      }),
    );
  });

  it('a project at the file system’s root: the root’s real path ends with the separator', () => {
    const walk: Walk = {
      ...walkOf(['', 'a', 'b/c']),
      realPaths: new Map([
        ['', '/'],
        ['a', '/a'],
        ['b/c', '/b/c'],
      ]),
    };
    const top = (d: string) => (d === '' ? '/' : `/${d}`);
    expect(classify(walk, [''], top)).toEqual(discovery({ skills: ['', 'a', 'b/c'] }));
  });

  it('pieces are moved out of the skills in skills directories too', () => {
    const fm = frontmatters({ 'skill-flavors/web/making-flows': false });
    const walk = walkOf(['skill-flavors/web/making-flows', 'skills/making-flows']);
    expect(classify(walk, ['skills', 'skill-flavors'], realOf, fm.fn)).toEqual(
      discovery({ skills: ['skills/making-flows'], fragments: ['skill-flavors/web/making-flows'] }),
    );
  });
});

describe('homesOf and foldersOf', () => {
  it('homesOf: the nearest folder above each skill named skills, else the folder that holds it; sorted, each once', () => {
    expect(
      homesOf([
        'skills/a',
        'skills/team/b',
        '.claude/skills/c',
        'plugins/x/skills/d',
        'agents/cli/e',
        'agents/cli/f',
        'top',
        '',
        'skills',
        'x/skills',
        'a/skills/b/skills/c',
      ]),
    ).toEqual(['', '.claude/skills', 'a/skills/b/skills', 'agents/cli', 'plugins/x/skills', 'skills', 'x']);
    expect(homesOf([])).toEqual([]);
  });

  it('foldersOf: the folder that holds each skill, sorted, each once', () => {
    expect(foldersOf(['a/b/c', 'top', 'a/b/d', '', 'skills/y'])).toEqual(['', 'a/b', 'skills']);
    expect(foldersOf([])).toEqual([]);
  });
});

describe('everySkill: the skills found everywhere, with no settings (what `loopkit init` sees)', () => {
  it('walks the project with the defaults and its .gitignore files, and classifies every SKILL.md found', () => {
    const root = tree({
      '.loopkit.yaml': 'skills_dir: nowhere\nignores: [skills/]\n',
      '.gitignore': 'local/\n',
      'SKILL.md': FM,
      '.claude/skills/r/SKILL.md': FM,
      '.claude/skills/r/examples/h/SKILL.md': FM,
      'assets/t/SKILL.md': FM,
      'bitable/SKILL.md': FM,
      'local/l/SKILL.md': FM,
      'node_modules/p/SKILL.md': FM,
      'skills/review/SKILL.md': FM,
      'tools/other/.loopkit.yaml': '',
      'tools/other/skills/o/SKILL.md': FM,
    });
    expect(everySkill(root)).toEqual(['', '.claude/skills/r', 'skills/review']);
    expect(everySkill(join(root, 'tools', 'other'))).toEqual(['skills/o']);
  });
});
