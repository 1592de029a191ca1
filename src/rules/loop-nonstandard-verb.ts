import { defineRule, forEachSkill } from '../engine/rule.js';
import type { StepVerb } from '../model/types.js';
import { didYouMean } from '../util/closest.js';

/** First words that are not verbs: temporal conjunctions, articles, determiners, fillers (0.3.3's lists). */
const SKIP = new Set([
  'after',
  'before',
  'once',
  'the',
  'a',
  'an',
  'if',
  'when',
  'for',
  'each',
  'all',
  'no',
  'this',
  'that',
  'these',
  'those',
  'every',
  'story',
  'flag',
  'flags',
  'field',
  'fields',
  'in',
  'on',
  'at',
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
]);

/** Two-word verbs: first word → (second word → the verb it spells). */
const COMPOUNDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  hand: { off: 'handoff' },
  cross: { reference: 'cross-reference' },
};

/** The verb a step spells, normalising `hand off` / `hand-off` → handoff, `cross reference` → cross-reference. */
function spelledVerb(step: StepVerb): string[] {
  const w = step.word.toLowerCase();
  const out = [w];
  const parts = w.split('-');
  if (parts.length >= 2) {
    const joined = parts.length === 2 ? COMPOUNDS[parts[0]!]?.[parts[1]!] : undefined;
    if (joined) out.push(joined);
    // a hyphenated compound whose first word is a standard verb (`call-back`, `run-through`)
    out.push(parts[0]!);
  } else if (parts.length === 1 && COMPOUNDS[w]) {
    const joined = COMPOUNDS[w][step.next];
    if (joined) out.push(joined);
  }
  return out;
}

export default defineRule({
  meta: {
    code: 'loop-nonstandard-verb',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'language',
    reads: ['frontmatter', 'loop'],
    local: true,
    description: 'Check that numbered steps in LOOP.md start with a verb from standard_verbs',
    scope: 'skill',
    reference: 'improved',
    messages: {
      nonstandard: {
        message: "Non-standard verb '{verb}' in LOOP.md for `{skill}` at line {line}{suggestion}",
        help: 'Standard verbs: {verbs}. Consider using one of these for clarity.',
      },
    },
  },
  check({ project, config, report }) {
    const standard = new Set(config.standard_verbs.map((v) => v.toLowerCase()));
    const verbs = config.standard_verbs.length > 0 ? config.standard_verbs.join(', ') : '(none configured)';
    forEachSkill(project, (skill) => {
      const loop = skill.loop;
      if (!loop) return;
      for (const step of loop.steps) {
        const w = step.word.toLowerCase();
        if (SKIP.has(w) || /\p{Nd}/u.test(w)) continue;
        if (spelledVerb(step).some((v) => standard.has(v))) continue;
        report({
          messageId: 'nonstandard',
          data: {
            verb: step.word,
            skill: skill.name,
            line: step.line,
            verbs,
            suggestion: didYouMean(step.word, config.standard_verbs),
          },
          at: { file: loop.file.path, line: step.line, column: step.column },
          skill: skill.name,
        });
      }
    });
  },
});
