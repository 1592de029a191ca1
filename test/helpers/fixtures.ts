/** Fixture discovery for the rule harness: fixtures/rules/<code>/{valid,invalid}/<case>/ */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');
export const RULE_FIXTURES = join(FIXTURES, 'rules');

export interface ExpectedDiagnostic {
  file: string;
  line: number | null;
  column: number | null;
  message?: string;
  messageId?: string;
  severity?: string;
}

export interface FixtureCase {
  code: string;
  kind: 'valid' | 'invalid';
  name: string;
  dir: string;
  expected: ExpectedDiagnostic[];
}

const dirs = (p: string) =>
  existsSync(p)
    ? readdirSync(p)
        .filter((n) => statSync(join(p, n)).isDirectory())
        .sort()
    : [];

export function ruleFixtureCodes(): string[] {
  return dirs(RULE_FIXTURES);
}

export function listCases(code: string): FixtureCase[] {
  const out: FixtureCase[] = [];
  for (const kind of ['valid', 'invalid'] as const) {
    for (const name of dirs(join(RULE_FIXTURES, code, kind))) {
      const dir = join(RULE_FIXTURES, code, kind, name);
      const exp = join(dir, 'expected.yaml');
      const expected = existsSync(exp) ? ((parse(readFileSync(exp, 'utf8')) ?? []) as ExpectedDiagnostic[]) : [];
      out.push({ code, kind, name, dir, expected });
    }
  }
  return out;
}
