/**
 * The rule tester for plugin authors (`loopkit/testing`): each case is a small project written to a
 * temporary directory and checked with the core rules and the rule under test; the problems of that
 * rule must be exactly the expected ones — file, line, column, severity and message — and a case with
 * `output` must be repaired by `--fix` to exactly those texts. Runs under vitest, node:test, jest or
 * mocha: it registers one test per case with the `describe`/`it` it is given, or finds.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Severity } from '../engine/diagnostic.js';
import * as fix from '../engine/fix.js';
import * as run from '../engine/run.js';
import type { Rule } from '../engine/rule.js';
import { withPlugins } from './core-rules.js';
import { NAME, ruleProblem, wholeRule, type PluginRule } from './plugins.js';

/** A project for one case: project-relative path → text (`.loopkit.yaml` among them if the case needs one). */
export type CaseFiles = Readonly<Record<string, string>>;

export interface ValidCase {
  /** the test's name (default: the files' names) */
  name?: string;
  files: CaseFiles;
}

export interface ExpectedProblem {
  file: string;
  line: number | null;
  column: number | null;
  /** default: the rule's severity in the case's project */
  severity?: Severity;
  /** the message as reported; a RegExp to match it */
  message: string | RegExp;
}

export interface InvalidCase extends ValidCase {
  /** every problem of the rule, in loopkit's order (file, line, column) */
  errors: readonly ExpectedProblem[];
  /** the files `--fix` changes, with their text after it (files left out must not change) */
  output?: CaseFiles;
}

export interface RuleCases {
  valid: readonly ValidCase[];
  invalid: readonly InvalidCase[];
}

type Register = (name: string, fn: () => unknown) => unknown;

export interface RuleTesterOptions {
  /** the test framework's `describe` and `it` (default: the globals, else node:test's) */
  describe?: Register;
  it?: Register;
}

/** A problem as the tester compares it. */
interface Seen {
  file: string;
  line: number | null;
  column: number | null;
  severity: Severity;
  message: string;
}

export class RuleTester {
  private readonly describe: Register;
  private readonly it: Register;

  constructor(options: RuleTesterOptions = {}) {
    const g = globalThis as { describe?: Register; it?: Register };
    let describe = options.describe ?? g.describe;
    let it = options.it ?? g.it;
    if (!describe || !it) {
      const nodeTest = createRequire(import.meta.url)('node:test') as { describe: Register; it: Register };
      describe ??= nodeTest.describe;
      it ??= nodeTest.it;
    }
    this.describe = describe;
    this.it = it;
  }

  /**
   * Register the cases of a rule. `code` is the code it has in a project, `<plugin>/<rule>`
   * (`example/skill-owner-required`).
   */
  run(code: string, rule: PluginRule, cases: RuleCases): void {
    const whole = testedRule(code, rule);
    this.describe(code, () => {
      cases.valid.forEach((c, i) => {
        this.it(`valid: ${c.name ?? caseName(c, i)}`, async () => assert.deepStrictEqual(await problems(whole, c), []));
      });
      cases.invalid.forEach((c, i) => {
        this.it(`invalid: ${c.name ?? caseName(c, i)}`, async () => {
          const seen = await problems(whole, c);
          assert.deepStrictEqual(seen, expected(seen, c.errors), `the problems of ${code}`);
          if (c.output !== undefined) assert.deepStrictEqual(await fixed(whole, c), { ...c.output }, `the files ${code}'s fix changes`);
        });
      });
    });
  }
}

/** The rule under test as a plugin's rule in a project: code, defaults (a located Error for a rule that is not well-formed). */
export function testedRule(code: string, rule: PluginRule): Rule {
  const parts = code.split('/');
  if (parts.length !== 2 || !parts.every((p) => NAME.test(p)))
    throw new Error(`RuleTester: '${code}' is not a plugin's code: <plugin>/<rule>, lower-case letters, digits and hyphens`);
  const [plugin, key] = parts as [string, string];
  const problem = ruleProblem(key, rule);
  if (problem !== null) throw new Error(`RuleTester: ${code}: ${problem}`);
  return wholeRule(plugin, key, rule);
}

/** The problems the rule reports in a case's project, in loopkit's order. */
export async function problems(rule: Rule, c: ValidCase): Promise<Seen[]> {
  return inProject(c.files, async (root) => {
    const result = await run.lint({ root, ruleSet: withPlugins([rule]), only: [rule.meta.code], concurrency: 'off' });
    return result.diagnostics
      .filter((d) => d.code === rule.meta.code || d.code === 'internal-error')
      .map((d) => ({ file: d.file, line: d.line, column: d.column, severity: d.severity, message: d.message }));
  });
}

/** The texts `--fix` gives the files it changes in a case's project. */
async function fixed(rule: Rule, c: ValidCase): Promise<Record<string, string>> {
  return inProject(c.files, async (root) => {
    const out = await fix.computeFixes({ root, ruleSet: withPlugins([rule]), only: [rule.meta.code], concurrency: 'off' });
    return Object.fromEntries(out.fixes.map((f) => [f.path, f.after]));
  });
}

/** What the case expects, with a RegExp message that matches taken as the message seen (so that only a mismatch shows). */
function expected(seen: readonly Seen[], errors: readonly ExpectedProblem[]): Seen[] {
  return errors.map((e, i) => {
    const s = seen[i];
    const message = typeof e.message === 'string' ? e.message : s && e.message.test(s.message) ? s.message : String(e.message);
    return { file: e.file, line: e.line, column: e.column, severity: e.severity ?? s?.severity ?? 'warning', message };
  });
}

function caseName(c: ValidCase, i: number): string {
  return `#${i + 1} (${Object.keys(c.files).join(', ')})`;
}

/** Write a case's files to a new temporary directory, run `fn` on it, and remove it. */
async function inProject<T>(files: CaseFiles, fn: (root: string) => Promise<T>): Promise<T> {
  const root = mkdtempSync(join(tmpdir(), 'loopkit-rule-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      if (path.startsWith('/') || path.split('/').includes('..'))
        throw new Error(`RuleTester: '${path}' is not a path inside the case's project`);
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return await fn(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
