/** `loopkit/testing`: the rule tester for plugin authors (docs/api.md). */
export {
  RuleTester,
  type CaseFiles,
  type ExpectedProblem,
  type InvalidCase,
  type RuleCases,
  type RuleTesterOptions,
  type ValidCase,
} from './api/testing.js';
