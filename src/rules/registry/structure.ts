/** Rules of the "structure" group (see src/rules/index.ts). */
import type { Rule } from '../../engine/rule.js';

export const structureRules: Rule[] = [];
