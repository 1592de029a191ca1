/**
 * The one gate of every path a server takes (src/parse/confine.ts): resolved a part at a time
 * inside the allowed roots, links followed by hand, nothing outside looked up; what is found must be
 * a regular file (or a folder, where asked) of a bounded size; names shown escaped.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdirSync, openSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectFor } from '../src/api/project.js';
import { confine, readFound, rootOf, shownPath, type Confined, type Root } from '../src/parse/confine.js';
import { insideRoot } from '../src/parse/fs.js';
import { climbsOut } from '../src/util/paths.js';
import { Temps } from './helpers/cli.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

/** base/{root/{a.txt, sub/deep/x.txt, …}, other/{b.txt}, secret.txt} */
function layout() {
  const base = temps.dir('loopkit-confine-');
  const root = join(base, 'root');
  const other = join(base, 'other');
  mkdirSync(join(root, 'sub', 'deep'), { recursive: true });
  mkdirSync(other);
  writeFileSync(join(root, 'a.txt'), 'a\n');
  writeFileSync(join(root, 'sub', 'x.txt'), 'sub x\n');
  writeFileSync(join(root, 'sub', 'deep', 'x.txt'), 'deep x\n');
  writeFileSync(join(other, 'b.txt'), 'b\n');
  writeFileSync(join(base, 'secret.txt'), 'secret\n');
  return { base, root, other, r: rootOf(root)!, o: rootOf(other)! };
}

const where = (c: Confined) => ('refused' in c ? { why: c.why, refused: c.refused } : { path: c.path });

