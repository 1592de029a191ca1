/** Rules of the "heuristics" group (see src/rules/index.ts). */
import type { Rule } from '../../engine/rule.js';
import skillMagicNumbers from '../skill-magic-numbers.js';
import skillMissingChecklist from '../skill-missing-checklist.js';
import skillMissingConditionals from '../skill-missing-conditionals.js';
import skillMissingFeedbackLoop from '../skill-missing-feedback-loop.js';
import skillPuntsToClaude from '../skill-punts-to-claude.js';
import skillScriptNoHelp from '../skill-script-no-help.js';
import skillScriptNoInlineDeps from '../skill-script-no-inline-deps.js';
import skillScriptsSuggested from '../skill-scripts-suggested.js';
import skillTermInconsistency from '../skill-term-inconsistency.js';
import skillTooManyOptions from '../skill-too-many-options.js';

export const heuristicsRules: Rule[] = [
  skillMagicNumbers,
  skillMissingChecklist,
  skillMissingConditionals,
  skillMissingFeedbackLoop,
  skillPuntsToClaude,
  skillScriptNoHelp,
  skillScriptNoInlineDeps,
  skillScriptsSuggested,
  skillTermInconsistency,
  skillTooManyOptions,
];
