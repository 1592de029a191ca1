/** File reading for the parse layer: bounded, UTF-8 checked, never throws, never blocks on a FIFO or device. */
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import type { DirEntry } from '../model/types.js';
import { climbsOut } from '../util/paths.js';
import { decodeUtf8 } from '../util/text.js';

/** Files larger than this are not read (a skill document is never this big). */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;

export type ReadResult = { text: string } | { error: string; missing?: boolean };

/** Why a path that exists is not read as a file: a directory, a FIFO, a socket, a device; null for a regular file. */
export function notAFile(st: Stats): string | null {
  if (st.isFile()) return null;
  if (st.isDirectory()) return 'Is a directory';
  const kind = st.isFIFO() ? 'a FIFO' : st.isSocket() ? 'a socket' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : null;
  return kind === null ? 'Not a regular file' : `Not a regular file (${kind})`;
}

/** A size as people read it (`1.0 GiB`, `12 MiB`, `300 KiB`). */
export function sizeText(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  return u === 0 ? `${n} bytes` : `${n < 10 && !Number.isInteger(n) ? n.toFixed(1) : Math.round(n)} ${units[u]}`;
}

const tooLarge = (size: number, limit: number) => `File is larger than ${sizeText(limit)} (${sizeText(size)})`;

// opened without waiting (a FIFO swapped in after the type was checked does not block) and, where the system
// can, without following a link in the last part of the path (one swapped in is refused, not followed)
const O_READ = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * The bytes of a regular file, at most `limit` of them: its type and size checked before it is opened
 * and again on the open file (a file replaced meanwhile by a FIFO, a device or a larger file is refused).
 * `st` is what the caller already knows of the path (its stat, links followed).
 */
export function readFileBytes(abs: string, st: Stats, limit = MAX_FILE_BYTES, flags = 0): { bytes: Buffer } | { error: string } {
  const kind = notAFile(st);
  if (kind !== null) return { error: kind };
  if (st.size > limit) return { error: tooLarge(st.size, limit) };
  let fd: number;
  try {
    fd = openSync(abs, O_READ | flags);
  } catch (e) {
    return { error: errnoText(e as NodeJS.ErrnoException) };
  }
  try {
    const now = fstatSync(fd);
    const changed = notAFile(now);
    if (changed !== null) return { error: changed };
    if (now.size > limit) return { error: tooLarge(now.size, limit) };
    // up to one byte more than the limit: a file that grew past it since its size was read is refused too
    const chunks: Buffer[] = [];
    let length = 0;
    for (let want = Math.min(limit + 1, now.size + 1); want > 0; want = Math.min(limit + 1 - length, 64 * 1024)) {
      const buf = Buffer.allocUnsafe(want);
      let filled = 0;
      while (filled < want) {
        const n = readSync(fd, buf, filled, want - filled, length + filled);
        if (n === 0) break;
        filled += n;
      }
      chunks.push(filled === want ? buf : buf.subarray(0, filled));
      length += filled;
      // a read that stops short is the end of the file
      if (filled < want) break;
    }
    if (length > limit) return { error: tooLarge(length, limit) };
    return { bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length) };
  } catch (e) {
    return { error: errnoText(e as NodeJS.ErrnoException) };
  } finally {
    closeSync(fd);
  }
}

/** An operating system error as a reason that names no path (the caller names it as it was given). */
export function errnoText(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return 'No such file';
    case 'EACCES':
    case 'EPERM':
      return 'Permission denied';
    case 'ELOOP':
      return 'Is a symbolic link loop';
    case 'EISDIR':
      return 'Is a directory';
    case 'ENAMETOOLONG':
      return 'The name is too long';
    case 'ENXIO':
    case 'ENODEV':
      return 'Not a regular file';
    case 'EAGAIN':
      return 'Not a regular file (it would block)';
    default:
      return e.code ? `Cannot be read (${e.code})` : 'Cannot be read';
  }
}

/** Why a file is not read when it is a link that leads out of the project or to nothing (one message for both: which one would tell whether a path outside exists). */
export const LINK_OUT = 'Is a symbolic link that leads outside the project (or nowhere)';

/** A path's own stat (a link is not followed), or null when it cannot be had. */
export function linkStat(abs: string): Stats | null {
  try {
    return lstatSync(abs);
  } catch {
    return null;
  }
}

/**
 * A file's text. With `root`, a path that is a symbolic link is read only when it resolves inside
 * the real `root` (the folders on the way are the caller's to have reached inside it); with `whole`
 * too, every part of the path is resolved and must stay inside.
 */
export function readText(abs: string, root?: string, whole = false): ReadResult {
  let st;
  try {
    st = lstatSync(abs);
    if (root !== undefined && (whole || st.isSymbolicLink()) && insideRoot(abs, root) === null) {
      return { error: LINK_OUT };
    }
    if (st.isSymbolicLink()) st = statSync(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { error: errnoText(e as NodeJS.ErrnoException), missing: code === 'ENOENT' || code === 'ENOTDIR' };
  }
  const read = readFileBytes(abs, st);
  if ('error' in read) return read;
  const text = decodeUtf8(read.bytes);
  if (text === null) return { error: 'File is not valid UTF-8 text' };
  return acceptText(text, read.bytes.length);
}

/** A file's text as a file of that text is read (an editor's buffer, a fix not written yet): refused past the same bounds. */
export function acceptText(text: string, bytes = Buffer.byteLength(text)): ReadResult {
  if (bytes > MAX_FILE_BYTES) return { error: tooLarge(bytes, MAX_FILE_BYTES) };
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
    if (rel === '' || (!climbsOut(rel) && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel))) return real;
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
  // the root itself (`.`, `./`): there, as written
  if (parts.length === 0) return rel;
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
