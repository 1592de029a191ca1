/**
 * Recognising file paths written in prose: Windows-style paths, machine-specific absolute paths,
 * absolute link destinations, and how many directory levels a relative link goes down.
 *
 * Prose is split into path-like tokens (letters, digits, `_ . $ ~ % @ -` plus the separators
 * `\ / :`); everything else (white space, quotes, brackets, `, ; | * = + ! ? # ^ &`…) ends a token.
 */
import { posix, sep } from 'node:path';

/**
 * Does a relative path (as `path.relative` gives it, either separator) lead out of the folder it is
 * relative to: `..` or `../…`? A name that only starts with two dots (`..notes.md`) is inside.
 */
export function climbsOut(rel: string): boolean {
  return rel === '..' || rel.startsWith('../') || rel.startsWith(`..${sep}`);
}

/**
 * The skill-directory placeholder of link destinations (`{baseDir}/references/x.md`, also
 * `${baseDir}`, `{{baseDir}}` and Claude Code's `${CLAUDE_SKILL_DIR}`), documented for skills whose files are read from an installed
 * location: the link is relative to the skill directory.
 */
export const BASE_DIR_PLACEHOLDER = /^(?:\$\{baseDir\}|\{\{\s*baseDir\s*\}\}|\{baseDir\}|\$\{CLAUDE_SKILL_DIR\}|\$CLAUDE_SKILL_DIR)\//u;

/** A token found in a string: its text (trailing sentence punctuation dropped) and UTF-16 index. */
export interface PathToken {
  text: string;
  index: number;
}

const SEG = String.raw`[\p{L}\p{M}\p{N}_.$~%@-]+`;
const TOKEN = /[\p{L}\p{M}\p{N}_.$~%@\-\\/:]+/gu;

/** Path-like tokens of `s` (a token ending in `.` or `:` loses them: end of a sentence). */
export function pathTokens(s: string): PathToken[] {
  const out: PathToken[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(s); m !== null; m = TOKEN.exec(s)) {
    const text = m[0].replace(/[.:]+$/u, '');
    if (text !== '') out.push({ text, index: m.index });
  }
  return out;
}

const SEP = String.raw`(?:\\{1,2})`; // one backslash, or two as written inside a JSON/C string
const DRIVE = new RegExp(String.raw`^[A-Za-z]:${SEP}(?:${SEG}(?:${SEP}${SEG})*${SEP}?)?$`, 'u');
const UNC = new RegExp(String.raw`^\\\\(?:\\\\)?${SEG}(?:${SEP}${SEG})+${SEP}?$`, 'u');
const DOT_RELATIVE = new RegExp(String.raw`^\.\.?(?:${SEP}${SEG})+${SEP}?$`, 'u');
const RELATIVE = new RegExp(String.raw`^(${SEP})?${SEG}(?:${SEP}${SEG})+$`, 'u');
const FILE_EXTENSION = /^[^.].*\.[A-Za-z][A-Za-z0-9]{0,7}$/u;

/**
 * Whether a token is a Windows-style path: a drive path with at least two parts or a file name
 * (`C:\Users\me`, `C:\tools\x.exe`), a UNC path (`\\server\share`), a dot-relative path
 * (`..\foo`, `.\run.ps1`), or a relative or rooted path whose last part is a file name with an
 * extension (`scripts\run.py`, `\temp\out.log`).
 *
 * Not paths: escape sequences (`\n`, `\d+`, `\r\n`, `\xF7\xF8`), regular expressions (`a\.b\.c`),
 * a lone backslash, LaTeX (`\quad\textbf`, `\small\sffamily`), namespaces (`Vendor\Package\Client`)
 * and registry-like names — backslash chains without a file name, which real skills use far more
 * often than folder paths — and a drive or one folder named as data (`C:\`, `C:\Windows\`).
 */
export function isWindowsPath(token: string): boolean {
  if (!token.includes('\\')) return false;
  if (UNC.test(token) || DOT_RELATIVE.test(token)) return true;
  const parts = token.split(/\\+/u).filter((p) => p !== '');
  const last = parts[parts.length - 1] ?? '';
  if (DRIVE.test(token)) return parts.length >= 3 || (parts.length === 2 && FILE_EXTENSION.test(last));
  if (!RELATIVE.test(token)) return false;
  if ((token.match(/\\\./gu) ?? []).length >= 2) return false; // escaped dots: a regular expression
  return FILE_EXTENSION.test(last);
}

