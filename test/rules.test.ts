/**
 * One data-driven harness for every rule: each fixtures/rules/<code>/<valid|invalid>/<case>/ is a
 * project. Only the rule under test runs. A case with a .loopkit.yaml is checked as its config
 * says; a case without one under each preset chosen by name (loop-language and agent-skills), so
 * every severity a preset gives is tested. A valid case must produce nothing under any of them; an
 * invalid case exactly the diagnostics its expected.yaml lists, in output order: file, line,
 * column, message and severity (required), messageId and help (when given). `severity` is one
 * value for every preset, or one per preset (`off`: not reported under that preset); `message`
 * and `help` likewise (the targets of a skill can make a finding `not portable` under one preset).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRESET_NAMES } from '../src/config/presets.js';
import { lint } from '../src/api/engine.js';
import { rules } from '../src/rules/index.js';
import { listCases, type ExpectedDiagnostic, type FixtureCase } from './helpers/fixtures.js';

const SEVERITIES = ['error', 'warning', 'info', 'off'];

/** The ways a case is checked: its own config, or each preset by name. */
function contexts(c: FixtureCase): { name: string; preset?: string }[] {
  if (existsSync(join(c.dir, '.loopkit.yaml'))) return [{ name: 'its .loopkit.yaml' }];
  return PRESET_NAMES.map((p) => ({ name: p, preset: p }));
}

/** A text an entry expects in a context: one for every preset, or one per preset. */
function expectedText(v: string | Record<string, string>, context: { name: string; preset?: string }, where: string): string {
  if (typeof v === 'string') return v;
  if (context.preset === undefined) throw new Error(`${where}: a case with a .loopkit.yaml has one text, not one per preset`);
  const text = v[context.preset];
  if (text === undefined) throw new Error(`${where}: no text for preset ${context.preset}`);
  return text;
}

/** The severity an entry expects in a context ('off': not reported there). */
function expectedSeverity(e: ExpectedDiagnostic, context: { name: string; preset?: string }, where: string): string {
  const s = e.severity;
  if (s === undefined) throw new Error(`${where}: every expected diagnostic needs a severity`);
  if (typeof s === 'string') {
    if (!SEVERITIES.includes(s) || s === 'off') throw new Error(`${where}: severity '${s}' is not error, warning or info`);
    return s;
  }
  if (context.preset === undefined) throw new Error(`${where}: a case with a .loopkit.yaml has one severity, not one per preset`);
  const keys = Object.keys(s).sort();
  if (keys.join() !== [...PRESET_NAMES].sort().join()) throw new Error(`${where}: severity per preset names ${PRESET_NAMES.join(', ')}`);
  const v = s[context.preset]!;
  if (!SEVERITIES.includes(v)) throw new Error(`${where}: severity '${v}' is not error, warning, info or off`);
  return v;
}

for (const rule of rules) {
  describe(rule.meta.code, () => {
    const cases = listCases(rule.meta.code);
    /** the messages the rule produced in these cases */
    const produced = new Set<string>();
    it('has at least one valid and one invalid fixture', () => {
      expect(cases.filter((c) => c.kind === 'valid').length).toBeGreaterThan(0);
      expect(cases.filter((c) => c.kind === 'invalid').length).toBeGreaterThan(0);
    });
    for (const c of cases) {
      it(`${c.kind}/${c.name}`, async () => {
        if (c.kind === 'invalid') expect(c.expected.length, 'an invalid case must list what it expects').toBeGreaterThan(0);
        let reported = 0;
        for (const context of contexts(c)) {
          const result = await lint({ root: c.dir, only: [rule.meta.code], ...(context.preset ? { preset: context.preset } : {}) });
          for (const d of result.diagnostics) {
            produced.add(d.messageId!);
            // every {placeholder} of the message's templates got a value (the rule's data fills them all)
            const tpl = rule.meta.messages[d.messageId!]!;
            const placeholders = `${tpl.message} ${tpl.help ?? ''}`.match(/\{\w+\}/gu) ?? [];
            for (const ph of placeholders) expect(d.data ?? {}, `${d.messageId}: ${ph}`).toHaveProperty(ph.slice(1, -1));
          }
          const got = result.diagnostics.map((d, i) => {
            const e = c.expected.filter((x) => expectedSeverity(x, context, c.name) !== 'off')[i];
            return {
              code: d.code,
              file: d.file,
              line: d.line,
              column: d.column,
              message: d.message,
              severity: d.severity,
              // compared when the fixture gives them
              ...(e?.messageId !== undefined ? { messageId: d.messageId } : {}),
              ...(e?.help !== undefined ? { help: d.help } : {}),
            };
          });
          const want = c.expected.flatMap((e, i) => {
            const where = `${c.kind}/${c.name} entry ${i + 1}`;
            if (e.message === undefined) throw new Error(`${where}: every expected diagnostic needs its message`);
            const severity = expectedSeverity(e, context, where);
            if (severity === 'off') return [];
            return [
              {
                code: rule.meta.code,
                file: e.file,
                line: e.line,
                column: e.column,
                message: expectedText(e.message, context, where),
                severity,
                ...(e.messageId !== undefined ? { messageId: e.messageId } : {}),
                ...(e.help !== undefined ? { help: expectedText(e.help, context, where) } : {}),
              },
            ];
          });
          expect(got, `checked with ${context.name}`).toEqual(want);
          reported += got.length;
        }
        // an invalid case shows the problem under some preset (a list of `off`s tests nothing)
        if (c.kind === 'invalid') expect(reported).toBeGreaterThan(0);
      });
    }
    it('every message of the rule is produced by one of its invalid fixtures', () => {
      expect([...produced].sort()).toEqual(Object.keys(rule.meta.messages).sort());
    });
  });
}
