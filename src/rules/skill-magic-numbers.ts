import { defineRule } from '../engine/rule.js';
import { codeBlocks, type CodeBlock } from './lib/code.js';

/** Characters of context (each side, inside the block) searched for a documentation word. */
const WINDOW = 50;

/** Identifier parts that say what a number is (`MAX_RETRIES`, `timeoutMs`, `--max-count`). */
const DOC_WORDS = new Set([
  'max',
  'maximum',
  'min',
  'minimum',
  'limit',
  'limits',
  'timeout',
  'timeouts',
  'retry',
  'retries',
  'threshold',
  'thresholds',
  'default',
  'defaults',
  'port',
]);

/** Blocks that show text, output, diagrams or data rather than program code. */
const NOT_CODE = new Set([
  'text',
  'txt',
  'plain',
  'plaintext',
  'output',
  'log',
  'logs',
  'console',
  'terminal',
  'shell-session',
  'markdown',
  'md',
  'mermaid',
  'dot',
  'csv',
  'tsv',
  // a block without a language is as often output, a transcript or an example report as code
  '',
  'json',
  'yaml',
  'yml',
  'toml',
  'xml',
  'html',
  'diff',
  'latex',
  'tex',
  'bibtex',
]);

const HTTP_STATUS = new Set([
  '100',
  '101',
  '200',
  '201',
  '202',
  '204',
  '206',
  '301',
  '302',
  '303',
  '304',
  '307',
  '308',
  '400',
  '401',
  '403',
  '404',
  '405',
  '406',
  '408',
  '409',
  '410',
  '412',
  '413',
  '415',
  '418',
  '422',
  '425',
  '429',
  '500',
  '501',
  '502',
  '503',
  '504',
]);

const NUMBER = /(?<![\p{L}\p{M}\p{N}_])\d{2,}(?![\p{L}\p{M}\p{N}_])/gu;
/** A comment on the line: `#` (not `#!`) or `//` at the start or after white space. */
const COMMENT = /(?:^|\s)(?:#(?!!)|\/\/|\/\*|<!--|\(\*|--\s)/u;
/** Languages whose comments start with `%`. */
const PERCENT_COMMENTS = new Set(['matlab', 'octave', 'm', 'erlang', 'prolog', 'postscript']);
/** `name = `, `name: `, `"name": `, `name := `, `--name `, `--name=`, `-n ` right before the number. */
const NAMED = /(?:[\p{L}_][\p{L}\p{N}_.-]+["']?\s*(?::=|=|:|<-)\s*[([{]?\s*|(?:--?[\p{L}][\p{L}\p{N}_-]*)[=\s]\s*)["']?$/u;
/** Inside a value's brackets after a name: `figsize=(15, 5)`, `width={120}`, `size=[3, 4]`. */
const IN_NAMED_BRACKETS = /[\p{L}\p{N}_]["']?\s*(?:=|:|<-)\s*[([{][^)\]}]*$/u;
/** An option given as a number: `head -20`, `comm -13`. */
const FLAG_NUMBER = /(?:^|\s)-$/u;
/** …and the number is a whole token (not the start of an expression like `10*x`). */
const WHOLE_VALUE = /^["']?(?:\s|[,;)}\]]|$)/u;
/** Part of a decimal, version, date, time, IP address, ratio or range (`1.24`, `2024-01-15`, `12:30`). */
const STRUCTURED_BEFORE = /(?:\d[.:/,-]|\.)$/u;
const STRUCTURED_AFTER = /^[.:/-]\d/u;
/** `host:8080`, `#123`, `utf-16`, `sha-256`. */
const ATTACHED_BEFORE = /(?:[\p{L}\p{N}_]:|#|\p{L}-|\+\+-?|[\p{L}\p{N}]\+)$/u;
const HTTP_CONTEXT = /status|https?|response|\bresp\b|\bres\b|\bcode\b/iu;

/**
 * The text within `WINDOW` characters each side of a match, widened to whole identifiers at both
 * edges (so `import` is never cut to `port`); a string index, so no multi-byte character is split.
 */
function around(text: string, start: number, end: number): string {
  const word = /[\p{L}\p{M}\p{N}_]/u;
  let from = Math.max(0, start - WINDOW);
  let to = Math.min(text.length, end + WINDOW);
  while (from > 0 && word.test(text[from - 1]!) && word.test(text[from]!)) from--;
  while (to < text.length && word.test(text[to - 1]!) && word.test(text[to]!)) to++;
  if (from > 0 && /[\uDC00-\uDFFF]/u.test(text[from]!)) from--;
  if (to < text.length && /[\uDC00-\uDFFF]/u.test(text[to]!)) to++;
  return text.slice(from, to);
}

/** Lower-cased identifier parts: `MAX_RETRIES` → max, retries; `timeoutMs` → timeout, ms. */
function identifierParts(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    for (const p of m[0].split(/(?<=\p{Ll})(?=\p{Lu})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u)) out.push(p.toLowerCase());
  }
  return out;
}

interface Magic {
  digits: string;
  line: number;
  column: number;
}

/** Is the end of `before` inside a string literal (an odd number of unescaped quotes of one kind)? */
function inString(before: string): boolean {
  for (const q of ['"', "'", '`']) {
    let n = 0;
    for (let i = before.indexOf(q); i !== -1; i = before.indexOf(q, i + 1)) if (before[i - 1] !== '\\') n++;
    if (n % 2 === 1) return true;
  }
  return false;
}

function magicNumbers(block: CodeBlock): Magic[] {
  const out: Magic[] = [];
  const value = block.lines.map((l) => l.text).join('\n');
  let lineStart = 0;
  for (const codeLine of block.lines) {
    const text = codeLine.text;
    const comment = COMMENT.test(text) || (PERCENT_COMMENTS.has(block.lang) && /(?:^|\s)%/u.test(text));
    for (const m of text.matchAll(NUMBER)) {
      const digits = m[0];
      const at = m.index;
      const before = text.slice(0, at);
      const after = text.slice(at + digits.length);
      if (comment) continue;
      if (STRUCTURED_BEFORE.test(before) || STRUCTURED_AFTER.test(after) || ATTACHED_BEFORE.test(before)) continue;
      if (NAMED.test(before) && WHOLE_VALUE.test(after)) continue;
      if (IN_NAMED_BRACKETS.test(before) || FLAG_NUMBER.test(before) || inString(before)) continue;
      if (HTTP_STATUS.has(digits) && HTTP_CONTEXT.test(text)) continue;
      const offset = lineStart + at;
      if (identifierParts(around(value, offset, offset + digits.length)).some((p) => DOC_WORDS.has(p))) continue;
      out.push({ digits, line: codeLine.line, column: codeLine.column + at });
    }
    lineStart += text.length + 1;
  }
  return out;
}

export default defineRule({
  meta: {
    code: 'skill-magic-numbers',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'anti-patterns',
    reads: [],
    description: 'Disallow unexplained numeric literals in the code blocks of a SKILL.md',
    scope: 'skill',
    reference: 'improved',
    messages: {
      magic: {
        message: "Magic number '{digits}' found in code block at line ~{line} without documentation",
      },
    },
  },
  file: {
    kinds: ['skill'],
    check({ file, report }) {
      for (const block of codeBlocks(file)) {
        if (NOT_CODE.has(block.lang)) continue;
        for (const m of magicNumbers(block)) {
          report({ messageId: 'magic', data: { digits: m.digits, line: m.line }, at: { file: file.path, line: m.line, column: m.column } });
        }
      }
    },
  },
});
