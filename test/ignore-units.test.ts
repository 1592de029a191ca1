/**
 * The ignore rules of discovery (src/discover/ignore.ts), driven directly in the test process: the
 * defaults and what kind each is, the pattern helpers (settingPattern, rebased, fromAbove), the
 * IgnoreRules class (sources in order, what a match reports, re-inclusion, `.gitignore` files in
 * subfolders, keeping, rootedAt, gitOnly), the git files read for a project (info/exclude, a `.git`
 * file that points elsewhere, a linked work tree's common directory, the `.gitignore` files above
 * the root up to the repository's top and no further) and gitIgnoredPaths. Projects with a git
 * directory are small temporary directories; nothing here runs git.
 */
import { join } from 'node:path';
import type * as PathModule from 'node:path';
import { trees } from './helpers/tree.js';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_IGNORES,
  defaultHides,
  fromAbove,
  gitIgnoredPaths,
  IgnoreRules,
  rebased,
  repositoryTop,
  settingPattern,
} from '../src/discover/ignore.js';

const TREES = trees('loopkit-ignore-');
const BASE = TREES.base;
afterAll(() => TREES.remove());
const tree = (files?: Record<string, string>) => TREES.tree(files);

interface Settings {
  ignores: readonly string[];
  configFile: string | null;
  ignorePatterns: readonly string[];
}
const NONE: Settings = { ignores: [], configFile: null, ignorePatterns: [] };
/** Rules of a project outside any git work tree (BASE is under the temporary directory). */
const plain = (settings: Partial<Settings> = {}) => IgnoreRules.forProject(tree({}), { ...NONE, ...settings });

const KEPT = [
  '.git/',
  '.hg/',
  '.svn/',
  'node_modules/',
  '.venv/',
  'venv/',
  'dist/',
  'build/',
  'out/',
  'coverage/',
  'test/',
  'tests/',
  'fixtures/',
  'testdata/',
  'scenarios/',
  'tmp/',
];

describe('the defaults', () => {
  it('are the other-use folders, then the `_` folders and skill-creator workspaces, in this order', () => {
    expect(DEFAULT_IGNORES.map((d) => d.pattern)).toEqual([...KEPT, '_*/', '*-workspace/']);
    expect(DEFAULT_IGNORES.slice(0, 3).map((d) => d.why)).toEqual(['version control', 'version control', 'version control']);
    expect(DEFAULT_IGNORES.find((d) => d.pattern === 'tmp/')?.why).toBe('temporary files');
  });

  it('the temporary directory of these tests is in no git work tree (else the plain projects would read git files)', () => {
    expect(repositoryTop(BASE)).toBeNull();
  });

  it.each(KEPT)('%s hides a folder of that name at any depth, keeps skills, and is not conditional', (pattern) => {
    const rules = plain();
    const name = pattern.slice(0, -1);
    const match = { source: 'default', pattern, keepsSkill: true };
    expect(rules.test(name, true)).toStrictEqual(match);
    expect(rules.test(`a/b/${name}`, true)).toStrictEqual(match);
    expect(rules.test(`a/${name}/SKILL.md`, false)).toStrictEqual(match);
    // a folder pattern: a file of that name is not ignored
    expect(rules.test(`a/${name}`, false)).toBeNull();
  });

  it('the `_*` and `*-workspace` defaults are conditional and do not keep skills', () => {
    const rules = plain();
    expect(rules.test('a/_shared', true)).toStrictEqual({ source: 'default', pattern: '_*/', keepsSkill: false, conditional: true });
    expect(rules.test('x-workspace', true)).toStrictEqual({
      source: 'default',
      pattern: '*-workspace/',
      keepsSkill: false,
      conditional: true,
    });
    expect(rules.test('_shared', false)).toBeNull();
    expect(rules.test('workspace', true)).toBeNull();
    expect(rules.test('skills', true)).toBeNull();
  });

  it('are case-sensitive: `Build/` and `Tests/` are walked', () => {
    const rules = plain();
    expect(rules.test('Build', true)).toBeNull();
    expect(rules.test('a/Tests', true)).toBeNull();
  });

  it('defaultHides: a `_` folder holding a SKILL.md or named for a part is hidden, a grouping `_` folder is not', () => {
    const none = () => false;
    expect(defaultHides('_*/', '_services', none)).toBe(false);
    expect(defaultHides('_*/', '_services', (f) => f === 'SKILL.md')).toBe(true);
    expect(defaultHides('_*/', '_templates', none)).toBe(true);
    expect(defaultHides('_*/', '__Tests__', none)).toBe(true);
    expect(defaultHides('_*/', '_shared-bits', none)).toBe(true);
    expect(defaultHides('_*/', '_sharedbits', none)).toBe(false);
  });

  it('defaultHides: a `-workspace` folder is hidden only when it holds iteration-1/ or skill-snapshot/', () => {
    expect(defaultHides('*-workspace/', 'a-workspace', () => false)).toBe(false);
    expect(defaultHides('*-workspace/', 'a-workspace', (f) => f === 'iteration-1')).toBe(true);
    expect(defaultHides('*-workspace/', 'a-workspace', (f) => f === 'skill-snapshot')).toBe(true);
    expect(defaultHides('*-workspace/', 'a-workspace', (f) => f === 'SKILL.md')).toBe(false);
  });
});

