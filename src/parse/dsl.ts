/**
 * The Loop Language transition DSL, read line by line from LOOP.md:
 *
 *   transition <from> → <to>          (arrows: →, ->, --->; states may be backtick-quoted)
 *   trigger <condition>
 *   handoff <skill> to <agent>
 *   halt <reason> [after <N> iterations]
 *
 * `trigger`, `handoff` and `halt` lines attach to the transition they follow within the same H2
 * section. Lines inside fenced code blocks tagged with a language other than a plain-text one are
 * not read. A line that starts like a directive but does not parse is recorded as malformed.
 */
import type { Code, Root } from 'mdast';
import { visit } from '../util/visit.js';
import type { HaltMention, HandoffMention, MalformedLine, Section, SourceFile, Transition } from '../model/types.js';
import { sectionKey, splitLines } from '../util/text.js';
import { sectionsByLine } from './sections.js';

/** Fence languages whose lines are still read as DSL. */
const DSL_FENCES = new Set(['', 'loop', 'text', 'txt', 'plain', 'plaintext', 'dsl', 'markdown', 'md']);

/** Arrows accepted by the Loop Language. */
export const ARROWS = ['→', '--->', '->'] as const;

const STATE = String.raw`[^\s→>]+?`;
const TRANSITION = new RegExp(String.raw`^transition\s+(${STATE})\s*(→|--->|->)\s*([^\s→>]+)\s*$`, 'u');
const TRIGGER = /^trigger(?:\s+(.*\S))?\s*$/u;
const HANDOFF = /^handoff\s+([\p{L}\p{M}\p{Nd}_-]+)\s+to\s+([\p{L}\p{M}\p{Nd}_-]+)\s*$/u;
const HALT = /^halt\s+([\p{L}\p{M}\p{Nd}_][\p{L}\p{M}\p{Nd}_-]*)(?:\s+after\s+(\S+?)\s*iterations?)?\s*$/u;
const LIST_MARKER = /^(?:[-*+]|\d{1,9}[.)])\s+/u;
const ARROWISH = /→|->|=>|—>|–>|⇒|⟶/u;

/** Words after `halt` that are prose, not a reason. */
export const HALT_NOISE_WORDS = new Set([
  'the',
  'this',
  'that',
  'a',
  'an',
  'when',
  'if',
  'after',
  'iteration',
  'and',
  'or',
  'all',
  'any',
  'current',
  'at',
  'in',
  'on',
  'to',
  'for',
  'conditions',
  'condition',
  'is',
  'are',
  'as',
  'by',
  'with',
  'without',
]);

export interface DslResult {
  transitions: Transition[];
  malformed: MalformedLine[];
  halts: HaltMention[];
  handoffs: HandoffMention[];
}

/** 1-based line numbers to skip: fenced code whose language is not a plain-text one. */
function skippedLines(root: Root | undefined): Set<number> {
  const skip = new Set<number>();
  if (!root) return skip;
  visit(root, 'code', (node) => {
    const code = node as Code;
    const lang = (code.lang ?? '').toLowerCase();
    if (DSL_FENCES.has(lang) || !code.position) return;
    for (let l = code.position.start.line; l <= code.position.end.line; l++) skip.add(l);
  });
  return skip;
}

