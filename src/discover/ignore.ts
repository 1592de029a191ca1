/**
 * What discovery does not walk: the folders and files that are ignored, from four sources, in
 * `.gitignore` syntax (the `ignore` package reads it as git does: negation, anchoring,
 * directory-only patterns, `**`), in this order of precedence (the last pattern that matches a path
 * decides, and nothing below an ignored folder can be re-included, as in git):
 *
 * 1. the project's git ignores: `.git/info/exclude`, the `.gitignore` files above the project root
 *    (up to the repository's top) and the project's own, the root's and every nested one, a deeper
 *    file over a shallower one;
 * 2. the defaults (DEFAULT_IGNORES): version control, dependencies, build output, tests and their
 *    fixtures, `_` folders — after git's, so a `.gitignore` that re-includes `build/` for git does
 *    not make loopkit walk it;
 * 3. `ignores:` in `.loopkit.yaml`;
 * 4. `--ignore-pattern` on the command line.
 *
 * `ignores:` and `--ignore-pattern` may re-include (`!fixtures/`) what the defaults or git ignore.
 * Git's global excludes file (core.excludesFile) is not read: a check must not depend on the machine.
 */
import ignore, { type Ignore } from 'ignore';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import { OTHER_USE_FOLDERS } from '../model/skill-dir.js';
import { readText } from '../parse/fs.js';
import { climbsOut } from '../util/paths.js';

/** Where an ignore pattern comes from. */
export type IgnoreSource = 'default' | 'gitignore' | 'config' | 'command line';

export interface DefaultIgnore {
  pattern: string;
  /** what the folders are, for the docs and --verbose */
  why: string;
}

/**
 * The folders nobody wants checked as skills. Except the `_` folders, a default never hides a
 * folder that holds a SKILL.md itself: a skill may be named `build` or `tests`.
 */
export const DEFAULT_IGNORES: readonly DefaultIgnore[] = [
  ...Object.entries(OTHER_USE_FOLDERS).map(([name, why]) => ({ pattern: `${name}/`, why })),
  {
    pattern: '_*/',
    why: 'templates and parts (`_template/`, `_shared/`, `__tests__/`, `_archive/`): a `_` folder that is a skill itself, or is named for a part',
  },
  {
    pattern: '*-workspace/',
    why: 'the workspace of skill-creator’s evaluations (`<skill>-workspace/` with `iteration-1/` or `skill-snapshot/`): outputs, and copies of a skill before an edit',
  },
];

/** The defaults that hide only some of the folders they match (defaultHides). */
const CONDITIONAL = new Set(['_*/', '*-workspace/']);

/** Defaults that do not hide a folder holding a SKILL.md or a plugin manifest itself (all but the conditional ones). */
const KEEPS_SKILLS = new Set(DEFAULT_IGNORES.filter((d) => !CONDITIONAL.has(d.pattern)).map((d) => d.pattern));

/**
 * The names of the `_` folders that hold parts, not skills: templates, shared pieces, tests and their
 * fixtures, examples, archives, drafts, copies of others' work.
 */
const PART_FOLDER =
  /^_+(?:templates?|shared|common|tests?|specs?|fixtures?|mocks?|snapshots?|examples?|samples?|archived?|deprecated|old|drafts?|backups?|wip|tmp|temp|vendor(?:ed)?|build|dist|generated|cache)(?:[-_.].*)?$/iu;

/**
 * Does the `_*` default hide the folder named `name`? A folder that is a skill itself (`_template/SKILL.md`:
 * no skill's name starts with `_`) or is named for a part (PART_FOLDER) is hidden with everything in
 * it; any other `_` folder groups skills (`_services/weather/SKILL.md`, held-out round 93: twelve
 * skills of an application in `_services/` and `_experts/`) and is walked.
 */
function hidesUnderscoreFolder(name: string, holdsSkill: boolean): boolean {
  return holdsSkill || PART_FOLDER.test(name);
}