describe('settingPattern: `ignores:` and --ignore-pattern', () => {
  it('anchors a leading `./` (one or many) like a leading `/`, negated or not', () => {
    expect(settingPattern('./drafts')).toBe('/drafts');
    expect(settingPattern('././drafts/')).toBe('/drafts/');
    expect(settingPattern('!./drafts')).toBe('!/drafts');
    expect(settingPattern('!././drafts')).toBe('!/drafts');
  });

  it('leaves every other pattern as written: `./` inside, `!` at the end, `.` names', () => {
    expect(settingPattern('drafts')).toBe('drafts');
    expect(settingPattern('!drafts')).toBe('!drafts');
    expect(settingPattern('a./b')).toBe('a./b');
    expect(settingPattern('docs/./x')).toBe('docs/./x');
    expect(settingPattern('wow!')).toBe('wow!');
    expect(settingPattern('.hidden')).toBe('.hidden');
    expect(settingPattern('../x')).toBe('../x');
  });
});

describe('rebased: a pattern of a subfolder’s .gitignore as one of the root', () => {
  it('is the line itself in the root folder, null for blank lines and comments anywhere', () => {
    expect(rebased('*.log', '')).toBe('*.log');
    expect(rebased('x\r', '')).toBe('x\r');
    expect(rebased('# note', '')).toBeNull();
    expect(rebased('', '')).toBeNull();
    expect(rebased('', 'a')).toBeNull();
    expect(rebased('   ', 'a')).toBeNull();
    expect(rebased('\t', 'a')).toBeNull();
    expect(rebased('\r', 'a')).toBeNull();
    expect(rebased('# note\r', 'a')).toBeNull();
  });

  it('puts `**/` before a pattern without a slash (it matches at any depth below the folder)', () => {
    expect(rebased('x', 'a')).toBe('a/**/x');
    expect(rebased('x/', 'a/b')).toBe('a/b/**/x/');
    expect(rebased('x//', 'a')).toBe('a/**/x//');
    expect(rebased('*.md', 'a')).toBe('a/**/*.md');
    expect(rebased('**/x', 'a')).toBe('a/**/x');
  });

  it('anchors a pattern with a slash at the start or in the middle at the folder', () => {
    expect(rebased('/x', 'a')).toBe('a/x');
    expect(rebased('/x/', 'a')).toBe('a/x/');
    expect(rebased('b/x', 'a')).toBe('a/b/x');
    expect(rebased('b/**/x', 'a')).toBe('a/b/**/x');
  });

  it('keeps a negation in front', () => {
    expect(rebased('!x', 'a')).toBe('!a/**/x');
    expect(rebased('!/x', 'a')).toBe('!a/x');
  });

  it('drops one CR at the end of a line (CRLF files), and only there', () => {
    expect(rebased('x\r', 'a')).toBe('a/**/x');
    expect(rebased('x\ry', 'a')).toBe('a/**/x\ry');
  });

  it('keeps escapes, trailing spaces and a leading `#` or `!` that is escaped', () => {
    expect(rebased('\\#x', 'a')).toBe('a/**/\\#x');
    expect(rebased('\\!x', 'a')).toBe('a/**/\\!x');
    expect(rebased('x  ', 'a')).toBe('a/**/x  ');
    expect(rebased('a\\*b', 'd')).toBe('d/**/a\\*b');
  });

  it('escapes the glob characters, `#`, `!` and `\\` of the folder name', () => {
    expect(rebased('x', 'we*ird?[1]')).toBe('we\\*ird\\?\\[1\\]/**/x');
    expect(rebased('/x', '!a#b')).toBe('\\!a\\#b/x');
    expect(rebased('x', 'a\\b')).toBe('a\\\\b/**/x');
  });
});

