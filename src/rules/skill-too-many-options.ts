import { defineRule } from '../engine/rule.js';
import { prose } from './lib/prose.js';
import { matchAll, wordRegex } from '../util/words.js';

/** More than this many equivalent options is too many. */
const MAX_OPTIONS = 3;

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};

// "<n> [different|…] options|ways|approaches|methods to|for" — every part a whole word
const OPTIONS = wordRegex(
  `(?:\\d+|${Object.keys(NUMBER_WORDS).join('|')})` +
    '\\s+(?:(?:different|possible|alternative|equivalent|other|distinct)\\s+)?' +
    '(?:options?|ways?|approach(?:es)?|methods?)\\s+(?:to|for)',
);

export default defineRule({
  meta: {
    code: 'skill-too-many-options',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'anti-patterns',
    reads: [],
    description: 'Limit the number of equivalent options a SKILL.md offers for one task',
    scope: 'skill',
    reference: 'improved',
    messages: {
      tooMany: {
        message: '{n} equivalent options offered for the same task. Consider picking one recommended approach',
      },
    },
  },
  file: {
    kinds: ['skill'],
    check({ file, report }) {
      const text = prose(file);
      for (const m of matchAll(OPTIONS, text.text)) {
        const count = m.word.split(/\s/u)[0]!.toLowerCase();
        const n = NUMBER_WORDS[count] ?? Number(count);
        if (!(n > MAX_OPTIONS)) continue;
        const shown = count in NUMBER_WORDS ? String(n) : count.replace(/^0+(?=\d)/u, '');
        const { line, column } = text.at(m.index);
        report({ messageId: 'tooMany', data: { n: shown }, at: { file: file.path, line, column } });
      }
    },
  },
});