/** Parse every DSL line of a LOOP.md (sections = its H2 sections). */
export function parseDsl(file: SourceFile, sections: readonly Section[]): DslResult {
  const lines = splitLines(file.text);
  const skip = skippedLines(file.root);
  const transitions: Transition[] = [];
  const malformed: MalformedLine[] = [];
  const halts: HaltMention[] = [];
  const handoffs: HandoffMention[] = [];
  let open: Transition | null = null;
  const sectionAt = sectionsByLine(sections);

  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    if (skip.has(lineNo)) continue;
    const rawLine = lines[i]!;
    const section = sectionAt(lineNo)?.title ?? '';
    if (open && open.section !== section) open = null;

    scanMentions(rawLine, lineNo, halts, handoffs);

    const indent = rawLine.length - rawLine.trimStart().length;
    let body = rawLine.trim();
    let col = indent + 1;
    const marker = LIST_MARKER.exec(body);
    if (marker) {
      body = body.slice(marker[0].length);
      col += marker[0].length;
    }
    // a whole line in one code span: `transition a → b`
    const unquoted = body.includes('`') ? body.replace(/`/g, '') : body;
    // every directive starts with t (transition, trigger) or h (handoff, halt), in either case
    const first = unquoted.charCodeAt(0) | 0x20;
    if (first !== 0x74 && first !== 0x68) continue;

    const t = TRANSITION.exec(unquoted);
    if (t) {
      const from = t[1]!;
      const to = t[3]!;
      // search after the keyword: a state such as `t` also occurs inside "transition"
      const keywordEnd = rawLine.indexOf('transition', col - 1) + 'transition'.length;
      const fromColumn = rawLine.indexOf(from, keywordEnd) + 1;
      const arrowAt = rawLine.indexOf(t[2]!, fromColumn - 1 + from.length);
      const toColumn = rawLine.indexOf(to, arrowAt + t[2]!.length) + 1;
      open = {
        from,
        to,
        arrow: t[2]!,
        file: file.path,
        line: lineNo,
        column: col,
        fromColumn: fromColumn > 0 ? fromColumn : col,
        toColumn: toColumn > 0 ? toColumn : col,
        section,
      };
      transitions.push(open);
      continue;
    }
    if (/^transition\s/u.test(unquoted) || (/^transition\s/iu.test(unquoted) && ARROWISH.test(unquoted))) {
      malformed.push({ kind: 'transition', text: body, line: lineNo, column: col, reason: transitionProblem(unquoted) });
      continue;
    }
    if (!open) continue;

    if (/^trigger\b/u.test(unquoted)) {
      // a line wholly in a code span (`trigger x`) like a transition line; else keep the backticks
      const m = TRIGGER.exec(body.startsWith('`') ? unquoted : body);
      if (m && m[1]) open.trigger = { text: m[1], line: lineNo, column: col };
      else
        malformed.push({
          kind: 'trigger',
          text: body,
          line: lineNo,
          column: col,
          reason: 'a trigger needs a condition: trigger <condition>',
        });
      continue;
    }
    if (/^handoff\s/u.test(unquoted)) {
      const m = HANDOFF.exec(unquoted);
      if (m) {
        const skillColumn = rawLine.indexOf(m[1]!, col - 1) + 1;
        open.handoff = { skill: m[1]!, agent: m[2]!, line: lineNo, column: col, skillColumn: skillColumn > 0 ? skillColumn : col };
      } else {
        malformed.push({ kind: 'handoff', text: body, line: lineNo, column: col, reason: 'expected: handoff <skill> to <agent>' });
      }
      continue;
    }
    if (/^halt\s/u.test(unquoted)) {
      const m = HALT.exec(unquoted);
      const reasonColumn = m ? rawLine.indexOf(m[1]!, col - 1 + 4) + 1 : col;
      if (m && m[2] === undefined) {
        open.halt = { reason: m[1]!, after: null, line: lineNo, column: col, reasonColumn };
      } else if (m && /^\d+$/u.test(m[2]!) && Number(m[2]) <= 4294967295) {
        open.halt = { reason: m[1]!, after: Number(m[2]), line: lineNo, column: col, reasonColumn };
      } else {
        malformed.push({
          kind: 'halt',
          text: body,
          line: lineNo,
          column: col,
          reason: m ? `'${m[2]}' is not a whole number of iterations` : 'expected: halt <reason> after <N> iterations',
        });
      }
    }
  }
  return { transitions, malformed, halts, handoffs };
}

function transitionProblem(line: string): string {
  if (/^Transition/u.test(line)) return "the keyword is lower case: 'transition'";
  const rest = line.replace(/^transition\s+/iu, '');
  const other = /=>|—>|–>|⇒|⟶|-->/u.exec(rest);
  if (other && !/--->/u.test(rest)) return `'${other[0]}' is not an arrow; use →, -> or --->`;
  if (!ARROWISH.test(rest)) return 'missing arrow between the two states (→, -> or --->)';
  return 'expected exactly: transition <from> → <to> (nothing after the target state)';
}

const HALT_MENTION = /(?<![\p{L}\p{M}\p{Nd}_-])halt\s+([\p{L}\p{M}\p{Nd}_][\p{L}\p{M}\p{Nd}_-]*)/giu;
const HANDOFF_MENTION =
  /(?<![\p{L}\p{M}\p{Nd}_-])handoff\s+([\p{L}\p{M}\p{Nd}_][\p{L}\p{M}\p{Nd}_-]*)\s+to\s+([\p{L}\p{M}\p{Nd}_][\p{L}\p{M}\p{Nd}_-]*)/gu;

/** Every `halt <word>` and `handoff <skill> to <agent>` on a line (whole words only). */
function scanMentions(line: string, lineNo: number, halts: HaltMention[], handoffs: HandoffMention[]): void {
  // most lines name neither: a cheap test first
  const lower = line.toLowerCase();
  const hasHalt = lower.includes('halt');
  if (!hasHalt && !line.includes('handoff')) return;
  const plain = line.replace(/`/g, ' ');
  // a directive is a line that opens with the lower-case keyword; only its first word is the reason
  const opener = /^\s*(?:(?:[-*+]|\d{1,9}[.)])\s+)?(?=halt\s)/u.exec(plain);
  for (const m of plain.matchAll(HALT_MENTION)) {
    const word = m[1]!;
    if (HALT_NOISE_WORDS.has(word.toLowerCase())) continue;
    const directive = opener !== null && m.index === opener[0].length;
    halts.push({ word, line: lineNo, column: m.index! + m[0].length - word.length + 1, directive });
  }
  for (const m of plain.matchAll(HANDOFF_MENTION)) {
    handoffs.push({ skill: m[1]!, agent: m[2]!, line: lineNo, column: m.index! + m[0].indexOf(m[1]!, 7) + 1 });
  }
}

/**
 * Whether a LOOP.md reads as a Loop Language contract: one of `sections` (the canonical LOOP.md
 * sections) as a heading, or a `transition <from> → <to>` line. A LOOP.md that is neither (a
 * skill's notes on its "mutation loop") is a reference document that happens to have the name.
 */
export function isLoopContract(text: string, sections: readonly string[]): boolean {
  const keys = new Set(sections.map(sectionKey));
  for (const m of text.matchAll(/^[ \t]{0,3}#{1,6}[ \t]+(.+?)[ \t#]*\r?$/gmu)) if (keys.has(sectionKey(m[1]!))) return true;
  return /^[ \t>*+-]*`?transition`?[ \t]+\S.*?(?:→|-{1,3}>)/imu.test(text);
}