/**
 * Where a Windows-style path (isWindowsPath) leads: `'home'` for a drive path in a person's home
 * (`C:\Users\ann\x.md`, a path of the author's machine), the first part, lower case, of a path
 * relative to the file (`scripts` for `scripts\run.py` and `.\scripts\run.py`), or null for
 * anything else — Windows' own places (`C:\Windows\…`, `C:\boot.ini`, `\\server\share`), rooted
 * paths, the homes of generic users (`C:\Users\User\…`) and paths that climb out (`..\x`),
 * which are Windows data, not the skill's files.
 */
export function windowsPathStart(token: string): string | null {
  const parts = token.split(/\\+/u);
  if (/^[A-Za-z]:$/u.test(parts[0]!)) return isDriveHome(token) ? 'home' : null;
  if (parts[0] === '.') parts.shift();
  const first = parts[0]!;
  return first === '' || first === '..' ? null : first.toLowerCase();
}

// as the systems write them: `/home` (Linux), `/Users` (macOS, WSL's `/mnt/c/Users`); `/users/0/name` is a JSON pointer
const HOME_PATH = new RegExp(String.raw`^(?:/mnt/[a-z])?/(?:home|Users)/(${SEG})(?:/${SEG})+/?$`, 'u');
const DRIVE_SLASH_PATH = new RegExp(String.raw`^[A-Za-z]:/(?:${SEG}(?:/${SEG})*/?)?$`, 'u');
/**
 * Home directories that are the same on every machine of their kind, or stand for "yours": the
 * default users of containers, CI runners, cloud images and notebooks, and placeholders.
 */
const GENERIC_HOMES = new Set([
  'user',
  'username',
  'your-user',
  'youruser',
  'your-username',
  'yourname',
  'your-name',
  'myname',
  'my-name',
  'myuser',
  'name',
  'me',
  'you',
  'someone',
  'vscode',
  'node',
  'ubuntu',
  'debian',
  'runner',
  'ec2-user',
  'jovyan',
  'app',
  'coder',
  'codespace',
  'gitpod',
  'dev',
  'developer',
  'admin',
  'docker',
  'www-data',
  'circleci',
  'vagrant',
  'pi',
  'linuxbrew',
  // the sandbox of claude.ai's code execution, the same in every session
  'claude',
]);

/**
 * Whether a prose token is an absolute path that can only exist on one machine: a path inside a
 * person's home directory (`/home/ann/…`, `/Users/ann/…`, WSL's `/mnt/c/Users/ann/…`, `C:/Users/ann/…`),
 * or a `file:` URL of an absolute path (`file:///x`, `file:///C:/x`).
 * Not: the homes of generic users (`/home/vscode/…`, `/home/user/…`; GENERIC_HOMES), the root
 * user's `/root/…`, slash commands (`/loop`), API routes (`/api/v1/users`), system paths
 * (`/etc/hosts`, `/tmp/out`), or the scheme alone (`file://`, `file://.`).
 */
export function isMachineAbsolutePath(token: string): boolean {
  const home = HOME_PATH.exec(token);
  if (home) return isPersonalHome(home[1]!);
  // a drive path in a person's home (`C:/Users/ann/…`); `C:/Projects/foo` or `C:/tools/x` may be any machine's
  if (DRIVE_SLASH_PATH.test(token)) return isDriveHome(token);
  // a file URL of a machine-specific path (`file:///Users/ann/x`, `file:///C:/x`), not of any path
  const url = /^file:\/\/(\/.+)$/iu.exec(token);
  if (!url) return false;
  const path = url[1]!.replace(/^\/([A-Za-z]:\/)/u, '$1');
  return path !== url[1] ? DRIVE_SLASH_PATH.test(path) : isMachineAbsolutePath(decodePath(path));
}

/** `C:/Users/<name>/…` (or with backslashes) for a person's name: not a generic or placeholder user. */
function isDriveHome(token: string): boolean {
  const parts = token.split(/[\\/]+/u);
  const name = parts[2];
  return /^[A-Za-z]:$/u.test(parts[0]!) && parts[1]?.toLowerCase() === 'users' && name !== undefined && isPersonalHome(name);
}