/**
 * Does a conditional default (CONDITIONAL) hide the folder named `name`, whose files `has` tells?
 * - `_*`: hidesUnderscoreFolder;
 * - `*-workspace`: only skill-creator's workspace, a sibling of the skill it evaluates that holds
 *   `iteration-1/` (the runs' outputs) or `skill-snapshot/` (the skill copied before an edit, `cp -r
 *   <skill> <workspace>/skill-snapshot/`, as Anthropic's skill-creator writes it): those copies are
 *   no skills to load (held-out round 95: ten copies reported as duplicates of the skills they copy).
 */
export function defaultHides(pattern: string, name: string, has: (file: string) => boolean): boolean {
  if (pattern === '_*/') return hidesUnderscoreFolder(name, has('SKILL.md'));
  return has('iteration-1') || has('skill-snapshot');
}

/** Why a path is ignored. */
export interface IgnoreMatch {
  source: IgnoreSource;
  /** the pattern as written */
  pattern: string;
  /** the file it is written in (a `.gitignore`, `.git/info/exclude`, `.loopkit.yaml`), project-relative where inside the project */
  file?: string;
  /** a default that does not apply to a folder holding a SKILL.md itself */
  keepsSkill: boolean;
  /** a default that hides only some of the folders it matches (defaultHides) */
  conditional?: boolean;
}

interface Mark {
  source: IgnoreSource;
  pattern: string;
  file?: string;
}

const marks = new Map<string, Mark>();
/** Patterns carry where they come from as the `ignore` package's `mark` (a string: an index into `marks`). */
function marked(pattern: string, mark: Mark): { pattern: string; mark: string } {
  const key = JSON.stringify([mark.source, mark.file ?? null, mark.pattern]);
  if (!marks.has(key)) marks.set(key, mark);
  return { pattern, mark: key };
}