describe('fromAbove: a pattern of an ignore file above the project root', () => {
  it('applies a pattern without a slash as it is, null for blank lines and comments', () => {
    expect(fromAbove('*.log', 'p')).toBe('*.log');
    expect(fromAbove('x/', 'p')).toBe('x/');
    expect(fromAbove('x//', 'p')).toBe('x//');
    expect(fromAbove('!x', 'p')).toBe('!x');
    expect(fromAbove('# c', 'p')).toBeNull();
    expect(fromAbove('  ', 'p')).toBeNull();
    expect(fromAbove('', 'p')).toBeNull();
  });

  it('rewrites an anchored pattern that names a path inside the project by its literal way', () => {
    expect(fromAbove('/p/x', 'p')).toBe('/x');
    expect(fromAbove('p/x/', 'p')).toBe('/x/');
    expect(fromAbove('!/p/x', 'p')).toBe('!/x');
    expect(fromAbove('/a/b/c/x', 'a/b')).toBe('/c/x');
    expect(fromAbove('/p/*.md', 'p')).toBe('/*.md');
    expect(fromAbove('/p/**/gen', 'p')).toBe('/**/gen');
  });

  it('is null for an anchored pattern outside the project, or naming the root itself', () => {
    expect(fromAbove('/q/x', 'p')).toBeNull();
    expect(fromAbove('/pp/x', 'p')).toBeNull();
    expect(fromAbove('/p/', 'p')).toBeNull();
    expect(fromAbove('/p', 'p')).toBeNull();
    expect(fromAbove('/a/x', 'a/b')).toBeNull();
  });

  it('is null when the way down to the root is a folder whose name has glob characters (cannot be told from a glob)', () => {
    expect(fromAbove('/a*b/x', 'a*b')).toBeNull();
    expect(fromAbove('/a?b/x', 'a?b')).toBeNull();
    expect(fromAbove('/a[b/x', 'a[b')).toBeNull();
    expect(fromAbove('/a\\b/x', 'a\\b')).toBeNull();
    expect(fromAbove('/q/a*b/x', 'q/a*b')).toBeNull();
  });
});

