import { defineRule } from '../engine/rule.js';
import { prose } from './lib/prose.js';
import { matchAll, wordRegex } from '../util/words.js';

/** The reference's synonym groups, in its order (the message lists found words in this order). */
const GROUPS: readonly (readonly string[])[] = [
  ['endpoint', 'route', 'url'],
  ['field', 'element', 'control'],
  ['extract', 'pull', 'retrieve', 'get'],
  ['write', 'create', 'generate', 'produce'],
  ['check', 'validate', 'verify', 'confirm'],
];

/**
 * Words that are part of a fixed term, not the synonym: a "pull request" (or "pull/merge
 * request") is not an extraction.
 */
const EXCEPT: Readonly<Record<string, string>> = {
  pull: 'pull(?!(?:\\s*\\/\\s*merge)?[\\s-]+requests?(?![\\p{L}\\p{N}_]))',
};

export default defineRule({
  meta: {
    code: 'skill-term-inconsistency',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'terminology',
    reads: [],
    description: 'Disallow using several synonyms for the same concept in the prose of a SKILL.md',
    scope: 'skill',
    reference: 'improved',
    messages: {
      synonyms: {
        message: 'Multiple synonyms for the same concept found in SKILL.md: {found}. Pick one term and use it consistently',
      },
    },
  },
  file: {
    kinds: ['skill'],
    check({ file, report }) {
      const text = prose(file);
      for (const group of GROUPS) {
        const re = wordRegex(group.map((w) => EXCEPT[w] ?? w).join('|'));
        const hits = matchAll(re, text.text).map((m) => ({ word: m.word.toLowerCase(), index: m.index }));
        const found = group.filter((w) => hits.some((h) => h.word === w));
        if (found.length < 2) continue;
        // the place where the prose first switches to a second term
        const firstWord = hits[0]!.word;
        const switchAt = hits.find((h) => h.word !== firstWord)!;
        const { line, column } = text.at(switchAt.index);
        report({ messageId: 'synonyms', data: { found: found.join(', ') }, at: { file: file.path, line, column } });
      }
    },
  },
});
