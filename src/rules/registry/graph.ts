/** Rules of the "graph" group (see src/rules/index.ts). */
import type { Rule } from '../../engine/rule.js';
import constraintsEmptyGraph from '../constraints-empty-graph.js';

export const graphRules: Rule[] = [constraintsEmptyGraph];