describe('IgnoreRules: sources, order and what a match says', () => {
  it('reports `ignores:` with its file, does not keep skills even for a default’s pattern', () => {
    const rules = plain({ ignores: ['drafts/', 'build/'], configFile: '.loopkit.yaml' });
    expect(rules.test('drafts', true)).toStrictEqual({ source: 'config', pattern: 'drafts/', file: '.loopkit.yaml', keepsSkill: false });
    expect(rules.test('build', true)).toStrictEqual({ source: 'config', pattern: 'build/', file: '.loopkit.yaml', keepsSkill: false });
  });

  it('reports `ignores:` without a file when there is no config file, and --ignore-pattern without one', () => {
    expect(plain({ ignores: ['drafts/'] }).test('drafts', true)).toStrictEqual({ source: 'config', pattern: 'drafts/', keepsSkill: false });
    const cli = plain({ ignorePatterns: ['drafts/', 'tests/'] });
    expect(cli.test('drafts', true)).toStrictEqual({ source: 'command line', pattern: 'drafts/', keepsSkill: false });
    expect(cli.test('tests', true)).toStrictEqual({ source: 'command line', pattern: 'tests/', keepsSkill: false });
  });

  it('reports the setting as written (`./x`), applied anchored at the root', () => {
    const rules = plain({ ignores: ['./drafts'], configFile: 'cfg.yaml' });
    expect(rules.test('drafts', true)).toStrictEqual({ source: 'config', pattern: './drafts', file: 'cfg.yaml', keepsSkill: false });
    expect(rules.test('a/drafts', true)).toBeNull();
  });

  it('`ignores:` re-includes a default, --ignore-pattern wins over `ignores:`', () => {
    const rules = plain({ ignores: ['!build/', 'x.md'], ignorePatterns: ['!x.md'] });
    expect(rules.test('build', true)).toBeNull();
    expect(rules.test('a/build/SKILL.md', false)).toBeNull();
    expect(rules.test('x.md', false)).toBeNull();
    const back = plain({ ignores: ['!build/'], ignorePatterns: ['build/'] });
    expect(back.test('build', true)).toStrictEqual({ source: 'command line', pattern: 'build/', keepsSkill: false });
  });

  it('nothing below an ignored folder can be re-included, by a setting or a .gitignore', () => {
    const rules = plain({ ignores: ['gen/', '!gen/keep.md', '!tests/keep.md'] });
    expect(rules.test('gen/keep.md', false)).toStrictEqual({ source: 'config', pattern: 'gen/', keepsSkill: false });
    expect(rules.test('tests/keep.md', false)).toStrictEqual({ source: 'default', pattern: 'tests/', keepsSkill: true });
    const git = plain().withGitignore('', 'gen/\n!gen/keep.md\n');
    expect(git.test('gen/keep.md', false)).toStrictEqual({ source: 'gitignore', pattern: 'gen/', file: '.gitignore', keepsSkill: false });
  });

  it('the defaults come after git: a .gitignore that re-includes build/ does not make it walked', () => {
    const rules = plain().withGitignore('', '!build/\n');
    expect(rules.test('build', true)).toStrictEqual({ source: 'default', pattern: 'build/', keepsSkill: true });
  });

  it('`ignores:` re-includes what a .gitignore ignores', () => {
    const rules = plain({ ignores: ['!drafts/'] }).withGitignore('', 'drafts/\n');
    expect(rules.test('drafts', true)).toBeNull();
  });

  it('settings are case-sensitive and `**` spans folders', () => {
    const rules = plain({ ignores: ['Drafts/', 'docs/**/gen'] });
    expect(rules.test('drafts', true)).toBeNull();
    expect(rules.test('Drafts', true)).toStrictEqual({ source: 'config', pattern: 'Drafts/', keepsSkill: false });
    expect(rules.test('docs/a/b/gen', true)).toStrictEqual({ source: 'config', pattern: 'docs/**/gen', keepsSkill: false });
    expect(rules.test('docs/gen', false)).toStrictEqual({ source: 'config', pattern: 'docs/**/gen', keepsSkill: false });
    expect(rules.test('x/docs/a/gen', true)).toBeNull();
  });

  it('the same pattern from another config file is reported with that file', () => {
    expect(plain({ ignores: ['same/'] }).test('same', true)).toStrictEqual({ source: 'config', pattern: 'same/', keepsSkill: false });
    expect(plain({ ignores: ['same/'], configFile: 'b.yaml' }).test('same', true)).toStrictEqual({
      source: 'config',
      pattern: 'same/',
      file: 'b.yaml',
      keepsSkill: false,
    });
    // a config file named '' is a file of its own, not "no file" (the key of a pattern's origin tells them apart)
    expect(plain({ ignores: ['empty/'], configFile: '' }).test('empty', true)).toStrictEqual({
      source: 'config',
      pattern: 'empty/',
      file: '',
      keepsSkill: false,
    });
    expect(plain({ ignores: ['empty/'] }).test('empty', true)).toStrictEqual({ source: 'config', pattern: 'empty/', keepsSkill: false });
  });

  it('only a default is conditional: `_*/` and `*-workspace/` written in a setting or a .gitignore hide every folder they match', () => {
    const rules = plain({ ignores: ['_*/'], ignorePatterns: ['*-workspace/'] });
    expect(rules.test('_x', true)).toStrictEqual({ source: 'config', pattern: '_*/', keepsSkill: false });
    expect(rules.test('a-workspace', true)).toStrictEqual({ source: 'command line', pattern: '*-workspace/', keepsSkill: false });
    // (the defaults come after git: gitOnly shows the .gitignore's own match)
    const git = plain().withGitignore('', '_*/\n').gitOnly();
    expect(git.test('a/_x', true)).toStrictEqual({ source: 'gitignore', pattern: '_*/', file: '.gitignore', keepsSkill: false });
  });

  it('the root itself is never ignored: test("") is null', () => {
    const rules = plain({ ignores: ['*'] });
    expect(rules.test('', false)).toBeNull();
    expect(rules.test('', true)).toBeNull();
    expect(rules.test('a', false)).toStrictEqual({ source: 'config', pattern: '*', keepsSkill: false });
  });
});

