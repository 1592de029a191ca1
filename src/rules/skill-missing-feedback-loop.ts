import { defineRule } from '../engine/rule.js';
import { prose } from './lib/prose.js';
import { positionAt } from '../util/text.js';
import { firstMatch, matchAll, wordRegex } from '../util/words.js';

/** The reference skips its workflow checks for files shorter than this many lines. */
const MIN_LINES = 20;

// the three parts of a validate → fix → repeat cycle (whole words, common inflections)
const VALIDATE = wordRegex('validat(?:e|es|ed|ing|ion|ions)|verif(?:y|ies|ied|ying|ication)|check(?:s|ed|ing)?|test(?:s|ed|ing)?');
const FIX = wordRegex('fix(?:es|ed|ing)?|correct(?:s|ed|ing|ion|ions)?|resolv(?:e|es|ed|ing)');
const REPEAT = wordRegex(
  'repeat(?:s|ed|ing)?|iterat(?:e|es|ed|ing|ion|ions)|loop(?:s|ed|ing)?|again|re-?(?:run|runs|ran|check|checks|checked|test|tests|tested|verify|validate)|retr(?:y|ies|ied)',
);
// what makes the check apply: testing/validation and implementation
const TESTING = wordRegex('test(?:s|ed|ing)?|validat(?:e|es|ed|ing|ion|ions)');
// the verb only: "an implementation roadmap" is not an instruction to implement
const IMPLEMENT = wordRegex('implement(?:s|ed|ing)?');

export default defineRule({
  meta: {
    code: 'skill-missing-feedback-loop',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'workflow',
    reads: [],
    description: 'Require a validate → fix → repeat cycle in a SKILL.md that talks about testing and implementation',
    scope: 'skill',
    reference: 'improved',
    messages: {
      missing: {
        message:
          'Workflow mentions validation and implementation but no explicit feedback loop pattern. Consider adding a validate → fix → repeat cycle',
      },
    },
  },
  file: {
    kinds: ['skill'],
    check({ file, facts, report }) {
      if (facts.file.lineCount < MIN_LINES) return;
      const text = prose(file).text;
      const testing = matchAll(TESTING, text);
      const implementing = matchAll(IMPLEMENT, text);
      if (testing.length === 0 || implementing.length === 0) return;
      if (firstMatch(VALIDATE, text) && firstMatch(FIX, text) && firstMatch(REPEAT, text)) return;
      // the first line that mentions both; else the first mention of either
      const lineOf = (i: number) => positionAt(file.lineStarts, i).line;
      const implLines = new Set(implementing.map((m) => lineOf(m.index)));
      const testLines = new Set(testing.map((m) => lineOf(m.index)));
      const both = [...testing, ...implementing]
        .filter((m) => implLines.has(lineOf(m.index)) && testLines.has(lineOf(m.index)))
        .sort((a, b) => a.index - b.index)[0];
      const at = both ?? [testing[0]!, implementing[0]!].sort((a, b) => a.index - b.index)[0]!;
      const { line, column } = positionAt(file.lineStarts, at.index);
      report({ messageId: 'missing', at: { file: file.path, line, column } });
    },
  },
});