/** Whether a home directory's name is a person's: it starts with a letter (`/Users/0/name` is data) and is not a generic user's. */
function isPersonalHome(name: string): boolean {
  return /^[A-Za-z_]/u.test(name) && !GENERIC_HOMES.has(name.toLowerCase());
}

/** First folders of absolute paths that are file-system places on Linux, macOS or WSL, not site paths. */
const FS_ROOTS = new Set(
  'bin boot dev etc home lib lib64 media mnt opt private proc root run sbin srv sys tmp usr var Users Volumes Library System Applications'.split(
    ' ',
  ),
);

/**
 * Whether a link/image/definition destination is an absolute file-system path: a `file:` URL, a
 * drive path (`C:\x`, `C:/x`), or `/x` that names a file (`/docs/guide.md`, `/img/a.png`) or a
 * place of the file system (`/etc/hosts`, `/home/ann/x`). Not: the protocol-relative `//host/x`, a
 * plugin's slash command (`/plugin:skill`), or a site path (`/features/analytics`, `/api/v1/users`),
 * which a skill about a website links as an example.
 */
export function isAbsoluteDestination(url: string): boolean {
  if (/^file:/iu.test(url) || /^[A-Za-z]:[\\/]/u.test(url)) return true;
  if (!/^\/(?!\/)/u.test(url)) return false;
  const path = url.replace(/[?#].*$/u, '');
  const parts = path.split('/').filter((p) => p !== '');
  if (parts.length === 0) return false;
  return FS_ROOTS.has(parts[0]!) || FILE_EXTENSION.test(parts[parts.length - 1]!);
}

/** Percent-decoding that never throws (a malformed escape is kept as written). */
export function decodePath(target: string): string {
  try {
    return decodeURI(target);
  } catch {
    return target;
  }
}

/**
 * A relative link target as a normalised relative path: percent escapes decoded, `\` read as `/`,
 * `./` and `a/../` removed (`./refs/a.md` → `refs/a.md`).
 */
export function normaliseTarget(target: string): string {
  const n = posix.normalize(decodePath(target).replace(/\\/gu, '/'));
  return n === '.' ? '' : n.replace(/^\.\//u, '');
}

/**
 * How many directory levels a relative link target goes down (`a.md` 0, `./refs/a.md` 1,
 * `a/b/c.md` 2). Leading `../` steps go up, not down: `../sibling/a.md` is one level.
 */
export function directoryLevels(target: string): number {
  return (
    normaliseTarget(target)
      .replace(/^(?:\.\.\/)+/u, '')
      .split('/').length - 1
  );
}

/** The project-relative path a link target in the file `from` (project-relative) points at. */
export function resolveTarget(from: string, target: string): string {
  return posix.normalize(posix.join(posix.dirname(from), decodePath(target).replace(/\\/gu, '/')));
}

/**
 * The local destinations of a markdown text's inline links and link definitions, read from the
 * text without parsing it (`[guide](USING.md#setup)`, `[ref]: docs/a.md`): relative paths, normalised
 * (normaliseTarget), without `#anchor` or `?query`; URLs, absolute paths and anchors alone are left
 * out. A link written inside a code block is read too: for a quick look at a file that is not
 * otherwise parsed (a README for people).
 */
export function markdownLinkDestinations(text: string): string[] {
  const out = new Set<string>();
  const add = (url: string) => {
    const path = url.replace(/[?#].*$/u, '');
    if (path === '' || /^[a-z][a-z0-9+.-]*:/iu.test(path) || /^[/\\~]/u.test(path)) return;
    const n = normaliseTarget(path);
    if (n !== '' && !n.startsWith('../')) out.add(n);
  };
  for (const m of text.matchAll(/\]\(\s*(?:<([^>\n]*)>|([^)\s]+))/gu)) add(m[1] ?? m[2] ?? '');
  for (const m of text.matchAll(/^ {0,3}\[[^\]\n]+\]:\s*(?:<([^>\n]*)>|(\S+))/gmu)) add(m[1] ?? m[2] ?? '');
  return [...out];
}