describe('IgnoreRules.withGitignore: the .gitignore of a folder', () => {
  it('reports the pattern trimmed (trailing spaces, CR) and the file, and skips comments and blank lines', () => {
    const rules = plain().withGitignore('', '# a comment\n\n   \n*.log\nspaced.md   \ncrlf.md\r\n!keep.log\n');
    const at = (pattern: string) => ({ source: 'gitignore', pattern, file: '.gitignore', keepsSkill: false });
    expect(rules.test('a/b.log', false)).toStrictEqual(at('*.log'));
    expect(rules.test('spaced.md', false)).toStrictEqual(at('spaced.md'));
    expect(rules.test('crlf.md', false)).toStrictEqual(at('crlf.md'));
    expect(rules.test('keep.log', false)).toBeNull();
    expect(rules.test('# a comment', false)).toBeNull();
  });

  it('escaped `#`, `!` and trailing space name files that start with them or end in a space', () => {
    const rules = plain().withGitignore('', '\\#hash.md\n\\!bang.md\nsp\\ \n');
    const at = (pattern: string) => ({ source: 'gitignore', pattern, file: '.gitignore', keepsSkill: false });
    expect(rules.test('#hash.md', false)).toStrictEqual(at('\\#hash.md'));
    expect(rules.test('!bang.md', false)).toStrictEqual(at('\\!bang.md'));
    expect(rules.test('bang.md', false)).toBeNull();
    // the pattern reported is the trimmed line, `sp\` (the escaped space trimmed off): a defect of the label, not pinned here
    expect(rules.test('sp ', false)).toMatchObject({ source: 'gitignore', file: '.gitignore', keepsSkill: false });
    expect(rules.test('sp', false)).toBeNull();
  });

  it('a backslash escapes a glob character; a lone trailing backslash or an open bracket matches nothing', () => {
    const rules = plain().withGitignore('', 'a\\*b\nbad\\\nc[d\nok.md\n');
    expect(rules.test('a*b', false)).toStrictEqual({ source: 'gitignore', pattern: 'a\\*b', file: '.gitignore', keepsSkill: false });
    expect(rules.test('axb', false)).toBeNull();
    expect(rules.test('bad', false)).toBeNull();
    expect(rules.test('c[d', false)).toBeNull();
    expect(rules.test('ok.md', false)).toStrictEqual({ source: 'gitignore', pattern: 'ok.md', file: '.gitignore', keepsSkill: false });
  });

  it('a subfolder’s patterns apply below it, anchored ones at it, reported with its file', () => {
    const rules = plain().withGitignore('', 'root.md\n').withGitignore('sub', 'x.md\n/top.md\nd/y.md\n');
    const sub = (pattern: string) => ({ source: 'gitignore', pattern, file: 'sub/.gitignore', keepsSkill: false });
    expect(rules.test('sub/x.md', false)).toStrictEqual(sub('x.md'));
    expect(rules.test('sub/deep/x.md', false)).toStrictEqual(sub('x.md'));
    expect(rules.test('x.md', false)).toBeNull();
    expect(rules.test('other/x.md', false)).toBeNull();
    expect(rules.test('sub/top.md', false)).toStrictEqual(sub('/top.md'));
    expect(rules.test('sub/deep/top.md', false)).toBeNull();
    expect(rules.test('sub/d/y.md', false)).toStrictEqual(sub('d/y.md'));
    expect(rules.test('sub/e/d/y.md', false)).toBeNull();
    expect(rules.test('sub/root.md', false)).toStrictEqual({
      source: 'gitignore',
      pattern: 'root.md',
      file: '.gitignore',
      keepsSkill: false,
    });
  });

  it('a deeper .gitignore re-includes what a shallower one ignores; the earlier rules are not changed', () => {
    const root = plain().withGitignore('', '*.gen.md\n');
    const deeper = root.withGitignore('a', '!keep.gen.md\n');
    expect(deeper.test('a/keep.gen.md', false)).toBeNull();
    expect(root.test('a/keep.gen.md', false)).toStrictEqual({
      source: 'gitignore',
      pattern: '*.gen.md',
      file: '.gitignore',
      keepsSkill: false,
    });
  });

  it('is case-sensitive', () => {
    const rules = plain().withGitignore('', 'Drafts/\n').withGitignore('s', 'Notes.md\n');
    expect(rules.test('drafts', true)).toBeNull();
    expect(rules.test('s/notes.md', false)).toBeNull();
    expect(rules.test('s/Notes.md', false)).toStrictEqual({
      source: 'gitignore',
      pattern: 'Notes.md',
      file: 's/.gitignore',
      keepsSkill: false,
    });
  });

  it('in rules rooted at a folder, a .gitignore of a folder below is read from there', () => {
    const rules = plain().rootedAt('pkg').withGitignore('pkg/sub', '/x.md\n');
    expect(rules.test('pkg/sub/x.md', false)).toStrictEqual({
      source: 'gitignore',
      pattern: '/x.md',
      file: 'pkg/sub/.gitignore',
      keepsSkill: false,
    });
    expect(rules.test('pkg/x.md', false)).toBeNull();
  });
});

