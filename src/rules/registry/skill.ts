/** Rules of the "skill" group (see src/rules/index.ts). */
import type { Rule } from '../../engine/rule.js';
import configUnknownKey from '../config-unknown-key.js';
import suppressionUnknownCode from '../suppression-unknown-code.js';
import loopMissingForTransitionSkill from '../loop-missing-for-transition-skill.js';
import loopNotReferencedInSkill from '../loop-not-referenced-in-skill.js';
import skillDuplicateName from '../skill-duplicate-name.js';
import skillDuplicateRules from '../skill-duplicate-rules.js';
import skillFrontmatterNeedsQuoting from '../skill-frontmatter-needs-quoting.js';
import skillInvalidFrontmatter from '../skill-invalid-frontmatter.js';
import skillL1MissingEntryConditions from '../skill-l1-missing-entry-conditions.js';
import skillL1MissingHaltConditions from '../skill-l1-missing-halt-conditions.js';
import skillMissingDescription from '../skill-missing-description.js';
import skillMissingFrontmatter from '../skill-missing-frontmatter.js';
import skillMissingName from '../skill-missing-name.js';
import skillMissingRules from '../skill-missing-rules.js';
import skillMissingSection from '../skill-missing-section.js';
import skillMissingStateModel from '../skill-missing-state-model.js';
import skillNameNotGerund from '../skill-name-not-gerund.js';
import skillNamingInconsistent from '../skill-naming-inconsistent.js';
import fileTooComplex from '../file-too-complex.js';
import skillOutsideSkillsDir from '../skill-outside-skills-dir.js';
import skillReadError from '../skill-read-error.js';
import stateInvalidName from '../state-invalid-name.js';
import stateUndeclaredInSkill from '../state-undeclared-in-skill.js';
import stateUndefinedInGraph from '../state-undefined-in-graph.js';

export const skillRules: Rule[] = [
  suppressionUnknownCode,
  configUnknownKey,
  loopMissingForTransitionSkill,
  loopNotReferencedInSkill,
  skillDuplicateName,
  skillDuplicateRules,
  skillFrontmatterNeedsQuoting,
  skillInvalidFrontmatter,
  skillL1MissingEntryConditions,
  skillL1MissingHaltConditions,
  skillMissingDescription,
  skillMissingFrontmatter,
  skillMissingName,
  skillMissingRules,
  skillMissingSection,
  skillMissingStateModel,
  skillNameNotGerund,
  skillNamingInconsistent,
  skillOutsideSkillsDir,
  skillReadError,
  fileTooComplex,
  stateInvalidName,
  stateUndeclaredInSkill,
  stateUndefinedInGraph,
];
