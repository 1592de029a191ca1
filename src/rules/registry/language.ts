/** Rules of the "language" group (see src/rules/index.ts). */
import type { Rule } from '../../engine/rule.js';
import loopInvalidStateSchema from '../loop-invalid-state-schema.js';
import loopMalformedTransition from '../loop-malformed-transition.js';
import loopMissingSection from '../loop-missing-section.js';
import loopNoTransitions from '../loop-no-transitions.js';
import loopNonstandardVerb from '../loop-nonstandard-verb.js';
import loopSectionOrder from '../loop-section-order.js';
import loopStateFileMissing from '../loop-state-file-missing.js';
import loopUnknownHalt from '../loop-unknown-halt.js';
import loopUnknownSection from '../loop-unknown-section.js';
import xrefUnknownHandoffSkill from '../xref-unknown-handoff-skill.js';
import xrefUnknownReadmeSkill from '../xref-unknown-readme-skill.js';

export const languageRules: Rule[] = [
  loopInvalidStateSchema,
  loopMalformedTransition,
  loopMissingSection,
  loopNoTransitions,
  loopNonstandardVerb,
  loopSectionOrder,
  loopStateFileMissing,
  loopUnknownHalt,
  loopUnknownSection,
  xrefUnknownHandoffSkill,
  xrefUnknownReadmeSkill,
];
