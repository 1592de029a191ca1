/** Report formats and where reports go: compact, junit, --quiet, --output-file, --docs, SARIF rule help. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { noStack, ROOT, run, Temps } from './helpers/cli.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

const WITH_ERRORS = 'fixtures/projects/with-errors';
const XSD = join(ROOT, 'test', 'fixtures', 'junit.xsd');
const hasXmllint = spawnSync('xmllint', ['--version'], { encoding: 'utf8' }).status === 0;

describe('--format compact', () => {
  it('one line per problem, as ESLint writes it, then the count', async () => {
    const r = await run([WITH_ERRORS, '--format', 'compact']);
    expect(r.status).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toContain(
      "fixtures/projects/with-errors/skills/running-a/LOOP.md: line 4, col 1, Warning - State 'in-review' has a self-loop as its only transition (may loop forever) (sim-self-loop-only)",
    );
    const json = JSON.parse((await run([WITH_ERRORS, '--json'])).stdout) as { diagnostics: unknown[] };
    expect(lines.at(-1)).toBe(`${json.diagnostics.length} problems`);
    expect(lines.slice(0, -2).every((l) => /^\S+: line \d+, col \d+, (Error|Warning|Info) - .+ \([a-z0-9-]+\)$/u.test(l))).toBe(true);
  });

  it('prints nothing for a clean project', async () => {
    const r = await run(['fixtures/projects/clean', '--format', 'compact']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
  });
});

/** Attribute values of every element named `tag`. */
function elements(xml: string, tag: string): Record<string, string>[] {
  return [...xml.matchAll(new RegExp(`<${tag}((?:\\s+[\\w-]+="[^"]*")*)\\s*/?>`, 'gu'))].map((m) =>
    Object.fromEntries([...m[1]!.matchAll(/([\w-]+)="([^"]*)"/gu)].map((a) => [a[1]!, a[2]!])),
  );
}

describe('--format junit', () => {
  it.skipIf(!hasXmllint)('validates against the JUnit schema (test/fixtures/junit.xsd, with xmllint)', async () => {
    const dir = temps.dir();
    for (const project of [WITH_ERRORS, 'fixtures/projects/clean', 'fixtures/projects/unknown-key', '.']) {
      const file = join(dir, 'report.xml');
      writeFileSync(file, (await run([project, '--format', 'junit'])).stdout);
      const v = spawnSync('xmllint', ['--noout', '--schema', XSD, file], { encoding: 'utf8' });
      expect(v.stderr, project).toContain('validates');
      expect(v.status, project).toBe(0);
    }
  });

  it('without xmllint the schema check is skipped; this structural check always runs', async () => {
    if (!hasXmllint) console.warn('xmllint not found (Debian: apt-get install libxml2-utils): the JUnit XSD validation was skipped');
    const r = await run([WITH_ERRORS, '--format', 'junit']);
    expect(r.status).toBe(1);
    expect(r.stdout.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
    const [root] = elements(r.stdout, 'testsuites');
    const suites = elements(r.stdout, 'testsuite');
    const cases = elements(r.stdout, 'testcase');
    expect(Number(root!.tests)).toBe(cases.length);
    expect(suites.reduce((n, s) => n + Number(s.tests), 0)).toBe(cases.length);
    expect(suites.reduce((n, s) => n + Number(s.failures), 0)).toBe(Number(root!.failures));
    // one test case per rule and file; every file read is a suite (the clean SKILL.md passes)
    expect(suites.map((s) => s.name)).toEqual([
      'fixtures/projects/with-errors/.loopkit.yaml',
      'fixtures/projects/with-errors/skills/running-a/LOOP.md',
      'fixtures/projects/with-errors/skills/running-a/SKILL.md',
    ]);
    expect(cases.filter((c) => c.classname === 'fixtures/projects/with-errors/skills/running-a/LOOP.md').map((c) => c.name)).toEqual([
      'loop-missing-section',
      'sim-self-loop-only',
      'sim-unreachable-terminal',
      'state-undeclared-in-skill',
    ]);
    expect(r.stdout).toContain(`<failure type="warning" message="State 'in-review' has a self-loop`);
    expect(r.stdout.match(/<failure /gu)!.length).toBe(Number(root!.failures));
  });

  it('a clean project: every file passes', async () => {
    const r = await run(['fixtures/projects/clean', '--format', 'junit']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('<testsuites name="loopkit" tests="3" failures="0" errors="0" time="0">');
    expect(r.stdout).toContain('<testcase name="no problems" classname="fixtures/projects/clean/skills/running-a/LOOP.md" time="0"/>');
  });

  it('escapes markup in messages', async () => {
    const dir = temps.copy('clean');
    writeFileSync(
      join(dir, 'skills', 'running-a', 'SKILL.md'),
      '---\nname: running-a\ndescription: Runs <b>a</b> & "b". Use when testing.\n---\n## Description\n\nSee [LOOP.md](LOOP.md).\n\n## Rules\n\n1. x\n\n## State Model\n\n`in-dev` to `done`.\n',
    );
    const r = await run([dir, '--format', 'junit', '--rule', 'skill-description-xml-tag']);
    expect(r.stdout).toContain('&lt;b&gt;');
    expect(r.stdout).not.toMatch(/message="[^"]*<b>/u);
  });
});

describe('--quiet', () => {
  it('reports errors only; warnings still count for --max-warnings', async () => {
    const loud = await run([WITH_ERRORS, '--no-color']);
    const quiet = await run([WITH_ERRORS, '--no-color', '--quiet']);
    expect(loud.stdout).toContain('warning:');
    expect(quiet.stdout).not.toContain('warning:');
    expect(quiet.stdout).toContain('FAIL  8 errors, 0 warnings, 0 info');
    expect(quiet.status).toBe(1);
    const json = JSON.parse((await run([WITH_ERRORS, '--json', '-q'])).stdout) as { diagnostics: { severity: string }[] };
    expect(new Set(json.diagnostics.map((d) => d.severity))).toEqual(new Set(['Error']));
    const warnings = await run(['fixtures/projects/unknown-key', '--quiet', '--max-warnings', '0']);
    expect(warnings.stdout).toContain('PASS  0 errors, 0 warnings');
    expect(warnings.status).toBe(1);
  });

  it('also silences the preset note', async () => {
    const dir = temps.copy('plain-collection');
    expect((await run([dir])).stderr).toContain('preset agent-skills');
    expect((await run([dir, '--quiet'])).stderr).toBe('');
  });
});

describe('--output-file', () => {
  it('writes the report to the file (creating directories), nothing on stdout, never coloured', async () => {
    const dir = temps.dir();
    const file = join(dir, 'reports', 'deep', 'loopkit.sarif');
    const r = await run([WITH_ERRORS, '--format', 'sarif', '--output-file', file, '--color']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(readFileSync(file, 'utf8')).toBe((await run([WITH_ERRORS, '--format', 'sarif'])).stdout);
    const text = join(dir, 'report.txt');
    await run([WITH_ERRORS, '-o', text, '--color']);
    expect(readFileSync(text, 'utf8')).toBe((await run([WITH_ERRORS])).stdout);
  });

  it('a path that cannot be written is exit 2 with a message', async () => {
    const dir = temps.dir();
    mkdirSync(join(dir, 'a-directory'));
    const r = await run([WITH_ERRORS, '--output-file', join(dir, 'a-directory')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('cannot write --output-file');
    expect(r.stderr).toContain('it is a directory');
    noStack(r);
    expect(existsSync(join(dir, 'a-directory'))).toBe(true);
  });
});

describe('documentation links', () => {
  it('--docs shows the page of each problem and how to read it in the terminal', async () => {
    const r = await run([WITH_ERRORS, '--no-color', '--docs']);
    expect(r.stdout).toContain(
      [
        "fixtures/projects/with-errors/skills/running-a/LOOP.md:4:1: warning: State 'in-review' has a self-loop as its only transition (may loop forever)  [sim-self-loop-only]",
        '    hint: Add a transition to a different state so the loop can make progress.',
        '    at fixtures/projects/with-errors/skills/running-a/LOOP.md:3:1: step 1: in-dev → in-review',
        '    at fixtures/projects/with-errors/skills/running-a/LOOP.md:4:1: step 2: in-review → in-review',
        '    docs: docs/rules/sim-self-loop-only.md · loopkit explain sim-self-loop-only',
      ].join('\n'),
    );
    const problems = r.stdout.split('\n').filter((l) => /: (error|warning|info): /u.test(l)).length;
    expect(r.stdout.split('\n').filter((l) => l.startsWith('    docs: ')).length).toBe(problems);
    expect((await run([WITH_ERRORS, '--no-color'])).stdout).not.toContain('docs:');
  });

  it('SARIF rules carry helpUri and the documentation page as help', async () => {
    const doc = JSON.parse((await run([WITH_ERRORS, '--format', 'sarif'])).stdout) as {
      runs: { tool: { driver: { rules: { id: string; helpUri: string; help?: { markdown: string } }[] } } }[];
    };
    const rules = doc.runs[0]!.tool.driver.rules;
    expect(rules.length).toBeGreaterThan(50);
    for (const r of rules) {
      expect(r.helpUri).toBe(`docs/rules/${r.id}.md`);
      expect(r.help?.markdown).toBe(readFileSync(join(ROOT, 'docs', 'rules', `${r.id}.md`), 'utf8'));
    }
  });
});
