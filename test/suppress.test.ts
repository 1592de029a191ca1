import { describe, expect, it } from 'vitest';
import { isSuppressed, suppressedRanges } from '../src/engine/suppress.js';
import type { Diagnostic } from '../src/engine/diagnostic.js';
import { sourceFile } from '../src/parse/markdown.js';
import { collectSuppressions } from '../src/parse/suppressions.js';

const comments = (text: string) => collectSuppressions(text, sourceFile('SKILL.md', text, true).root);
const ranges = (text: string, canonical: (c: string) => string = (c) => c) =>
  suppressedRanges(comments(text), text.split('\n').length, canonical);
const diag = (code: string, line: number | null): Diagnostic => ({
  code,
  severity: 'warning',
  message: '',
  help: '',
  file: 'SKILL.md',
  line,
  column: line === null ? null : 1,
});

describe('suppression comments', () => {
  it('reads codes, reasons and positions; comments in code blocks are examples', () => {
    const text =
      '---\nname: a\n  # loopkit-disable-next-line skill-unknown-frontmatter-key -- tooling\nx: 1\n---\nText <!-- loopkit-disable-line a-b, c-d -- two codes -->\n\n```md\n<!-- loopkit-disable -->\n```\n\n<!--\nloopkit-disable-next-line\n-->\nline\n';
    expect(comments(text)).toEqual([
      { verb: 'disable-next-line', codes: ['skill-unknown-frontmatter-key'], reason: 'tooling', line: 3, endLine: 3, column: 3 },
      { verb: 'disable-line', codes: ['a-b', 'c-d'], reason: 'two codes', line: 6, endLine: 6, column: 6 },
      { verb: 'disable-next-line', codes: [], reason: '', line: 12, endLine: 14, column: 1 },
    ]);
    expect(ranges(text)).toEqual([
      { codes: ['skill-unknown-frontmatter-key'], fromLine: 4, toLine: 4 },
      { codes: ['a-b', 'c-d'], fromLine: 6, toLine: 6 },
      { codes: [], fromLine: 15, toLine: 15 },
    ]);
  });

  it('ranges close at a matching enable (aliases resolved) or at the end of the file', () => {
    const text =
      '<!-- loopkit-disable old-name -->\na\n<!-- loopkit-enable new-name -->\n<!-- loopkit-disable x-y -->\nb\n<!-- loopkit-enable other -->\nc\n';
    const canonical = (c: string) => (c === 'old-name' ? 'new-name' : c);
    expect(ranges(text, canonical)).toEqual([
      { codes: ['new-name'], fromLine: 1, toLine: 3 },
      { codes: ['x-y'], fromLine: 4, toLine: 8 },
    ]);
  });

  it('an enable without codes closes every open range; a disable without codes covers every code', () => {
    const r = ranges('<!-- loopkit-disable -->\n<!-- loopkit-disable a-b -->\nx\n<!-- loopkit-enable -->\ny\n');
    expect(r).toEqual([
      { codes: ['a-b'], fromLine: 2, toLine: 4 },
      { codes: [], fromLine: 1, toLine: 4 },
    ]);
    const byFile = new Map([['SKILL.md', r]]);
    expect(isSuppressed(diag('any-code', 3), byFile)).toBe(true);
    expect(isSuppressed(diag('any-code', 5), byFile)).toBe(false);
    expect(isSuppressed(diag('any-code', null), byFile)).toBe(false);
  });

  it('words that only look like directives are ignored', () => {
    expect(comments('<!-- loopkit-disabled foo -->\n<!-- see loopkit-disable -->\n')).toEqual([]);
  });
});
