/** Rules of the "frontmatter" group (see src/rules/index.ts). */
import type { Rule } from '../../engine/rule.js';

export const frontmatterRules: Rule[] = [];