describe('IgnoreRules: keeping, gitOnly, rootedAt', () => {
  it('keeping re-includes a folder and everything in it, and only that folder', () => {
    const rules = plain().keeping('a/tests');
    expect(rules.test('a/tests', true)).toBeNull();
    expect(rules.test('a/tests/SKILL.md', false)).toBeNull();
    expect(rules.test('tests', true)).toStrictEqual({ source: 'default', pattern: 'tests/', keepsSkill: true });
    expect(rules.test('a/tests/x/tests', true)).toStrictEqual({ source: 'default', pattern: 'tests/', keepsSkill: true });
  });

  it('keeping is case-sensitive and escapes glob characters of the folder name', () => {
    const rules = plain().keeping('Tests').keeping('_*');
    expect(rules.test('tests', true)).toStrictEqual({ source: 'default', pattern: 'tests/', keepsSkill: true });
    expect(rules.test('_*', true)).toBeNull();
    expect(rules.test('_x', true)).toStrictEqual({ source: 'default', pattern: '_*/', keepsSkill: false, conditional: true });
  });

  it('keeping in rules rooted at a folder takes the folder from there', () => {
    const rules = plain().rootedAt('pkg').keeping('pkg/build');
    expect(rules.test('pkg/build', true)).toBeNull();
    expect(rules.test('pkg/x/build', true)).toStrictEqual({ source: 'default', pattern: 'build/', keepsSkill: true });
  });

  it('gitOnly keeps git’s patterns and drops the defaults and settings', () => {
    const rules = plain({ ignores: ['drafts/'] })
      .withGitignore('', 'x.md\n')
      .gitOnly();
    expect(rules.test('build', true)).toBeNull();
    expect(rules.test('drafts', true)).toBeNull();
    expect(rules.test('x.md', false)).toStrictEqual({ source: 'gitignore', pattern: 'x.md', file: '.gitignore', keepsSkill: false });
  });

  it('rootedAt tests paths from the folder, drops git’s patterns, never ignores the folder itself', () => {
    const rules = plain({ ignores: ['/x', '*'] })
      .withGitignore('', 'g.md\n')
      .rootedAt('build');
    expect(rules.test('build', true)).toBeNull();
    expect(rules.test('build/x', false)).toStrictEqual({ source: 'config', pattern: '*', keepsSkill: false });
    const anchored = plain({ ignores: ['/x'] }).rootedAt('sub');
    expect(anchored.test('sub/x', false)).toStrictEqual({ source: 'config', pattern: '/x', keepsSkill: false });
    expect(anchored.test('sub/a/x', false)).toBeNull();
    expect(anchored.test('sub/tests', true)).toStrictEqual({ source: 'default', pattern: 'tests/', keepsSkill: true });
    const noGit = plain().withGitignore('', 'g.md\n').rootedAt('sub');
    expect(noGit.test('sub/g.md', false)).toBeNull();
  });
});