/** A folder name in a pattern: glob characters escaped. */
const escaped = (path: string) => path.replace(/[\\*?[\]!#]/gu, (c) => `\\${c}`);

/** One line of an ignore file (or setting), split into its negation and body; null for blank lines and comments. */
function parseLine(line: string): { negative: boolean; body: string } | null {
  const text = line.replace(/\r$/u, '');
  if (text.trim() === '' || text.startsWith('#')) return null;
  return text.startsWith('!') ? { negative: true, body: text.slice(1) } : { negative: false, body: text };
}

/** Does a pattern body name a path from its file's folder (a slash at the start or in the middle)? */
const anchored = (body: string) => body.replace(/\/+$/u, '').includes('/');

/**
 * A pattern of the ignore file in the project folder `dir` ('' = the root), as a pattern of the
 * project root: `x` becomes `dir/**\/x`, `/x` and `a/x` become `dir/x` and `dir/a/x`.
 */
export function rebased(line: string, dir: string): string | null {
  const parsed = parseLine(line);
  if (parsed === null) return null;
  if (dir === '') return line;
  const body = parsed.body.replace(/^\//u, '');
  const prefix = escaped(dir);
  return `${parsed.negative ? '!' : ''}${anchored(parsed.body) ? `${prefix}/${body}` : `${prefix}/**/${body}`}`;
}

/**
 * A pattern of an ignore file in a folder above the project root (`below` is the way from that
 * folder down to the root, posix), as a pattern of the project root: a pattern that matches at any
 * level applies as it is; an anchored one only when it names a path inside the project by its
 * literal way (`packages/skills/drafts/`); else (null) it names something outside the project.
 */
export function fromAbove(line: string, below: string): string | null {
  const parsed = parseLine(line);
  if (parsed === null) return null;
  if (!anchored(parsed.body)) return line;
  const body = parsed.body.replace(/^\//u, '');
  if (!body.startsWith(`${below}/`) || body.length === below.length + 1) return null;
  const inside = body.slice(below.length + 1);
  // a glob on the way down to the root cannot be told apart from a literal folder name: not applied
  if (/[*?[\\]/u.test(body.slice(0, below.length))) return null;
  return `${parsed.negative ? '!' : ''}/${inside}`;
}

const lines = (text: string) => text.split('\n');

/** The directory git keeps its files in for the work tree at `top` (`.git`, or where a `.git` file points). */
function gitDirectory(top: string): string | null {
  const dotGit = join(top, '.git');
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const pointer = /^gitdir:\s*(.+)$/mu.exec(readFileSync(dotGit, 'utf8'));
    if (!pointer) return null;
    const gitDir = resolve(top, pointer[1]!.trim());
    // a linked work tree keeps its info/exclude in the common directory
    const common = join(gitDir, 'commondir');
    return existsSync(common) ? resolve(gitDir, readFileSync(common, 'utf8').trim()) : gitDir;
  } catch {
    return null;
  }
}

/** The top of the git work tree the project is in (the project root or a folder above it), or null. */
export function repositoryTop(root: string): string | null {
  for (let dir = root; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

const posixPath = (p: string) => (sep === '/' ? p : p.split(sep).join('/'));

/**
 * The rules of one folder of the walk: git's patterns that apply there (every `.gitignore` on the
 * way down to it), then the defaults, `ignores:` and `--ignore-pattern`. Paths are tested relative
 * to `base` (a project folder; '' = the root): discovery walks a skills directory that the rules of
 * the root would ignore (a `skills_dir` named inside `build/`) as a root of its own.
 */
export class IgnoreRules {
  private combined: Ignore | undefined;

  private constructor(
    private readonly git: Ignore,
    private readonly tail: Ignore,
    private readonly base: string,
  ) {}

  /**
   * The rules at the project root: git's files above and at the root (the root's own `.gitignore`
   * is read when the walk enters the root), the defaults, `ignores:` (written in `configFile`) and
   * the command line's patterns.
   */
  static forProject(root: string, settings: { ignores: readonly string[]; configFile: string | null; ignorePatterns: readonly string[] }) {
    const git = ignore({ ignorecase: false });
    const top = repositoryTop(root);
    if (top !== null) {
      // each file with the folder its patterns are written from: info/exclude from the top of the
      // work tree, then the .gitignore files above the root, from the top down
      const files: { from: string; abs: string }[] = [];
      const gitDir = gitDirectory(top);
      if (gitDir !== null) files.push({ from: top, abs: join(gitDir, 'info', 'exclude') });
      const above: string[] = [];
      if (top !== root) {
        for (let dir = dirname(root); ; dir = dirname(dir)) {
          above.unshift(dir);
          if (dir === top || dirname(dir) === dir) break;
        }
      }
      for (const dir of above) files.push({ from: dir, abs: join(dir, '.gitignore') });
      for (const { from, abs } of files) {
        const r = readText(abs);
        if (!('text' in r)) continue;
        const below = posixPath(relative(from, root));
        for (const line of lines(r.text)) {
          const p = below === '' ? (parseLine(line) === null ? null : line) : fromAbove(line, below);
          if (p !== null) git.add(marked(p, { source: 'gitignore', pattern: line.trim(), file: posixPath(abs) }));
        }
      }
    }
    const tail = ignore({ ignorecase: false });
    for (const d of DEFAULT_IGNORES) tail.add(marked(d.pattern, { source: 'default', pattern: d.pattern }));
    const file = settings.configFile ?? undefined;
    for (const p of settings.ignores)
      tail.add(marked(settingPattern(p), { source: 'config', pattern: p, ...(file !== undefined ? { file } : {}) }));
    for (const p of settings.ignorePatterns) tail.add(marked(settingPattern(p), { source: 'command line', pattern: p }));
    return new IgnoreRules(git, tail, '');
  }

  /** These rules, with the patterns of the `.gitignore` in the project folder `dir`. */
  withGitignore(dir: string, text: string): IgnoreRules {
    const git = ignore({ ignorecase: false }).add(this.git);
    const inBase = this.relative(dir);
    const file = dir === '' ? '.gitignore' : `${dir}/.gitignore`;
    for (const line of lines(text)) {
      const p = rebased(line, inBase);
      if (p !== null) git.add(marked(p, { source: 'gitignore', pattern: line.trim(), file }));
    }
    return new IgnoreRules(git, this.tail, this.base);
  }

  /**
   * These rules, with the folder `dir` re-included: a default that would ignore it does not apply
   * to a folder holding a SKILL.md itself, nor then to anything inside it.
   */
  keeping(dir: string): IgnoreRules {
    const tail = ignore({ ignorecase: false })
      .add(this.tail)
      .add(marked(`!/${escaped(this.relative(dir))}/`, { source: 'default', pattern: '(a skill folder)' }));
    return new IgnoreRules(this.git, tail, this.base);
  }

  /** Git's rules alone (no defaults, no `ignores:`, no command line): what the repository keeps out of itself. */
  gitOnly(): IgnoreRules {
    return new IgnoreRules(this.git, ignore({ ignorecase: false }), this.base);
  }

  /** These rules for a walk that starts at the project folder `dir`: paths are tested from there. */
  rootedAt(dir: string): IgnoreRules {
    return new IgnoreRules(ignore({ ignorecase: false }), this.tail, dir);
  }

  private relative(path: string): string {
    return this.base === '' ? path : path === this.base ? '' : path.slice(this.base.length + 1);
  }

  /** Why the project path `path` (a folder when `isDir`) is ignored, or null when it is not. */
  test(path: string, isDir: boolean): IgnoreMatch | null {
    const rel = this.relative(path);
    if (rel === '') return null;
    this.combined ??= ignore({ ignorecase: false }).add(this.git).add(this.tail);
    const t = this.combined.test(isDir ? `${rel}/` : rel);
    if (!t.ignored) return null;
    const mark = marks.get(t.rule?.mark ?? '');
    if (mark === undefined) return { source: 'gitignore', pattern: t.rule?.pattern ?? '', keepsSkill: false };
    const out: IgnoreMatch = {
      source: mark.source,
      pattern: mark.pattern,
      keepsSkill: mark.source === 'default' && KEEPS_SKILLS.has(mark.pattern),
    };
    if (mark.source === 'default' && CONDITIONAL.has(mark.pattern)) out.conditional = true;
    if (mark.file !== undefined) out.file = mark.file;
    return out;
  }
}

/**
 * A pattern of `ignores:` or `--ignore-pattern`: gitignore syntax relative to the project root; a
 * leading `./` anchors it at the root like a leading `/`.
 */
export function settingPattern(p: string): string {
  const neg = p.startsWith('!');
  const body = (neg ? p.slice(1) : p).replace(/^(?:\.\/)+/u, '/');
  return `${neg ? '!' : ''}${body}`;
}

/**
 * Which of the project paths `paths` (files that do not exist) git's ignore rules name: the rules
 * above and at the root, and the `.gitignore` of every folder on a path's way down, matching the
 * file itself (`config/team-config.md`, `*.local.md`). A path inside an ignored folder is not
 * counted: a folder pattern (`integrations/`, `output/`) may catch a path by accident, and the
 * labelled corpus has such links that are broken (alirezarezvani/claude-skills). Each folder's file
 * is read once.
 */
export function gitIgnoredPaths(root: string, paths: Iterable<string>): Set<string> {
  const base = IgnoreRules.forProject(root, { ignores: [], configFile: null, ignorePatterns: [] }).gitOnly();
  const byDir = new Map<string, IgnoreRules | null>();
  /** the rules in force in folder `dir` (its own .gitignore read), or null when the folder is ignored */
  const rulesIn = (dir: string): IgnoreRules | null => {
    const known = byDir.get(dir);
    if (known !== undefined) return known;
    let rules: IgnoreRules | null = base;
    if (dir !== '') {
      const slash = dir.lastIndexOf('/');
      const parent = rulesIn(slash < 0 ? '' : dir.slice(0, slash));
      rules = parent === null || parent.test(dir, true) !== null ? null : parent;
    }
    if (rules !== null) {
      const r = readText(join(root, dir, '.gitignore'));
      if ('text' in r) rules = rules.withGitignore(dir, r.text);
    }
    byDir.set(dir, rules);
    return rules;
  };
  const out = new Set<string>();
  for (const path of paths) {
    // a place as a link writes it (`./x.md`, `a/../b`, `.`): judged in its normal form, the root and places outside it never
    const place = posix.normalize(path).replace(/\/+$/u, '');
    if (place === '.' || place === '' || climbsOut(place) || place.startsWith('/')) continue;
    const slash = place.lastIndexOf('/');
    const rules = rulesIn(slash < 0 ? '' : place.slice(0, slash));
    if (rules !== null && rules.test(place, false) !== null) out.add(path);
  }
  return out;
}
