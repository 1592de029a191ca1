import type { Heading, List, ListItem, Paragraph } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { defineRule } from '../engine/rule.js';
import type { SourceFile } from '../model/types.js';
import { codeBlocks } from './lib/code.js';
import { prose } from './lib/prose.js';
import { sentences } from '../util/sentences.js';
import { visit } from '../util/visit.js';
import { firstMatch, matchAll, wordRegex } from '../util/words.js';

/** The reference skips its workflow checks for files shorter than this many lines. */
const MIN_LINES = 20;

const FIRST = wordRegex('first');
const THEN = wordRegex('then');
const LEADING_THEN = /^\s*then(?![\p{L}\p{M}\p{N}_])/iu;
const STEP_N = wordRegex('step(?=\\s+\\d)');
const STEP_HEADING = /^\s*(?:step\s+\d|\d+[.)]\s)/iu;
/** A paragraph that opens with a bold step label: `**Step 1:** …`, `**1. Prepare**`. */
const STEP_LABEL = /^\s*(?:step\s+\d|\d+[.)](?:\s|$))/iu;

/** Does the skill already structure its work as a checklist or as numbered steps? */
function hasChecklist(file: SourceFile): boolean {
  const root = file.root;
  if (!root) return false;
  let tasks = 0;
  let numbered = 0;
  let stepHeadings = 0;
  visit(root, null, (n) => {
    if (n.type === 'listItem' && typeof (n as ListItem).checked === 'boolean') tasks++;
    else if (n.type === 'list' && (n as List).ordered === true) numbered += (n as List).children.length;
    else if (n.type === 'heading' && STEP_HEADING.test(toString(n as Heading))) stepHeadings++;
    else if (n.type === 'paragraph') {
      const first = (n as Paragraph).children[0];
      if (first?.type === 'strong' && STEP_LABEL.test(toString(first))) stepHeadings++;
    }
  });
  // a checklist template inside a code block ("copy this checklist") counts too
  for (const block of codeBlocks(file)) {
    for (const l of block.lines) {
      if (/^\s*[-*+]\s+\[[ xX]\]/u.test(l.text)) tasks++;
      else if (/^\s*\d+\.\s/u.test(l.text)) numbered++;
    }
  }
  return tasks > 0 || numbered >= 2 || stepHeadings >= 2;
}

/** Offset (in the file) of the first multi-step signal, or null. */
function firstSignal(file: SourceFile): number | null {
  const text = prose(file);
  // both signals need one of these words (same flags as the word regexes: ſ folds to s)
  if (!/first|step/iu.test(text.text)) return null;
  let best: number | null = null;
  const consider = (offset: number) => {
    if (best === null || offset < best) best = offset;
  };
  for (const block of text.blocks) {
    const s = text.text.slice(block.start, block.end);
    const step = firstMatch(STEP_N, s);
    if (step) consider(block.start + step.index);
    // sentences only matter in a block that says "first" at all
    if (firstMatch(FIRST, s) === null) continue;
    const parts = sentences(s);
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      const sentence = s.slice(part.start, part.end);
      for (const first of matchAll(FIRST, sentence)) {
        const sameSentence = firstMatch(THEN, sentence, first.index + first.word.length) !== null;
        const next = parts[i + 1];
        const nextStarts = next !== undefined && LEADING_THEN.test(s.slice(next.start, next.end));
        if (sameSentence || nextStarts) {
          consider(block.start + part.start + first.index);
          break;
        }
      }
    }
  }
  return best;
}

export default defineRule({
  meta: {
    code: 'skill-missing-checklist',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'workflow',
    reads: [],
    description: 'Require a checklist or numbered steps in a SKILL.md that describes a multi-step workflow',
    scope: 'skill',
    reference: 'improved',
    messages: {
      missing: {
        message: 'Multi-step workflow detected but no checklist or numbered steps found. Consider adding a checklist',
      },
    },
  },
  file: {
    kinds: ['skill'],
    check({ file, facts, report }) {
      if (facts.file.lineCount < MIN_LINES) return;
      const signal = firstSignal(file);
      if (signal === null || hasChecklist(file)) return;
      const { line, column } = prose(file).at(signal);
      report({ messageId: 'missing', at: { file: file.path, line, column } });
    },
  },
});
