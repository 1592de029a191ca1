import { defineRule } from '../engine/rule.js';
import { positionAt } from '../util/text.js';
import { ENCODING, offsetAfterTokens, tokensOver } from '../util/tokens.js';

const MAX_TOKENS = 5000;

export default defineRule({
  meta: {
    code: 'skill-body-too-many-tokens',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'structure',
    description: 'Limit SKILL.md to about 5000 tokens (Agent Skills guidance)',
    scope: 'skill',
    reference: 'improved',
    messages: {
      tooMany: {
        message:
          'SKILL.md is ~{tokens} tokens (recommended: <5000). Agents load the full body when activating the skill. Move detail to reference files',
        help: `The location is where the 5000-token budget runs out (tokens counted with ${ENCODING}). Move detail below it into linked reference files.`,
      },
    },
  },
  file: {
    kinds: ['skill'],
    check({ file, report }) {
      const text = file.text;
      const tokens = tokensOver(text, MAX_TOKENS);
      if (tokens === null) return;
      // the character where the budget runs out: the start of token 5001
      const { line, column } = positionAt(file.lineStarts, offsetAfterTokens(text, MAX_TOKENS));
      report({ messageId: 'tooMany', data: { tokens }, at: { file: file.path, line, column } });
    },
  },
});