describe('confine', () => {
  it('a path inside is found with its path relative to the root; one outside is refused without looking', () => {
    const { root, r, base } = layout();
    expect(where(confine('a.txt', [r]))).toEqual({ path: 'a.txt' });
    expect(where(confine(join(root, 'sub', 'x.txt'), [r]))).toEqual({ path: 'sub/x.txt' });
    expect(where(confine('sub/deep/../x.txt', [r]))).toEqual({ path: 'sub/x.txt' });
    expect(where(confine('../secret.txt', [r]))).toEqual({ why: 'outside', refused: 'it is outside the project' });
    expect(where(confine(join(base, 'secret.txt'), [r]))).toMatchObject({ why: 'outside' });
    expect(where(confine('/etc/passwd', [r]))).toMatchObject({ why: 'outside' });
    expect(where(confine('nothing.txt', [r]))).toEqual({ why: 'missing', refused: 'No such file' });
    expect(where(confine('a.txt/x', [r]))).toMatchObject({ why: 'missing' });
    expect(where(confine('a\u0000.txt', [r]))).toMatchObject({ why: 'missing', refused: 'it is not a path (it holds a NUL character)' });
    expect(where(confine('a.txt', []))).toMatchObject({ why: 'outside' });
  });

  it('links: followed while they stay inside (relative, absolute, back in from above, into another root); refused when they lead out', () => {
    const { root, base, other, r, o } = layout();
    symlinkSync('sub/deep', join(root, 'deeplink'));
    symlinkSync(join(root, 'a.txt'), join(root, 'abs-in'));
    symlinkSync('../root/a.txt', join(root, 'out-and-back'));
    symlinkSync('../secret.txt', join(root, 'out'));
    symlinkSync(join(base, 'secret.txt'), join(root, 'abs-out'));
    symlinkSync('..', join(root, 'up'));
    symlinkSync(join(other, 'b.txt'), join(root, 'to-other'));
    symlinkSync('out', join(root, 'out-chain'));
    expect(where(confine('deeplink/x.txt', [r]))).toEqual({ path: 'sub/deep/x.txt' });
    // the path as given is a path (`deeplink/..` is the root: no file x.txt there); in a link's target `..` after a link
    // is the parent of where that link leads (deeplink/.. is sub), as the system resolves it
    expect(where(confine('deeplink/../x.txt', [r]))).toMatchObject({ why: 'missing' });
    symlinkSync('deeplink/../x.txt', join(root, 'physical'));
    expect(where(confine('physical', [r]))).toEqual({ path: 'sub/x.txt' });
    expect(where(confine('abs-in', [r]))).toEqual({ path: 'a.txt' });
    expect(where(confine('out-and-back', [r]))).toEqual({ path: 'a.txt' });
    const out = { why: 'outside', refused: 'it is a symbolic link that leads outside the project' };
    for (const p of ['out', 'abs-out', 'up/secret.txt', 'out-chain', 'to-other']) expect(where(confine(p, [r])), p).toEqual(out);
    // a root the client declared: a link into it is followed
    const found = confine('to-other', [r, o]);
    expect(where(found)).toEqual({ path: 'b.txt' });
    expect('refused' in found ? null : found.root).toBe(o);
  });

  it('a link loop, a dangling link, a FIFO, a directory, a large file: each refused for what it is', () => {
    const { root, r } = layout();
    symlinkSync('loop-b', join(root, 'loop-a'));
    symlinkSync('loop-a', join(root, 'loop-b'));
    symlinkSync('gone.txt', join(root, 'dangling'));
    expect(spawnSync('mkfifo', [join(root, 'fifo')]).status).toBe(0);
    const fd = openSync(join(root, 'big'), 'w');
    ftruncateSync(fd, 9 * 1024 * 1024);
    closeSync(fd);
    expect(where(confine('loop-a', [r]))).toEqual({ why: 'loop', refused: 'it is a symbolic link loop' });
    expect(where(confine('dangling', [r]))).toMatchObject({ why: 'missing' });
    expect(where(confine('fifo', [r]))).toEqual({ why: 'type', refused: 'Not a regular file (a FIFO)' });
    expect(where(confine('sub', [r]))).toEqual({ why: 'type', refused: 'Is a directory' });
    expect(where(confine('sub', [r], { directories: true }))).toEqual({ path: 'sub' });
    expect(where(confine('big', [r]))).toEqual({ why: 'size', refused: 'File is 9 MiB; loopkit reads files up to 8 MiB' });
    expect(where(confine('big', [r], { limit: Number.MAX_SAFE_INTEGER }))).toEqual({ path: 'big' });
  });

  it("the system's places are never read, whatever the roots", () => {
    const all: Root[] = [rootOf('/')!];
    expect(where(confine('/proc/self/environ', all))).toMatchObject({ why: 'system' });
    expect(where(confine('/dev/zero', all, { limit: Number.MAX_SAFE_INTEGER }))).toMatchObject({ why: 'system' });
  });

  it('reads what it found as text: UTF-8, without NUL bytes', () => {
    const { root, r } = layout();
    writeFileSync(join(root, 'nul.txt'), 'a\u0000b');
    writeFileSync(join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    const text = (p: string) => {
      const found = confine(p, [r]);
      if ('refused' in found) throw new Error(found.refused);
      const read = readFound(found);
      return 'text' in read ? read.text : read.refused;
    };
    expect(text('a.txt')).toBe('a\n');
    expect(text('nul.txt')).toBe('File is binary (contains NUL bytes)');
    expect(text('latin1.txt')).toBe('File is not valid UTF-8 text');
  });

  it('a name is shown with its control characters, bidi overrides and line separators escaped, cut when long', () => {
    expect(shownPath('a\u001b[2J\nb\u202ec\u2028d\te')).toBe('a\\u001b[2J\\nb\\u202ec\\u2028d\\te');
    expect(shownPath('x'.repeat(300))).toBe(`${'x'.repeat(200)}…`);
  });
});

describe('a name that only starts with two dots is inside (`..notes.md`), `..` and `../x` lead out', () => {
  it('climbsOut, insideRoot and projectFor', () => {
    expect(['..', '../x', `..${sep}x`, '..notes.md', '..d/x.md', '.', 'a/..b', ''].map(climbsOut)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
    const { base, root } = layout();
    writeFileSync(join(root, '..notes.md'), 'notes\n');
    mkdirSync(join(root, '..drafts'));
    writeFileSync(join(root, '..drafts', 'x.md'), 'x\n');
    writeFileSync(join(base, '..above.md'), 'above\n');
    expect(insideRoot(join(root, '..notes.md'), root)).toBe(join(realpathSync(root), '..notes.md'));
    expect(insideRoot(join(root, '..drafts', 'x.md'), root)).toBe(join(realpathSync(root), '..drafts', 'x.md'));
    expect(insideRoot(join(base, '..above.md'), root)).toBeNull();
    expect(insideRoot(join(base, 'secret.txt'), root)).toBeNull();
    // the project of a file given alone: the folder with a .loopkit.yaml above it; outside the working directory, `.`
    writeFileSync(join(root, '.loopkit.yaml'), 'skills_dir: skills\n');
    writeFileSync(join(root, '..drafts', '.loopkit.yaml'), 'skills_dir: skills\n');
    expect(projectFor('..drafts/x.md', undefined, root)).toBe('..drafts');
    expect(projectFor('root/..drafts/x.md', undefined, base)).toBe('root/..drafts');
    expect(projectFor('root/a.txt', undefined, base)).toBe('root');
    expect(projectFor('../..above.md', undefined, root)).toBe('.');
  });
});