describe('IgnoreRules.forProject: git’s files', () => {
  it('repositoryTop is the nearest folder up with a .git, the root itself included', () => {
    const top = tree({ '.git/HEAD': '', 'a/b/.keep': '' });
    expect(repositoryTop(top)).toBe(top);
    expect(repositoryTop(join(top, 'a', 'b'))).toBe(top);
  });

  it('reads .git/info/exclude at the top: anchored patterns, trimmed lines, CRLF, comments; case-sensitive', () => {
    const root = tree({
      '.git/info/exclude': '# comment\r\n\r\n/drafts/\r\nsecret*.md\r\nTODO.md   \r\n',
    });
    const rules = IgnoreRules.forProject(root, NONE);
    const file = join(root, '.git', 'info', 'exclude');
    const at = (pattern: string) => ({ source: 'gitignore', pattern, file, keepsSkill: false });
    expect(rules.test('drafts', true)).toStrictEqual(at('/drafts/'));
    expect(rules.test('a/drafts', true)).toBeNull();
    expect(rules.test('a/secret1.md', false)).toStrictEqual(at('secret*.md'));
    expect(rules.test('TODO.md', false)).toStrictEqual(at('TODO.md'));
    expect(rules.test('todo.md', false)).toBeNull();
    expect(rules.test('Drafts', true)).toBeNull();
  });

  it('a line of tabs or other blanks is a blank line, not a pattern, in every git file', () => {
    const top = tree({ '.git/info/exclude': '\t\n\u00a0\n', '.gitignore': '\t\n', 'p/.keep': '' });
    expect(IgnoreRules.forProject(top, NONE).test('\t', false)).toBeNull();
    expect(IgnoreRules.forProject(top, NONE).test('\u00a0', false)).toBeNull();
    expect(IgnoreRules.forProject(join(top, 'p'), NONE).test('\t', false)).toBeNull();
    expect(plain().withGitignore('', '\t\n').withGitignore('s', '\t\n').test('s/\t', false)).toBeNull();
  });

  it('reads the .gitignore files between the top and the root, not the root’s own and nothing above the top', () => {
    const outer = tree({
      '.gitignore': 'outer.md\n',
      'repo/.git/info/exclude': '/pkg/skills/gen/\n/elsewhere/\nex.md\n',
      'repo/.gitignore': '/pkg/skills/drafts/\nrepo.md\n/other/x\n/pkg/skills\nCase.md\n',
      'repo/pkg/.gitignore': 'pkg.md\n/skills/pkgdrafts/\n',
      'repo/pkg/skills/.gitignore': 'own.md\n',
    });
    const repo = join(outer, 'repo');
    const rules = IgnoreRules.forProject(join(repo, 'pkg', 'skills'), NONE);
    const at = (pattern: string, file: string) => ({ source: 'gitignore', pattern, file, keepsSkill: false });
    expect(rules.test('outer.md', false)).toBeNull();
    expect(rules.test('own.md', false)).toBeNull();
    expect(rules.test('repo.md', false)).toStrictEqual(at('repo.md', join(repo, '.gitignore')));
    expect(rules.test('drafts', true)).toStrictEqual(at('/pkg/skills/drafts/', join(repo, '.gitignore')));
    expect(rules.test('x', false)).toBeNull();
    expect(rules.test('other/x', false)).toBeNull();
    expect(rules.test('pkg.md', false)).toStrictEqual(at('pkg.md', join(repo, 'pkg', '.gitignore')));
    expect(rules.test('pkgdrafts', true)).toStrictEqual(at('/skills/pkgdrafts/', join(repo, 'pkg', '.gitignore')));
    expect(rules.test('gen', true)).toStrictEqual(at('/pkg/skills/gen/', join(repo, '.git', 'info', 'exclude')));
    expect(rules.test('elsewhere', true)).toBeNull();
    expect(rules.test('a/ex.md', false)).toStrictEqual(at('ex.md', join(repo, '.git', 'info', 'exclude')));
    expect(rules.test('case.md', false)).toBeNull();
  });

  it('a project that is the top of its repository reads no .gitignore of the folders above it', () => {
    const outer = tree({ '.gitignore': 'outside.md\n', 'proj/.git/HEAD': '' });
    const rules = IgnoreRules.forProject(join(outer, 'proj'), NONE);
    expect(rules.test('outside.md', false)).toBeNull();
    expect(rules.test('a/outside.md', false)).toBeNull();
  });

  it('a project below a top without .gitignore files reads none above it', () => {
    const top = tree({ '.git/HEAD': '', 'p/q/.keep': '' });
    const rules = IgnoreRules.forProject(join(top, 'p', 'q'), NONE);
    expect(rules.test('x.md', false)).toBeNull();
    expect(rules.test('build', true)).toStrictEqual({ source: 'default', pattern: 'build/', keepsSkill: true });
  });

  it('follows a `.git` file to the git directory (`gitdir:` with or without space, trailing blanks trimmed)', () => {
    const real = tree({ 'info/exclude': 'wt.md\n' });
    const file = join(real, 'info', 'exclude');
    const match = { source: 'gitignore', pattern: 'wt.md', file, keepsSkill: false };
    const tight = tree({ '.git': `gitdir:${real}\n` });
    expect(IgnoreRules.forProject(tight, NONE).test('wt.md', false)).toStrictEqual(match);
    const spaced = tree({ '.git': `gitdir: \t${real} \t\n` });
    expect(IgnoreRules.forProject(spaced, NONE).test('wt.md', false)).toStrictEqual(match);
    const second = tree({ '.git': `# a note\ngitdir: ${real}\n` });
    expect(IgnoreRules.forProject(second, NONE).test('wt.md', false)).toStrictEqual(match);
  });

  it('a `.git` file without a `gitdir:` line at a line start points nowhere: no exclude file is read', () => {
    const real = tree({ 'info/exclude': 'wt.md\n' });
    const bad = tree({ '.git': `notgitdir: ${real}\n` });
    expect(IgnoreRules.forProject(bad, NONE).test('wt.md', false)).toBeNull();
    const empty = tree({ '.git': '' });
    expect(IgnoreRules.forProject(empty, NONE).test('wt.md', false)).toBeNull();
  });

  it('a linked work tree reads info/exclude in the common directory (commondir)', () => {
    const git = tree({
      'common/info/exclude': 'linked.md\n',
      'common/worktrees/w/commondir': '../..\n',
      'common/worktrees/w/info/exclude': 'wrong.md\n',
    });
    const wt = tree({ '.git': `gitdir: ${join(git, 'common', 'worktrees', 'w')}\n` });
    const rules = IgnoreRules.forProject(wt, NONE);
    expect(rules.test('linked.md', false)).toStrictEqual({
      source: 'gitignore',
      pattern: 'linked.md',
      file: join(git, 'common', 'info', 'exclude'),
      keepsSkill: false,
    });
    expect(rules.test('wrong.md', false)).toBeNull();
  });
});

