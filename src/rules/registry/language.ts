/** Rules of the "language" group (see src/rules/index.ts). */
import type { Rule } from '../../engine/rule.js';

export const languageRules: Rule[] = [];
