/**
 * A rule's documentation page (markdown) for the terminal: headings without their `#` marks and
 * underlined, tables as aligned columns, code blocks indented, inline code and bold styled, and a
 * link to another rule page turned into the command that shows it. Colour only when asked.
 */
import { Chalk } from 'chalk';

export interface TerminalMarkdownOptions {
  color: boolean;
  /** a link target → what to show for it (e.g. another rule page → `loopkit explain <code>`) */
  link?: (target: string) => string;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/u;

/** Visible width of a string without ANSI escapes. */
function width(s: string): number {
  return Array.from(s.replace(/\u001b\[[0-9;]*m/gu, '')).length;
}

export function renderMarkdown(markdown: string, options: TerminalMarkdownOptions): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const inline = (text: string): string =>
    text
      .replace(/!?\[([^\]]*)\]\(([^)\s]*)\)/gu, (_m, label: string, target: string) => {
        const shown = options.link ? options.link(target) : target;
        return shown === '' || shown === label ? label : `${label} (${c.underline(shown)})`;
      })
      .replace(/(`+)(?!`)\s?(.+?)\s?\1(?!`)/gu, (m, _ticks: string, code: string) => (options.color ? c.cyan(code) : m))
      .replace(/\*\*([^*]+)\*\*/gu, (_m, b: string) => c.bold(b));
  const lines = markdown.replace(/\r\n?/gu, '\n').split('\n');
  const out: string[] = [];
  let fence: string | null = null;
  let table: string[][] = [];
  const flushTable = () => {
    if (table.length === 0) return;
    const rows = table.filter((r) => !r.every((cell) => /^:?-{3,}:?$/u.test(cell) || cell === ''));
    const cols = Math.max(...rows.map((r) => r.length));
    const widths = Array.from({ length: cols }, (_, i) => Math.max(0, ...rows.map((r) => width(inline(r[i] ?? '')))));
    for (const r of rows) {
      const cells = r.map((cell, i) => {
        const t = inline(cell);
        return i === r.length - 1 ? t : t + ' '.repeat(widths[i]! - width(t));
      });
      out.push(`  ${cells.join('  ')}`.trimEnd());
    }
    table = [];
  };
  for (const line of lines) {
    const f = FENCE.exec(line);
    if (fence !== null) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && line.trim() === f[1]) {
        fence = null;
        continue;
      }
      out.push(c.dim(`    ${line}`.trimEnd()));
      continue;
    }
    if (f) {
      flushTable();
      fence = f[1]!;
      continue;
    }
    if (/^\s*\|.*\|\s*$/u.test(line)) {
      table.push(
        line
          .trim()
          .slice(1, -1)
          .split('|')
          .map((cell) => cell.trim()),
      );
      continue;
    }
    flushTable();
    const h = /^(#{1,6})\s+(.*?)\s*#*\s*$/u.exec(line);
    if (h) {
      const title = inline(h[2]!);
      if (h[1]!.length === 1) out.push(c.bold(title), c.bold('═'.repeat(width(title))));
      else out.push(c.bold(title), '─'.repeat(width(title)));
      continue;
    }
    out.push(inline(line));
  }
  flushTable();
  return `${out
    .join('\n')
    .replace(/\n{3,}/gu, '\n\n')
    .trim()}\n`;
}