describe('IgnoreRules.forProject where path.sep is `\\` (Windows)', () => {
  // a fresh copy of the module that sees node:path with sep `\`; on Linux a folder name may hold a
  // backslash, which stands here for Windows' separator
  it.skipIf(process.platform === 'win32')('turns the way down from a folder above and the git file’s path into posix', async () => {
    vi.resetModules();
    vi.doMock('node:path', async (importOriginal) => ({ ...(await importOriginal<typeof PathModule>()), sep: '\\' }));
    try {
      const win = await import('../src/discover/ignore.js');
      const outer = tree({ 'w\\x/.git/HEAD': '', 'w\\x/.gitignore': '/p/q/x.md\n', 'w\\x/p\\q/.keep': '' });
      const rules = win.IgnoreRules.forProject(join(outer, 'w\\x', 'p\\q'), NONE);
      expect(rules.test('x.md', false)).toStrictEqual({
        source: 'gitignore',
        pattern: '/p/q/x.md',
        file: `${outer}/w/x/.gitignore`,
        keepsSkill: false,
      });
    } finally {
      vi.doUnmock('node:path');
      vi.resetModules();
    }
  });
});

describe('gitIgnoredPaths', () => {
  const root = tree({
    '.git/HEAD': '',
    '.gitignore': '*.local.md\n/doc/\nout/\n',
    'docs/.gitignore': 'secret.md\n',
    'out/.gitignore': '!*.local.md\n',
    'a/.gitignore': 'c.md\n',
  });

  it('names the paths the .gitignore files on their way down match, and no others', () => {
    const got = gitIgnoredPaths(root, [
      'x.local.md',
      'docs/secret.md',
      'docs/deep/secret.md',
      'docs/deep/x.local.md',
      'sub/x.local.md',
      'secret.md',
      'docs/ok.md',
      'a/c.md',
      'a/b/c.md',
      'doc.local.md',
    ]);
    expect(got).toEqual(
      new Set([
        'x.local.md',
        'docs/secret.md',
        'docs/deep/secret.md',
        'docs/deep/x.local.md',
        'sub/x.local.md',
        'a/c.md',
        'a/b/c.md',
        'doc.local.md',
      ]),
    );
  });

  it('a path inside an ignored folder is not counted, a folder pattern does not catch a file', () => {
    expect(gitIgnoredPaths(root, ['out/y.local.md', 'doc/z.local.md', 'out/deep/y.local.md', 'doc', 'out'])).toEqual(new Set());
  });

  it('paths outside the project (`../`, absolute) are skipped', () => {
    expect(gitIgnoredPaths(root, ['../x.local.md', '/x.local.md', 'ok.local.md'])).toEqual(new Set(['ok.local.md']));
  });

  it('a place as a link writes it (./x, a/../b, x/) is judged in its normal form and named as written; the root itself (., ./, ..) is no path and never an error', () => {
    expect(
      gitIgnoredPaths(root, ['.', './', '..', './.', 'docs/..', './x.local.md', 'docs/../a/c.md', 'docs/./secret.md', 'ok.md']),
    ).toEqual(new Set(['./x.local.md', 'docs/../a/c.md', 'docs/./secret.md']));
  });

  it('a place written with a trailing slash (or several) is judged without it and named as written', () => {
    expect(gitIgnoredPaths(root, ['x.local.md/', 'docs/secret.md//', 'ok.md/'])).toEqual(new Set(['x.local.md/', 'docs/secret.md//']));
  });

  it('a root-level path is judged by the root’s rules even when every top-level folder is ignored', () => {
    const allDirs = tree({ '.git/HEAD': '', '.gitignore': '/*/\n*.local.md\n' });
    expect(gitIgnoredPaths(allDirs, ['x.local.md', 'a/y.local.md'])).toEqual(new Set(['x.local.md']));
  });

  it('the defaults and settings play no part', () => {
    expect(gitIgnoredPaths(root, ['build/x.md', 'tests/y.local.md'])).toEqual(new Set(['tests/y.local.md']));
  });
});
