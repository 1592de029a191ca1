import { defineRule } from '../engine/rule.js';
import { positionAt } from '../util/text.js';
import { ENCODING, tokensPast } from '../util/tokens.js';

/** The Agent Skills guidance: the instructions "< 5000 tokens recommended" (agentskills.io/specification, Progressive disclosure). */
export const GUIDANCE_TOKENS = 5000;
/**
 * Reported when well past it: more than 10 % over. A count made with cl100k_base is an estimate of
 * Claude's (unpublished) tokenizer; of the judged findings at 5,001–5,500 tokens all were borderline,
 * past 5,500 true (docs/presets.md).
 */
export const REPORTED_OVER = 5500;

export default defineRule({
  meta: {
    code: 'skill-body-too-many-tokens',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'structure',
    reads: [],
    description: 'Limit SKILL.md to about 5000 tokens (Agent Skills guidance; reported past 5500)',
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
      // the count, and the character where the budget runs out: the start of token 5001
      const past = tokensPast(text, REPORTED_OVER, GUIDANCE_TOKENS);
      if (past === null) return;
      const { line, column } = positionAt(file.lineStarts, past.offset);
      report({ messageId: 'tooMany', data: { tokens: past.tokens }, at: { file: file.path, line, column } });
    },
  },
});
