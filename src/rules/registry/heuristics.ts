/** Rules of the "heuristics" group (see src/rules/index.ts). */
import type { Rule } from '../../engine/rule.js';

export const heuristicsRules: Rule[] = [];
