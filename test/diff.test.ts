/**
 * The unified diff of --fix-dry-run (src/util/diff.ts, from the `diff` package): the format git
 * prints, and a patch `git apply` turns into the fixed text — for generated texts, line endings
 * CRLF and LF, with and without a final line break.
 */
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unifiedDiff } from '../src/util/diff.js';
import { Temps } from './helpers/cli.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

describe('unifiedDiff', () => {
  it('prints git’s headers and hunks with three lines of context', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const after = 'a\nb\nc\nd\nE\nf\ng\nh\n';
    expect(unifiedDiff(before, after, 'skills/x/SKILL.md')).toBe(
      '--- a/skills/x/SKILL.md\n+++ b/skills/x/SKILL.md\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n',
    );
    expect(unifiedDiff('x', 'y', '/abs/SKILL.md').split('\n').slice(0, 2)).toEqual(['--- /abs/SKILL.md', '+++ /abs/SKILL.md']);
    expect(unifiedDiff(before, before, 'f.md')).toBe('');
  });

  it('marks a last line without a line break', () => {
    expect(unifiedDiff('a\nb', 'a\nc', 'f.md')).toBe(
      '--- a/f.md\n+++ b/f.md\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n',
    );
  });

  it('is a patch git applies, for any two texts (CRLF kept as it is)', () => {
    const line = fc.constantFrom('name: x\n', 'Read\n', 'Edit\r\n', '\n', '## Rules\n', 'last');
    const text = fc.array(line, { maxLength: 12 }).map((l) => l.join(''));
    const dir = temps.dir();
    spawnSync('git', ['init', '-q'], { cwd: dir });
    fc.assert(
      fc.property(text, text, (before, after) => {
        fc.pre(before !== after);
        writeFileSync(join(dir, 'f.md'), before);
        writeFileSync(join(dir, 'fix.patch'), unifiedDiff(before, after, 'f.md'));
        const apply = spawnSync('git', ['apply', '--whitespace=nowarn', 'fix.patch'], { cwd: dir, encoding: 'utf8' });
        expect(apply.stderr).toBe('');
        expect(readFileSync(join(dir, 'f.md'), 'utf8')).toBe(after);
      }),
      { numRuns: 40, seed: 20261125 },
    );
  });
});
