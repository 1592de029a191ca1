/**
 * One data-driven harness for every runtime code (src/runtime/codes.ts), like the rule harness:
 * each fixtures/runtime/<code>/<valid|invalid>/<case>/ holds a state file (`state.json`,
 * `state.yaml`), a trace (`trace.jsonl`) or a recorded session (`session/`, the versions of a state
 * file, replayed as `watch --replay` replays them), checked in fixtures/runtime/project against the
 * skill its `options.yaml` names (default running-a; a trace: every skill unless it names one). A
 * valid case must produce no diagnostic at all; an invalid case exactly the diagnostics of its code
 * that its expected.yaml lists, in order: line, column, message, messageId, the pointer when there is
 * one, the file (a session's version; else the case's own file) and the severity (else the code's default).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkState } from '../src/api/state.js';
import { checkTrace } from '../src/commands/trace.js';
import { checkSession } from '../src/commands/watch.js';
import { runtimeCodes } from '../src/runtime/codes.js';
import type { Report } from '../src/reporters/types.js';
import { listCases, RUNTIME_FIXTURES, RUNTIME_PROJECT } from './helpers/fixtures.js';

/** Runtime codes whose valid and invalid cases need a project of their own, and the test file that has them. */
const TESTED_ELSEWHERE: Readonly<Record<string, string>> = { 'trace-agent-skill-denied': 'test/agents.test.ts' };
const ROOT_DIR = join(import.meta.dirname, '..');

async function runCase(dir: string): Promise<Report> {
  const options = existsSync(join(dir, 'options.yaml'))
    ? (parse(readFileSync(join(dir, 'options.yaml'), 'utf8')) as { skill?: string })
    : {};
  const file = readdirSync(dir).find((f) => /^(state\.(json|ya?ml)|trace\.jsonl|session)$/u.test(f));
  if (!file) throw new Error(`${dir}: no state.json, state.yaml, trace.jsonl or session/`);
  if (file === 'session') return checkSession(join(dir, file), { project: RUNTIME_PROJECT, skill: options.skill ?? 'running-a' });
  if (file === 'trace.jsonl') return checkTrace(join(dir, file), { project: RUNTIME_PROJECT, ...options });
  return checkState(join(dir, file), { project: RUNTIME_PROJECT, skill: options.skill ?? 'running-a' });
}

for (const meta of runtimeCodes) {
  describe(meta.code, () => {
    const cases = listCases(meta.code, RUNTIME_FIXTURES);
    it('has at least one valid and one invalid fixture', () => {
      // a code whose cases need a project of its own (agent files) is tested both ways in that file
      const elsewhere = TESTED_ELSEWHERE[meta.code];
      if (elsewhere !== undefined) {
        expect(readFileSync(join(ROOT_DIR, elsewhere), 'utf8'), elsewhere).toContain(`'${meta.code}'`);
        return;
      }
      expect(cases.filter((c) => c.kind === 'valid').length).toBeGreaterThan(0);
      expect(cases.filter((c) => c.kind === 'invalid').length).toBeGreaterThan(0);
    });
    for (const c of cases) {
      it(`${c.kind}/${c.name}`, async () => {
        const report = await runCase(c.dir);
        if (c.kind === 'valid') {
          expect(report.diagnostics.map((d) => `${d.line}:${d.column} ${d.message} [${d.code}]`)).toEqual([]);
          return;
        }
        const got = report.diagnostics
          .filter((d) => d.code === meta.code)
          .map((d) => ({
            file: basename(d.file),
            line: d.line,
            column: d.column,
            pointer: d.pointer,
            message: d.message,
            messageId: d.messageId,
            severity: d.severity,
          }));
        expect(c.expected.length, 'an invalid case must list what it expects').toBeGreaterThan(0);
        // nothing of the expectation comes from the output: a field left out is the case's own file
        // (a session's files are named), no pointer, the code's default severity
        const input = readdirSync(c.dir).find((f) => /^(state\.(json|ya?ml)|trace\.jsonl)$/u.test(f));
        const want = c.expected.map((e) => ({
          file: e.file ?? input,
          line: e.line,
          column: e.column,
          pointer: e.pointer,
          message: e.message,
          messageId: e.messageId,
          severity: e.severity ?? meta.defaultSeverity,
        }));
        expect(got).toEqual(want);
      });
    }
  });
}
