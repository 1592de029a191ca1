/**
 * One data-driven harness for every rule: each fixtures/rules/<code>/<valid|invalid>/<case>/ is a
 * project. Only the rule under test runs. A valid case must produce nothing; an invalid case must
 * produce exactly the diagnostics in its expected.yaml (file, line, column, and message/messageId
 * when given), in output order.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lint } from '../src/engine/run.js';
import { rules } from '../src/rules/index.js';
import { listCases } from './helpers/fixtures.js';

for (const rule of rules) {
  describe(rule.meta.code, () => {
    const cases = listCases(rule.meta.code);
    it('has at least one valid and one invalid fixture', () => {
      expect(cases.filter((c) => c.kind === 'valid').length).toBeGreaterThan(0);
      expect(cases.filter((c) => c.kind === 'invalid').length).toBeGreaterThan(0);
    });
    for (const c of cases) {
      it(`${c.kind}/${c.name}`, async () => {
        // a fixture without a .loopkit.yaml is checked as a Loop Language project (the presets have fixtures of their own)
        const preset = existsSync(join(c.dir, '.loopkit.yaml')) ? {} : { preset: 'loop-language' };
        const result = await lint({ root: c.dir, only: [rule.meta.code], ...preset });
        const got = result.diagnostics.map((d) => ({
          code: d.code,
          file: d.file,
          line: d.line,
          column: d.column,
          message: d.message,
          messageId: d.messageId,
          severity: d.severity,
        }));
        if (c.kind === 'valid') {
          expect(got).toEqual([]);
          return;
        }
        expect(c.expected.length, 'an invalid case must list what it expects').toBeGreaterThan(0);
        const want = c.expected.map((e, i) => {
          const g = got[i];
          return {
            code: rule.meta.code,
            file: e.file,
            line: e.line,
            column: e.column,
            message: e.message ?? g?.message,
            messageId: e.messageId ?? g?.messageId,
            severity: e.severity ?? g?.severity,
          };
        });
        expect(got).toEqual(want);
      });
    }
  });
}
