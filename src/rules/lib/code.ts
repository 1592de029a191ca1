/**
 * Code blocks of a markdown file (mdast `code` nodes: backtick or tilde fences, indented blocks)
 * with each content line mapped back to its place in the file, so a match inside a block can be
 * reported at its real line and column.
 */
import type { Code, Root } from 'mdast';
import type { SourceFile } from '../../model/types.js';
import { visit } from '../../util/visit.js';

export interface CodeLine {
  /** the line as it appears in the block value (container indentation removed) */
  text: string;
  /** 1-based line in the file */
  line: number;
  /** 1-based column in the file of the first character of `text` */
  column: number;
}

export interface CodeBlock {
  node: Code;
  /** info-string language, lower-cased ('' when none) */
  lang: string;
  fenced: boolean;
  /** line/column of the block start (the opening fence for fenced blocks) */
  line: number;
  column: number;
  lines: readonly CodeLine[];
}

const cache = new WeakMap<SourceFile, readonly CodeBlock[]>();

export function sourceLine(file: SourceFile, line: number): string {
  const start = file.lineStarts[line - 1];
  if (start === undefined) return '';
  const next = file.lineStarts[line];
  return file.text.slice(start, next === undefined ? file.text.length : next - 1).replace(/\r$/u, '');
}

/** The code blocks of a markdown source file, in document order (computed once per file). */
export function codeBlocks(file: SourceFile): readonly CodeBlock[] {
  const hit = cache.get(file);
  if (hit) return hit;
  const out: CodeBlock[] = [];
  if (file.root) {
    visit(file.root as Root, 'code', (n) => {
      const node = n as Code;
      const pos = node.position;
      if (!pos) return;
      const opening = sourceLine(file, pos.start.line).slice(pos.start.column - 1);
      const fenced = /^\s*(?:```|~~~)/u.test(opening);
      const first = fenced ? pos.start.line + 1 : pos.start.line;
      const values = node.value === '' ? [] : node.value.split('\n');
      const lines: CodeLine[] = values.map((value, i) => {
        const text = value.replace(/\r$/u, '');
        const line = first + i;
        const raw = sourceLine(file, line);
        const at = raw.endsWith(text) ? raw.length - text.length : Math.max(0, raw.indexOf(text));
        return { text, line, column: at + 1 };
      });
      out.push({ node, lang: (node.lang ?? '').toLowerCase(), fenced, line: pos.start.line, column: pos.start.column, lines });
    });
  }
  cache.set(file, out);
  return out;
}

const COUNTER_EXAMPLE =
  /❌|🚫|⛔|✗|✘|\b(?:bad|wrong|incorrect|don'?t|do not|never|avoid|anti-?pattern|bug(?=:))\b|(?<!\p{L})(?:плохо|неправильно|неверно|нельзя|избегай(?:те)?|не делай(?:те)?|schlecht|falsch|vermeide[n]?|incorrecto|evita[r]?|mauvais|évite[rz]?)(?!\p{L})/iu;

/** Right before a place: the wrong side of a contrast ("`reference/guide.md`, not `reference\\guide.md`", "instead of …"). */
const CONTRASTED = /(?:\bnot|\brather than|\binstead of)\s*[`"'“‘*_]*$/iu;

/**
 * Whether the text at a place is shown as what not to do: its line, up to that place, marks a
 * counter-example (`- ✗ **Avoid**: \`scripts\\run.py\``, "❌ Bad: …", "Don't write …"), or the
 * text is the wrong side of a contrast ("forward slashes (`a/b.md`, not `a\\b.md`)").
 */
export function onCounterExampleLine(file: SourceFile, line: number, column: number): boolean {
  const before = sourceLine(file, line).slice(0, Math.max(0, column - 1));
  return (before.length <= 120 && COUNTER_EXAMPLE.test(before)) || CONTRASTED.test(before);
}

/**
 * Whether a code block shows what not to do: marked in its first lines (`# BAD`, `// ❌ wrong`) or
 * introduced as such by the text just above it ("❌ Bad:", "Don't do this:", "**Avoid**").
 */
export function isCounterExample(file: SourceFile, block: CodeBlock): boolean {
  if (block.lines.slice(0, 2).some((l) => /^\s*(?:#|\/\/|--|\/\*|<!--)/u.test(l.text) && COUNTER_EXAMPLE.test(l.text))) return true;
  for (let line = block.line - 1; line >= Math.max(1, block.line - 3); line--) {
    const text = sourceLine(file, line).trim();
    if (text === '') continue;
    return COUNTER_EXAMPLE.test(text) && text.length <= 120;
  }
  return false;
}

const COMMENT = /^\s*(?:#|\/\/|--|\/\*|<!--)/u;
const GOOD_EXAMPLE = /✅|✔|✓|\b(?:good|correct|right|better|preferred|instead)\b/iu;

/**
 * The lines of a code block that lie in a part marked as what not to do: from a comment that marks
 * a counter-example (`# ❌ Wrong - silent catch`) to the next comment that marks a good one
 * (`# ✅ Correct`), for blocks that show both side by side. Indexes into `block.lines`.
 */
export function counterExampleLines(block: CodeBlock): Set<number> {
  const out = new Set<number>();
  let inside = false;
  block.lines.forEach((l, i) => {
    if (COMMENT.test(l.text)) {
      if (COUNTER_EXAMPLE.test(l.text)) inside = true;
      else if (GOOD_EXAMPLE.test(l.text)) inside = false;
    }
    if (inside) out.add(i);
  });
  return out;
}

const ARROW_AFTER = /^[`*_]*\s*(?:->|→|=>|⇒)/u;
const ARROW_BEFORE = /(?:->|→|=>|⇒)\s*[`*_]*$/u;

/**
 * Whether a piece of text is one side of a conversion shown as data (`C:\Users\ann\x\` -> `~/x/`,
 * "`a\b.txt` → `a/b.txt`", `/Users/ann/x` → `-Users-ann-x`): the path is what the skill converts,
 * so it must be written as it is.
 */
export function isConversionExample(text: string, node: { position?: { start: { offset?: number }; end: { offset?: number } } }): boolean {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return false;
  return ARROW_AFTER.test(text.slice(end, end + 8)) || ARROW_BEFORE.test(text.slice(Math.max(0, start - 8), start));
}
