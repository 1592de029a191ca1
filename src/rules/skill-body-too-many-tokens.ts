import { defineRule } from '../engine/rule.js';
import { charLength, positionAt } from '../util/text.js';

const MAX_TOKENS = 5000;
/** characters per estimated token */
const CHARS_PER_TOKEN = 4;

/** UTF-16 offset of the `n`-th (1-based) code point of `text`. */
function codePointOffset(text: string, n: number): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff && i > 0 && text.charCodeAt(i - 1) >= 0xd800 && text.charCodeAt(i - 1) <= 0xdbff) continue;
    if (++count === n) return i;
  }
  return text.length;
}

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
        help: 'The location is where the 5000-token budget runs out. Move detail below it into linked reference files.',
      },
    },
  },
  file: {
    kinds: ['skill'],
    check({ file, report }) {
      const text = file.text;
      // a quick bound first: a code point is one or two UTF-16 units
      if (text.length <= MAX_TOKENS * CHARS_PER_TOKEN) return;
      const tokens = Math.floor(charLength(text) / CHARS_PER_TOKEN);
      if (tokens <= MAX_TOKENS) return;
      // the character that takes the estimate over the budget
      const crossing = codePointOffset(text, (MAX_TOKENS + 1) * CHARS_PER_TOKEN);
      const { line, column } = positionAt(file.lineStarts, crossing);
      report({ messageId: 'tooMany', data: { tokens }, at: { file: file.path, line, column } });
    },
  },
});
