import { defineRule } from '../engine/rule.js';
import { prose } from './lib/prose.js';
import { firstMatch, wordRegex } from '../util/words.js';

/** The reference skips its workflow checks for files shorter than this many lines. */
const MIN_LINES = 20;

const CHOICE = wordRegex('either|choos(?:e|es|ing)|chose|chosen|decid(?:e|es|ed|ing)|determin(?:e|es|ed|ing)');
const CONDITIONAL = wordRegex('if|when|unless|otherwise');

export default defineRule({
  meta: {
    code: 'skill-missing-conditionals',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'workflow',
    reads: [],
    description: 'Require explicit conditions (if/when/unless/otherwise) in a SKILL.md that asks the agent to choose',
    scope: 'skill',
    reference: 'improved',
    messages: {
      missing: {
        message: 'Decision points detected but no explicit conditional structure (if/when/otherwise). Consider adding conditional branches',
      },
    },
  },
  file: {
    kinds: ['skill'],
    check({ file, facts, report }) {
      if (facts.file.lineCount < MIN_LINES) return;
      const text = prose(file);
      const choice = firstMatch(CHOICE, text.text);
      if (!choice || firstMatch(CONDITIONAL, text.text)) return;
      const { line, column } = text.at(choice.index);
      report({ messageId: 'missing', at: { file: file.path, line, column } });
    },
  },
});
