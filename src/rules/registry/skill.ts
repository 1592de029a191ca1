/** Rules of the "skill" group (see src/rules/index.ts). */
import type { Rule } from '../../engine/rule.js';

export const skillRules: Rule[] = [];
