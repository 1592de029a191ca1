import { defineRule } from '../engine/rule.js';
import { codeBlocks, counterExampleLines, isCounterExample, type CodeBlock, type CodeLine } from './lib/code.js';

/** `except:`, `except Exception:`, `except (BaseException) as e:` — a bare or catch-all clause. */
const CATCH_ALL = /^(?<indent>[ \t]*)except(?:\s*\(?\s*(?:Exception|BaseException)\s*\)?(?:\s+as\s+\w+)?)?\s*:(?<rest>.*)$/u;
/** A handler that does nothing with the error. */
const NOTHING = /^(?:pass|raise|\.\.\.)\s*(?:#.*)?$/u;

const indentOf = (text: string) => /^[ \t]*/u.exec(text)![0].length;
const blank = (l: CodeLine) => /^\s*(?:#.*)?$/u.test(l.text);

/** The `except` lines of a block whose handler body is only `pass` / `raise` / `...`. */
function punts(block: CodeBlock): CodeLine[] {
  const out: CodeLine[] = [];
  const lines = block.lines;
  for (let i = 0; i < lines.length; i++) {
    const m = CATCH_ALL.exec(lines[i]!.text);
    if (!m) continue;
    const indent = m.groups!.indent!.length;
    const rest = m.groups!.rest!.trim();
    if (rest !== '' && !rest.startsWith('#')) {
      // one-line handler: `except: pass`
      if (NOTHING.test(rest)) out.push(lines[i]!);
      continue;
    }
    // the body: the following more-indented lines (comments and blank lines ignored)
    const body: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const l = lines[j]!;
      if (blank(l)) continue;
      if (indentOf(l.text) <= indent) break;
      body.push(l.text.trim());
    }
    if (body.length === 1 && NOTHING.test(body[0]!)) out.push(lines[i]!);
  }
  return out;
}

export default defineRule({
  meta: {
    code: 'skill-punts-to-claude',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'anti-patterns',
    reads: [],
    description: 'Disallow catch-all except clauses that only pass or re-raise in the code blocks of a SKILL.md',
    scope: 'skill',
    reference: 'improved',
    messages: {
      punt: {
        message: 'Bare except clause with raise/pass detected. Consider providing error handling guidance',
      },
    },
  },
  file: {
    kinds: ['skill'],
    check({ file, report }) {
      for (const block of codeBlocks(file)) {
        if (isCounterExample(file, block)) continue; // a "don't do this" example
        // … or the part of a block that shows one next to the right way (`# ❌ Wrong` … `# ✅ Correct`)
        const wrong = counterExampleLines(block);
        for (const l of punts(block)) {
          if (wrong.has(block.lines.indexOf(l))) continue;
          const column = l.column + indentOf(l.text);
          report({ messageId: 'punt', at: { file: file.path, line: l.line, column } });
        }
      }
    },
  },
});
