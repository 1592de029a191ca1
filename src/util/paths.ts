/**
 * Recognising file paths written in prose: Windows-style paths, machine-specific absolute paths,
 * absolute link destinations, and how many directory levels a relative link goes down.
 *
 * Prose is split into path-like tokens (letters, digits, `_ . $ ~ % @ -` plus the separators
 * `\ / :`); everything else (white space, quotes, brackets, `, ; | * = + ! ? # ^ &`…) ends a token.
 */
import { posix } from 'node:path';

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
 * Whether a token is a Windows-style path: a drive path (`C:\Users\me`, `C:\`), a UNC path
 * (`\\server\share`), a dot-relative path (`..\foo`, `.\run.ps1`), or a relative/rooted path whose
 * last part is a file name with an extension (`scripts\run.py`, `\temp\out.log`) or whose parts
 * all have two or more characters, at least three parts when relative (`src\utils\helpers`), two
 * when rooted (`\Windows\System32`). Escape sequences (`\n`, `\d+`, `\r\n`), regular expressions
 * (`a\.b\.c`) and a lone backslash are not paths.
 */
export function isWindowsPath(token: string): boolean {
  if (!token.includes('\\')) return false;
  if (DRIVE.test(token) || UNC.test(token) || DOT_RELATIVE.test(token)) return true;
  const m = RELATIVE.exec(token);
  if (!m) return false;
  if ((token.match(/\\\./gu) ?? []).length >= 2) return false; // escaped dots: a regular expression
  const parts = token.split(/\\+/u).filter((p) => p !== '');
  if (FILE_EXTENSION.test(parts[parts.length - 1]!)) return true;
  const rooted = m[1] !== undefined; // `\Windows\System32`, or `\server\share` after markdown unescaped `\\`
  return parts.length >= (rooted ? 2 : 3) && parts.every((p) => [...p].length >= 2);
}

const HOME_PATH = new RegExp(String.raw`^/(?:home|Users|root)(?:/${SEG})+/?$`, 'u');
const DRIVE_SLASH_PATH = new RegExp(String.raw`^[A-Za-z]:/(?:${SEG}(?:/${SEG})*/?)?$`, 'u');

/**
 * Whether a prose token is an absolute path that can only exist on one machine: a path inside a
 * home directory (`/home/ann/…`, `/Users/ann/…`, `/root/…`), a drive path with forward slashes
 * (`C:/tools/x`), or a `file:` URL. Slash commands (`/loop`), API routes (`/api/v1/users`) and
 * system paths (`/etc/hosts`, `/tmp/out`) are not reported in prose.
 */
export function isMachineAbsolutePath(token: string): boolean {
  return HOME_PATH.test(token) || DRIVE_SLASH_PATH.test(token) || /^file:\/./iu.test(token);
}

/**
 * Whether a link/image/definition destination is an absolute file-system path: `/x` (but not the
 * protocol-relative `//host/x`), a `file:` URL, or a drive path (`C:\x`, `C:/x`).
 */
export function isAbsoluteDestination(url: string): boolean {
  return /^\/(?!\/)/u.test(url) || /^file:/iu.test(url) || /^[A-Za-z]:[\\/]/u.test(url);
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
