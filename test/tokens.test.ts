/**
 * Token counts (src/util/tokens.ts): measured with the cl100k_base tokenizer, compared here with
 * the tokenizer package itself (never with a figure written into the test), loaded only when a
 * count can matter, and placed at the character where a budget runs out.
 */
import fc from 'fast-check';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import * as reference from 'gpt-tokenizer/encoding/cl100k_base';
import { lint } from '../src/api/engine.js';
import { charLength } from '../src/util/text.js';
import { PIECES } from '../src/util/cl100k-pieces.js';
import { countTokens, offsetAfterTokens, tokenBound, tokensOver, tokensPast } from '../src/util/tokens.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'rules');
const asText = { disallowedSpecial: new Set<string>() };
const tokens = (s: string) => reference.countTokens(s, asText);
const CORPUS = join(import.meta.dirname, '..', '..', 'shared', 'corpus');

/** Every SKILL.md of the rule fixtures and (when it is there) the corpus. */
function skillFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name === 'SKILL.md') out.push(join(dir, e.name));
    }
  };
  walk(FIXTURES);
  if (existsSync(CORPUS)) walk(CORPUS);
  return out;
}

describe('lazy loading', () => {
  it('loads no tokenizer for texts whose UTF-8 length is within the limit', async () => {
    vi.resetModules();
    const fresh = await import('../src/util/tokens.js');
    expect(fresh.tokenizerLoaded()).toBe(false);
    // 5000 bytes of Japanese (3 bytes a character) cannot be over 5000 tokens
    expect(fresh.tokensOver('説'.repeat(1666), 5000)).toBeNull();
    expect(fresh.tokensOver('x'.repeat(5000), 5000)).toBeNull();
    expect(fresh.tokenizerLoaded()).toBe(false);
    // over 5000 bytes, but 2,502 pieces that are one token each (`x`, 2,500 × ` x`, the last space): within the bound, not counted
    expect(fresh.tokenBound('x '.repeat(2501))).toBe(2502);
    expect(fresh.tokensOver('x '.repeat(2501), 5000)).toBeNull();
    expect(fresh.tokenizerLoaded()).toBe(false);
    // over the bound (pieces the bound does not know count a token a byte): counted, and within the limit
    expect(fresh.tokenBound(' qzxv'.repeat(1001))).toBeGreaterThan(5000);
    expect(fresh.tokensOver(' qzxv'.repeat(1001), 5000)).toBeNull();
    expect(fresh.tokenizerLoaded()).toBe(true);
  });
});

describe('the bound without the tokenizer', () => {
  it('is never below the count (property, and every SKILL.md of the fixtures and the corpus)', () => {
    const text = fc
      .array(fc.oneof(fc.string(), fc.constantFrom(' the', 'review', '**Rules:**', '  ', '\n\n', '説明', '🚀', "'s", '12345')), {
        maxLength: 80,
      })
      .map((a) => a.join(''));
    fc.assert(fc.property(text, (t) => tokenBound(t) >= tokens(t)));
    for (const file of skillFiles()) {
      const t = readFileSync(file, 'utf8');
      expect(tokenBound(t), file).toBeGreaterThanOrEqual(tokens(t));
    }
  });

  // in the mutation run every source file is marked `// @ts-nocheck` in place (vitest.stryker.config.ts)
  it.skipIf(process.env.LOOPKIT_MUTATION_RUN === '1')(
    'src/util/cl100k-pieces.ts is what scripts/token-pieces.mjs makes of the installed tokenizer, and each of its pieces is one token',
    async () => {
      const { tokenPiecesModule } = (await import('../scripts/token-pieces.mjs')) as { tokenPiecesModule: () => string };
      expect(readFileSync(join(import.meta.dirname, '..', 'src', 'util', 'cl100k-pieces.ts'), 'utf8')).toBe(tokenPiecesModule());
      for (const piece of PIECES.split('\u007f')) expect(reference.encode(piece, asText), piece).toHaveLength(1);
      // and the bound finds every one of them (a piece that is a token counts one)
      for (const piece of PIECES.split('\u007f')) expect(tokenBound(piece), piece).toBe(1);
    },
  );
});

