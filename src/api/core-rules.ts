/**
 * loopkit's core rules: the built-in plugin the API layer hands the engine (the engine imports no rule).
 */
import type { Rule } from '../engine/rule.js';
import { rules } from '../rules/index.js';

export const coreRules: readonly Rule[] = rules;
