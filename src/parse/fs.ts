/** File reading for the parse layer: bounded, UTF-8 checked, never throws. */
import { readdirSync, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import type { DirEntry } from '../model/types.js';
import { decodeUtf8 } from '../util/text.js';

/** Files larger than this are not read (a skill document is never this big). */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;

export type ReadResult = { text: string } | { error: string; missing?: boolean };

export function readText(abs: string): ReadResult {
  let st;
  try {
    st = statSync(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { error: code === 'ENOENT' ? 'No such file' : (e as Error).message, missing: code === 'ENOENT' || code === 'ENOTDIR' };
  }
  if (st.isDirectory()) return { error: 'Is a directory' };
  if (!st.isFile()) return { error: 'Not a regular file' };
  if (st.size > MAX_FILE_BYTES) return { error: `File is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB` };
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return { error: err.code === 'EACCES' ? 'Permission denied' : err.message };
  }
  const text = decodeUtf8(bytes);
  if (text === null) return { error: 'File is not valid UTF-8 text' };
  return acceptText(text, bytes.length);
}

/** A file's text as a file of that text is read (an editor's buffer, a fix not written yet): refused past the same bounds. */
export function acceptText(text: string, bytes = Buffer.byteLength(text)): ReadResult {
  if (bytes > MAX_FILE_BYTES) return { error: `File is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB` };
  if (text.includes('\u0000')) return { error: 'File is binary (contains NUL bytes)' };
  return { text };
}

/** A path's stat (symlinks followed), or null when it cannot be had. */
export function fileStat(abs: string): Stats | null {
  try {
    return statSync(abs);
  } catch {
    return null;
  }
}

export function exists(abs: string): boolean {
  try {
    statSync(abs);
    return true;
  } catch {
    return false;
  }
}

export function isDirectory(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

/** Directories listed during one read of a project (listDir's entries; null: could not be listed), each read once. */
export type DirEntries = Map<string, DirEntry[] | null>;

/**
 * Directory entries sorted by name (byte order); symlinks resolved only when they stay inside
 * `root`. With `seen`, a directory listed before in the same read is not read again.
 */
export function listDir(abs: string, root: string, seen?: DirEntries): DirEntry[] {
  const known = seen?.get(abs);
  if (known !== undefined) return known ?? [];
  let dirents;
  try {
    dirents = readdirSync(abs, { withFileTypes: true });
  } catch {
    seen?.set(abs, null);
    return [];
  }
  const out: DirEntry[] = [];
  for (const d of dirents) {
    let kind: DirEntry['kind'] = d.isDirectory() ? 'dir' : d.isFile() ? 'file' : 'other';
    if (d.isSymbolicLink()) {
      const target = insideRoot(`${abs}${sep}${d.name}`, root);
      kind = target === null ? 'other' : isDirectory(target) ? 'dir' : 'file';
    }
    out.push({ name: d.name, kind });
  }
  out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  seen?.set(abs, out);
  return out;
}

/** Whether a path segment is a glob pattern (`*.md`, `ch?.md`, `[ab].md`). */
export function isGlobSegment(segment: string): boolean {
  return /[*?[]/u.test(segment);
}

function segmentPattern(segment: string): RegExp {
  const body = segment
    .replace(/[.+^${}()|\\]/gu, '\\$&')
    .replace(/\*/gu, '[^/]*')
    .replace(/\?/gu, '[^/]');
  try {
    return new RegExp(`^${body}$`, 'u');
  } catch {
    // an unclosed `[`: a literal bracket
    return new RegExp(`^${body.replace(/[[\]]/gu, '\\$&')}$`, 'u');
  }
}

/**
 * Whether anything in the project matches a project-relative glob (`references/concepts/*.md`,
 * `docs/**\/x.md`): `*` and `?` within a segment, `**` for any folders (at most 6 levels).
 */
export function globMatches(root: string, pattern: string): boolean {
  const walk = (dir: string, segments: readonly string[], depth: number): boolean => {
    if (segments.length === 0) return true;
    const [head, ...rest] = segments as [string, ...string[]];
    if (head === '**') {
      if (walk(dir, rest, depth)) return true;
      if (depth >= 6) return false;
      return listDir(dir, root).some((e) => e.kind === 'dir' && walk(`${dir}${sep}${e.name}`, segments, depth + 1));
    }
    if (!isGlobSegment(head)) {
      const next = `${dir}${sep}${head}`;
      return rest.length === 0 ? exists(next) : isDirectory(next) && walk(next, rest, depth);
    }
    const re = segmentPattern(head);
    return listDir(dir, root).some(
      (e) => re.test(e.name) && (rest.length === 0 || (e.kind === 'dir' && walk(`${dir}${sep}${e.name}`, rest, depth))),
    );
  };
  const segments = pattern.split('/').filter((p) => p !== '' && p !== '.');
  return !segments.includes('..') && walk(root, segments, 0);
}

/**
 * Markdown files (`.md`, any case) in a directory and its sub-directories down to `depth` levels,
 * as paths relative to it (`notes.md`, `references/schemas.md`), sorted; never `node_modules` or
 * `.git`, and sub-directories only through links that stay inside `root`.
 */
export function markdownFilesUnder(abs: string, root: string, depth: number, seen?: DirEntries): string[] {
  const out: string[] = [];
  const walk = (dir: string, prefix: string, left: number) => {
    for (const e of listDir(dir, root, seen)) {
      if (e.kind === 'file' && /\.md$/iu.test(e.name)) out.push(prefix + e.name);
      else if (e.kind === 'dir' && left > 0 && e.name !== 'node_modules' && e.name !== '.git')
        walk(`${dir}${sep}${e.name}`, `${prefix}${e.name}/`, left - 1);
    }
  };
  walk(abs, '', depth);
  return out.sort();
}

/**
 * Real paths of the directories asked about more than once (the project root for every directory
 * discovery checks, a skill's folder for each of its links); null for a path that does not resolve.
 */
const realPaths = new Map<string, string | null>();

function cachedRealPath(abs: string): string | null {
  let real = realPaths.get(abs);
  if (real === undefined) {
    try {
      real = realpathSync(abs);
    } catch {
      real = null;
    }
    realPaths.set(abs, real);
  }
  return real;
}

/**
 * Whether `rel` exists when resolved from the real place of the directory `absDir` — different
 * from its written place when a folder on the way is a symlink (`.claude/skills/x -> ../../x`).
 * False when the directory is its own real place (the caller resolved it there already).
 */
export function existsFromRealPlace(absDir: string, rel: string): boolean {
  const real = cachedRealPath(absDir);
  return real !== null && real !== resolve(absDir) && exists(resolve(real, rel));
}

/** The real path of `abs` when it lies inside the real `root`, else null. */
export function insideRoot(abs: string, root: string): string | null {
  try {
    const real = realpathSync(abs);
    const realRoot = cachedRealPath(root);
    if (realRoot === null) return null;
    const rel = relative(realRoot, real);
    if (rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel))) return real;
    return null;
  } catch {
    return null;
  }
}

/** Directory listings of one project load (absolute directory → its entries' names by lower case; null when it cannot be listed). */
export type Listings = Map<string, Map<string, string[]> | null>;

function listing(abs: string, listings: Listings, seen?: DirEntries): Map<string, string[]> | null {
  let names = listings.get(abs);
  if (names === undefined) {
    try {
      names = new Map();
      const entries = seen?.get(abs);
      if (entries === null) throw new Error('not listed');
      for (const name of entries ? entries.map((e) => e.name) : readdirSync(abs).sort()) {
        const lower = name.toLowerCase();
        names.set(lower, [...(names.get(lower) ?? []), name]);
      }
    } catch {
      names = null;
    }
    listings.set(abs, names);
  }
  return names;
}

/**
 * The path `rel` (normalised, `/`-separated, relative to `root`) as the directory listings spell
 * it: `rel` itself when every part exists with exactly that name; the names on disk when a part
 * exists only in another case (`references/Security.md` → `references/security.md`: found on macOS
 * and Windows, missing on Linux); null when a part does not exist in any case. The names are
 * compared with the listing, not asked of the file system, which ignores case on macOS and Windows.
 * A directory that cannot be listed is asked of the file system for the rest of the path. Listings
 * of the same read (`seen`) are not read again.
 */
export function pathOnDisk(root: string, rel: string, listings: Listings, seen?: DirEntries): string | null {
  let dir = resolve(root);
  const out: string[] = [];
  const parts = rel.split('/').filter((p) => p !== '' && p !== '.');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part === '..') {
      dir = resolve(dir, '..');
      out.push(part);
      continue;
    }
    const names = listing(dir, listings, seen);
    if (names === null) return exists(resolve(dir, ...parts.slice(i))) ? rel : null;
    const same = names.get(part.toLowerCase());
    if (same === undefined) return null;
    const name = same.includes(part) ? part : same[0]!;
    out.push(name);
    dir = resolve(dir, name);
  }
  // a folder written with its final slash (`references/`) keeps it
  return out.join('/') + (rel.endsWith('/') && out.length > 0 ? '/' : '');
}