describe('counts', () => {
  it('agree with the tokenizer, over the limit and not (property)', () => {
    const text = fc
      .array(fc.oneof(fc.string(), fc.constantFrom('説明', 'スキル', 'review', '<|endoftext|>', '🚀', '\n')), { maxLength: 60 })
      .map((a) => a.join(''));
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 80 }), (t, limit) => {
        const n = tokens(t);
        expect(countTokens(t)).toBe(n);
        expect(tokensOver(t, limit)).toBe(n > limit ? n : null);
      }),
      { numRuns: 200, seed: 20261125 },
    );
  });

  it('reads special tokens as ordinary text', () => {
    expect(countTokens('Stop at <|endoftext|> and <|fim_prefix|>.')).toBeGreaterThan(5);
  });

  it('places the end of a budget at a character boundary, never inside a surrogate pair', () => {
    const text = `${'🚀'.repeat(30)}${'説明'.repeat(30)}`;
    for (let n = 0; n <= 120; n++) {
      const at = offsetAfterTokens(text, n);
      const c = text.charCodeAt(at);
      expect(c >= 0xdc00 && c <= 0xdfff, `offset ${at} for ${n} tokens`).toBe(false);
      expect(tokens(text.slice(0, at))).toBeLessThanOrEqual(n + 1);
    }
    expect(offsetAfterTokens('short', 100)).toBe(5);
  });

  it('tokensPast gives what tokensOver and offsetAfterTokens give, from one encoding', () => {
    const texts = ['short', 'x '.repeat(3000), `${'🚀'.repeat(400)}${'説明'.repeat(900)}`, 'word '.repeat(5499), 'word '.repeat(5501)];
    for (const t of texts)
      for (const [limit, budget] of [
        [100, 50],
        [5500, 5000],
      ] as const) {
        const over = tokensOver(t, limit);
        expect(tokensPast(t, limit, budget), `${t.slice(0, 12)}… ${limit}`).toEqual(
          over === null ? null : { tokens: over, offset: offsetAfterTokens(t, budget) },
        );
      }
  });

  it('gives the same place every time, whatever was measured before (the decoder keeps no cut character)', () => {
    const rockets = `intro\n${'🚀'.repeat(40)}`;
    const first = offsetAfterTokens(rockets, 31);
    expect(rockets.charCodeAt(first - 1)).not.toBe(0xd83d);
    expect(offsetAfterTokens(rockets, 31)).toBe(first);
    expect(offsetAfterTokens('plain text after it', 2)).toBe('plain text'.length);
  });
});

describe('Chinese and Japanese skills', () => {
  it('a ~7,000-token Japanese SKILL.md is over the 5000-token budget (characters ÷ 4 said ~1,600)', async () => {
    const dir = join(FIXTURES, 'skill-body-too-many-tokens', 'invalid', 'japanese-skill');
    const text = readFileSync(join(dir, 'skills', 'reviewing-code', 'SKILL.md'), 'utf8');
    const n = tokens(text);
    expect(n).toBeGreaterThan(6500);
    expect(charLength(text) / 4).toBeLessThan(5000);
    const result = await lint({ root: dir, only: ['skill-body-too-many-tokens'], preset: 'loop-language' });
    expect(result.diagnostics.map((d) => d.message)).toEqual([expect.stringContaining(`SKILL.md is ~${n} tokens`)]);
  });

  it.each([
    ['Chinese', '审查拉取请求中的代码变更，检查测试覆盖、错误处理、命名一致性和输入校验，并为每个问题给出具体的修改建议。'],
    ['Japanese', 'プルリクエストの変更を読み、テストの不足、エラー処理、命名の一貫性、入力の検証を確認し、指摘ごとに修正案を書く。'],
  ])('a ~200-token %s description is counted near 200 (characters ÷ 4 said ~50)', (_, sentence) => {
    let description = sentence;
    while (tokens(`name: reviewing-code\ndescription: ${description}`) < 190) description += sentence;
    const framed = `name: reviewing-code\ndescription: ${description}`;
    const n = tokens(framed);
    expect(n).toBeGreaterThan(180);
    expect(n).toBeLessThan(280);
    expect(tokensOver(framed, 100)).toBe(n);
    expect((charLength(description) + charLength('reviewing-code') + 10) / 4).toBeLessThan(100);
  });

  it('skill-metadata-too-many-tokens reports the count of the tokenizer itself', async () => {
    const dir = join(FIXTURES, 'skill-metadata-too-many-tokens', 'invalid', 'chinese-description');
    const text = readFileSync(join(dir, 'skills', 'reviewing-code', 'SKILL.md'), 'utf8');
    const description = /^description: (.*)$/mu.exec(text)![1]!;
    const n = tokens(`name: reviewing-code\ndescription: ${description}`);
    expect(n).toBeGreaterThan(150);
    const result = await lint({ root: dir, only: ['skill-metadata-too-many-tokens'], preset: 'loop-language' });
    expect(result.diagnostics.map((d) => d.message)).toEqual([expect.stringContaining(`is ~${n} tokens`)]);
  });
});
