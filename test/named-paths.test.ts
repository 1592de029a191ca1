/**
 * Named files: the relative paths SKILL.md names in prose and inline code (parse/named-paths.ts),
 * and how the engine finds them on disk — by the names of the directory listings, so a name in
 * another case is told apart from a missing one on every file system (parse/fs.ts pathOnDisk).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pathOnDisk, type Listings } from '../src/parse/fs.js';
import { sourceFile } from '../src/parse/markdown.js';
import { namedPaths } from '../src/parse/named-paths.js';
import { Temps } from './helpers/cli.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

const named = (text: string) => namedPaths(sourceFile('skills/x/SKILL.md', text, true)).map((n) => n.path);

describe('namedPaths', () => {
  it('reads relative file paths from prose and inline code, with where they are written', () => {
    const text =
      'Read references/forms.md, then run `python ./scripts/fill.py in.pdf`.\nLimits are in `scripts/fill.py:12`; the logo is `${CLAUDE_SKILL_DIR}/assets/logo.png` or {baseDir}/assets/logo.svg.\n';
    expect(named(text)).toEqual([
      'references/forms.md',
      'scripts/fill.py',
      'in.pdf',
      'scripts/fill.py',
      'assets/logo.png',
      'assets/logo.svg',
    ]);
    const [first, second] = namedPaths(sourceFile('SKILL.md', text, true));
    expect([first!.line, first!.column, first!.code]).toEqual([1, 6, false]);
    expect([second!.line, second!.column, second!.code]).toEqual([1, 46, true]);
  });

  it('does not read absolute, home, climbing or URL paths, names without an extension, link text or code blocks', () => {
    const text = [
      'See /etc/hosts.conf, ~/notes/a.md, ../shared/b.md, https://example.com/c.md and C:/tools/d.md.',
      'The `references/` folder and v1.2 and .env are no files; [references/e.md](references/e.md) is a link.',
      '',
      '```bash',
      'python scripts/in-a-code-block.py',
      '```',
    ].join('\n');
    expect(named(text)).toEqual([]);
  });
});

describe('pathOnDisk', () => {
  const dir = temps.dir();
  mkdirSync(join(dir, 'skills', 'x', 'references'), { recursive: true });
  writeFileSync(join(dir, 'skills', 'x', 'references', 'security.md'), '# Security\n');
  writeFileSync(join(dir, 'skills', 'x', 'SKILL.md'), '# x\n');

  it('gives the path itself when every name is as written', () => {
    expect(pathOnDisk(dir, 'skills/x/references/security.md', new Map())).toBe('skills/x/references/security.md');
    expect(pathOnDisk(dir, 'skills/x/references/../SKILL.md', new Map())).toBe('skills/x/references/../SKILL.md');
    expect(pathOnDisk(dir, 'skills/x/references/', new Map())).toBe('skills/x/references/');
  });

  it('gives the names on disk when a file or folder exists only in another case, on any file system', () => {
    expect(pathOnDisk(dir, 'skills/x/references/Security.md', new Map())).toBe('skills/x/references/security.md');
    expect(pathOnDisk(dir, 'skills/x/References/security.md', new Map())).toBe('skills/x/references/security.md');
  });

  it('gives null for a path that does not exist in any case, and lists each directory once', () => {
    const listings: Listings = new Map();
    expect(pathOnDisk(dir, 'skills/x/references/missing.md', listings)).toBeNull();
    expect(pathOnDisk(dir, 'skills/y/SKILL.md', listings)).toBeNull();
    expect([...listings.keys()].map((k) => k.slice(dir.length)).sort()).toEqual(['', '/skills', '/skills/x', '/skills/x/references']);
  });
});
