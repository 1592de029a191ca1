/**
 * loopkit's core rules: the built-in plugin the API layer hands the engine (the engine imports no rule).
 */
import type { Rule } from '../engine/rule.js';
import { rules } from '../rules/index.js';

export const coreRules: readonly Rule[] = rules;

/** The core rules and the rules of plugins, in the order of their codes (a run's order never depends on load order). */
export function withPlugins(pluginRules: readonly Rule[]): readonly Rule[] {
  if (pluginRules.length === 0) return coreRules;
  return [...coreRules, ...pluginRules].sort((a, b) => (a.meta.code < b.meta.code ? -1 : a.meta.code > b.meta.code ? 1 : 0));
}
