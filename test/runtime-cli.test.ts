/**
 * End-to-end for the runtime commands (`loopkit state`, `loopkit trace`): the command line's main,
 * exit codes, output formats, and bad input (one line on stderr, exit 2, no stack trace).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { noStack, ROOT, run as runCli, type Run } from './helpers/cli.js';

/** `loopkit <args>` in `cwd` (test/helpers/cli.ts: in this process, with the test's environment). */
const run = (args: string[], cwd = ROOT): Promise<Run> => runCli(args, { cwd });

/** exit 2 with exactly one line on stderr, containing `text`, and nothing on stdout */
const usageError = (r: Run, text: string) => {
  expect(r.status).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).toContain(text);
  noStack(r);
};

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'loopkit-runtime-'));
  temps.push(d);
  return d;
}

describe('loopkit state', () => {
  it('0 for the real state files; the project is the nearest .loopkit.yaml above the file, the skill the only one with a schema', async () => {
    const a = await run(['state', 'examples/loop-controller/loop-state.json', '--skill', 'controlling-loops']);
    expect(a.stdout).toMatch(
      /^PASS {2}0 errors, 0 warnings, 0 info {2}· {2}\d+ values checked against the Loop State Schema of controlling-loops$/m,
    );
    expect(a.status).toBe(0);
    const b = await run(['state', '.loop/state.json'], join(ROOT, 'examples', 'loop'));
    expect(b.status).toBe(0);
    expect(b.stdout).toContain('checked against the Loop State Schema of iterating-autonomously');
  });

  it('1 for an invalid sample; every problem line starts with file:line:col', async () => {
    const r = await run(['state', 'examples/loop/samples/state-invalid.json', '--no-color']);
    expect(r.status).toBe(1);
    const problems = r.stdout.split('\n').filter((l) => /: (error|warning|info): /.test(l));
    expect(problems.length).toBe(8);
    for (const l of problems)
      expect(l).toMatch(/^examples\/loop\/samples\/state-invalid\.json:\d+:\d+: (error|warning): .+ {2}\[state-file-[a-z-]+\]$/);
    expect(r.stdout).toContain(
      'examples/loop/samples/state-invalid.json:13:13: error: `/status` is the string "running", which the state-value table of `iterating-autonomously` does not map to a state  [state-file-unknown-state]',
    );
    expect(r.stdout).toContain('    at examples/loop/skills/iterating-autonomously/LOOP.md:27:3: declared here: status | state');
    noStack(r);
  });

  it('every output format of check: JSON with the pointer, SARIF with a logical location, GitHub annotations', async () => {
    const args = ['state', 'examples/loop-controller/samples/state-invalid.json'];
    const json = JSON.parse((await run([...args, '--json'])).stdout) as {
      diagnostics: { code: string; location: { path: string; line: number; column: number; pointer?: string }; docs: string }[];
      summary: { errors: number; warnings: number };
    };
    expect(json.summary).toMatchObject({ errors: 7, warnings: 1 });
    expect(json.diagnostics[0]).toMatchObject({
      code: 'state-file-wrong-type',
      location: { path: 'examples/loop-controller/samples/state-invalid.json', line: 4, column: 18, pointer: '/githubIssue' },
      docs: 'docs/rules/state-file-wrong-type.md',
    });
    expect((await run([...args, '--format', 'json'])).stdout).toBe((await run([...args, '--json'])).stdout);
    const sarif = JSON.parse((await run([...args, '--format', 'sarif'])).stdout) as {
      runs: {
        tool: { driver: { rules: { id: string }[] } };
        results: { ruleId: string; ruleIndex: number; locations: { logicalLocations?: { fullyQualifiedName: string }[] }[] }[];
      }[];
    };
    const results = sarif.runs[0]!.results;
    expect(results.map((x) => x.ruleId)).toEqual(json.diagnostics.map((d) => d.code));
    for (const x of results) expect(sarif.runs[0]!.tool.driver.rules[x.ruleIndex]!.id).toBe(x.ruleId);
    expect(results[0]!.locations[0]!.logicalLocations).toEqual([{ fullyQualifiedName: '/githubIssue' }]);
    const github = (await run([...args, '--format', 'github'])).stdout;
    expect(github).toContain(
      '::error file=examples/loop-controller/samples/state-invalid.json,line=4,col=18,title=loopkit state-file-wrong-type::`/githubIssue` is the string "123"; the schema says `int`',
    );
    const a = await run([...args, '--json']);
    expect((await run([...args, '--json'])).stdout).toBe(a.stdout);
  });

  it('--max-warnings fails on undescribed fields', async () => {
    const dir = tempDir();
    cpSync(join(ROOT, 'examples', 'loop'), dir, { recursive: true });
    writeFileSync(
      join(dir, 'extra.json'),
      JSON.stringify({ ...(JSON.parse(readFileSync(join(ROOT, 'examples/loop/.loop/state.json'), 'utf8')) as object), extra: 1 }),
    );
    expect((await run(['state', 'extra.json'], dir)).status).toBe(0);
    const r = await run(['state', 'extra.json', '--max-warnings', '0'], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('1 warnings exceed --max-warnings 0');
  });

  it('shows the problems of the schema table itself (loop-invalid-state-schema) with the state file', async () => {
    const dir = tempDir();
    cpSync(join(ROOT, 'fixtures', 'runtime', 'project'), dir, { recursive: true });
    const loop = join(dir, 'skills', 'reviewing-b', 'LOOP.md');
    writeFileSync(loop, readFileSync(loop, 'utf8').replace('| verdict? | str |', '| verdict? | string |'));
    writeFileSync(join(dir, 'state.json'), '{ "stage": "done", "verdict": 3 }\n');
    const r = await run(['state', 'state.json', '--skill', 'reviewing-b', '--no-color'], dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("skills/reviewing-b/LOOP.md:9:14: warning: Unknown type 'string' for field `verdict`");
    // the field whose row cannot be read is not checked, so it is not described either
    expect(r.stdout).toContain('state.json:1:20: warning: `/verdict` is not described');
  });

  it('exit 2 with one line for input that cannot be checked', async () => {
    const dir = tempDir();
    usageError(await run(['state', 'no/such/state.json']), 'loopkit: error: state file not found: no/such/state.json');
    usageError(await run(['state', 'examples/loop']), 'state file is not a file: examples/loop');
    usageError(
      await run(['state', 'examples/loop/.loop/state.json', '--skill', 'iterating-autonomusly']),
      "unknown skill 'iterating-autonomusly'; did you mean 'iterating-autonomously'? (skills: iterating-autonomously)",
    );
    usageError(
      await run(['state', 'fixtures/runtime/state-file-malformed/valid/json/state.json', '--project', 'fixtures/runtime/project']),
      'name the skill with --skill (skills with a Loop State Schema table: reviewing-b, running-a)',
    );
    writeFileSync(join(dir, 'bytes.json'), Buffer.from([0x7b, 0xff, 0x7d]));
    usageError(await run(['state', join(dir, 'bytes.json'), '--project', 'examples/loop']), 'is not valid UTF-8 text');
    const plain = join(dir, 'plain');
    cpSync(join(ROOT, 'fixtures', 'projects', 'clean'), plain, { recursive: true });
    const loop = join(plain, 'skills', 'running-a', 'LOOP.md');
    writeFileSync(loop, readFileSync(loop, 'utf8').replace(/^\|.*\|\n/gmu, ''));
    usageError(
      await run(['state', join(dir, 'bytes.json'), '--project', plain, '--skill', 'running-a']),
      "skill 'running-a' cannot check a state file: skills/running-a/LOOP.md has no Loop State Schema table",
    );
    usageError(await run(['state', 'examples/loop/.loop/state.json', '--project', 'no/such/dir']), 'path not found: no/such/dir');
    const broken = await run(['state', join(dir, 'bytes.json'), '--project', 'fixtures/projects/bad-type']);
    expect(broken.status).toBe(2);
    expect(broken.stderr).toContain('max_iterations');
    noStack(broken);
  });

  it('a broken state file is a located diagnostic (exit 1), not a crash', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'deep'));
    writeFileSync(join(dir, 'deep', 'state.json'), '['.repeat(100000));
    const r = await run(['state', join(dir, 'deep', 'state.json'), '--project', 'examples/loop', '--no-color']);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      ':1:514: error: The state file is not valid JSON: values are nested deeper than 512 levels  [state-file-malformed]',
    );
    noStack(r);
  });

  it('never writes into the checked project', async () => {
    const dir = tempDir();
    cpSync(join(ROOT, 'examples', 'loop-controller'), dir, { recursive: true });
    const before = spawnSync('find', [dir, '-printf', '%P %s %T@\\n'], { encoding: 'utf8' }).stdout;
    expect((await run(['state', 'loop-state.json'], dir)).status).toBe(0);
    expect((await run(['state', join('samples', 'state-invalid.json'), '--json'], dir)).status).toBe(1);
    expect(spawnSync('find', [dir, '-printf', '%P %s %T@\\n'], { encoding: 'utf8' }).stdout).toBe(before);
  });

  it('is listed in --help', async () => {
    const r = await run(['--help']);
    expect(r.stdout).toMatch(/^ {2}state \[options\] <file>/m);
    expect((await run(['state', '--help'])).stdout).toContain('--skill <name>');
  });
});

describe('loopkit trace', () => {
  it('0 for a valid run, 1 for a run that broke the contract, 0 with an info for a run still running', async () => {
    const ok = await run(['trace', 'examples/loop-controller/samples/trace-valid.jsonl']);
    expect(ok.stdout).toBe('PASS  0 errors, 0 warnings, 0 info  ·  19 steps checked against the contract of 1 skill\n');
    expect(ok.status).toBe(0);
    const bad = await run(['trace', 'examples/loop-controller/samples/trace-invalid.jsonl', '--no-color']);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain(
      "examples/loop-controller/samples/trace-invalid.jsonl:20:11: error: The run spent 4 iterations in 'loop-failed'; the contract halts after 3 (halt human-gate after 3 iterations)  [trace-halt-bound-exceeded]",
    );
    expect(bad.stdout).toContain("    hint: After 3 iterations in 'loop-failed' the run must take loop-failed → halted-human-gate.");
    const problems = bad.stdout.split('\n').filter((l) => /: (error|warning|info): /.test(l));
    for (const l of problems)
      expect(l).toMatch(/^examples\/loop-controller\/samples\/trace-invalid\.jsonl:\d+:\d+: error: .+ {2}\[trace-[a-z-]+\]$/);
    const running = await run(['trace', 'samples/trace-running.jsonl', '--no-color'], join(ROOT, 'examples', 'loop'));
    expect(running.status).toBe(0);
    expect(running.stdout).toContain(
      "samples/trace-running.jsonl:4:11: info: The run is still running: its last step is in 'loop-iterating', neither a terminal nor a halted state  [trace-still-running]",
    );
    noStack(bad);
  });

  it('--skill checks only the steps of that skill, against its own transitions', async () => {
    const r = await run([
      'trace',
      'fixtures/runtime/trace-undeclared-transition/valid/one-skill/trace.jsonl',
      '--project',
      'fixtures/runtime/project',
      '--skill',
      'running-a',
    ]);
    expect(r.stdout).toBe('PASS  0 errors, 0 warnings, 0 info  ·  3 steps checked against the transitions of running-a\n');
    const all = await run([
      'trace',
      'fixtures/runtime/trace-undeclared-transition/valid/one-skill/trace.jsonl',
      '--project',
      'fixtures/runtime/project',
    ]);
    expect(all.status).toBe(1);
    expect(all.stdout).toContain('[trace-undeclared-transition]');
  });

  it('a log outside the current directory is checked in the project of the current directory', async () => {
    const dir = tempDir();
    cpSync(join(ROOT, 'examples', 'loop', 'samples', 'trace-valid.jsonl'), join(dir, 'run.jsonl'));
    const r = await run(['trace', join(dir, 'run.jsonl')], join(ROOT, 'examples', 'loop'));
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('PASS  0 errors, 0 warnings, 0 info  ·  10 steps checked against the contract of 1 skill\n');
  });

  it('every output format of check', async () => {
    const args = ['trace', 'examples/loop/samples/trace-invalid.jsonl'];
    const json = JSON.parse((await run([...args, '--json'])).stdout) as {
      skills_checked: number;
      verifications: number;
      diagnostics: { code: string; location: { path: string; line: number; column: number; pointer?: string } }[];
    };
    expect(json.verifications).toBe(15);
    expect(json.diagnostics.map((d) => [d.code, d.location.line, d.location.pointer])).toEqual([
      ['trace-halt-bound-exceeded', 13, '/state'],
      ['trace-malformed-step', 14, undefined],
      ['trace-undeclared-transition', 16, '/state'],
    ]);
    expect(json.diagnostics[0]!.location.path).toBe('examples/loop/samples/trace-invalid.jsonl');
    const sarif = JSON.parse((await run([...args, '--format', 'sarif'])).stdout) as {
      runs: { results: { ruleId: string; level: string }[] }[];
    };
    expect(sarif.runs[0]!.results.map((x) => x.ruleId)).toEqual(json.diagnostics.map((d) => d.code));
    expect((await run([...args, '--format', 'github'])).stdout).toMatch(
      /^::error file=examples\/loop\/samples\/trace-invalid\.jsonl,line=13,col=11,title=loopkit trace-halt-bound-exceeded::The run spent 6 iterations/mu,
    );
    expect((await run(['trace', 'examples/loop/samples/trace-running.jsonl', '--format', 'github'])).stdout).toMatch(/^::notice /u);
  });

  it('exit 2 with one line for a log that cannot be checked', async () => {
    const dir = tempDir();
    usageError(await run(['trace', 'no/such/trace.jsonl']), 'loopkit: error: trace not found: no/such/trace.jsonl');
    usageError(await run(['trace', 'examples/loop/samples']), 'trace is not a file: examples/loop/samples');
    writeFileSync(join(dir, 'empty.jsonl'), '');
    usageError(
      await run(['trace', join(dir, 'empty.jsonl'), '--project', 'examples/loop']),
      'is empty: a trace has one JSON step per line',
    );
    writeFileSync(join(dir, 'blank.jsonl'), '\n  \n\r\n');
    usageError(await run(['trace', join(dir, 'blank.jsonl'), '--project', 'examples/loop']), 'is empty');
    usageError(
      await run(['trace', 'examples/loop/samples/trace-valid.jsonl', '--skill', 'iterating']),
      "unknown skill 'iterating' (skills: iterating-autonomously)",
    );
    writeFileSync(join(dir, 'other.jsonl'), '{"state": "in-review", "skill": "reviewing-b"}\n');
    usageError(
      await run(['trace', join(dir, 'other.jsonl'), '--project', 'fixtures/runtime/project', '--skill', 'running-a']),
      "has no step of skill 'running-a'",
    );
  });

  it('malformed lines are located diagnostics (exit 1), never a crash', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'bad.jsonl'),
      Buffer.concat([Buffer.from('{"state": "loop-init"}\n{"state": \n'), Buffer.from([0xff, 0x0a]), Buffer.from('[[[[[[\n')]),
    );
    const r = await run(['trace', join(dir, 'bad.jsonl'), '--project', 'examples/loop-controller', '--no-color']);
    expect(r.status).toBe(1);
    const lines = r.stdout.split('\n').filter((l) => /: (error|info): /.test(l));
    expect(lines.map((l) => l.replace(/^.*bad\.jsonl:/u, ''))).toEqual([
      "1:11: info: The run is still running: its last step is in 'loop-init', neither a terminal nor a halted state  [trace-still-running]",
      '2:11: error: Line 2 is not valid JSON: unexpected end of the line: a value is missing  [trace-malformed-step]',
      '3:1: error: Line 3 is not valid UTF-8 text  [trace-malformed-step]',
      '4:7: error: Line 4 is not valid JSON: unexpected end of the line: a value is missing  [trace-malformed-step]',
    ]);
    noStack(r);
  });

  it('is listed in --help, and never writes into the project', async () => {
    expect((await run(['--help'])).stdout).toMatch(/^ {2}trace \[options\] <log>/m);
    const dir = tempDir();
    cpSync(join(ROOT, 'examples', 'loop'), dir, { recursive: true });
    const before = spawnSync('find', [dir, '-printf', '%P %s %T@\\n'], { encoding: 'utf8' }).stdout;
    expect((await run(['trace', join('samples', 'trace-invalid.jsonl')], dir)).status).toBe(1);
    expect(spawnSync('find', [dir, '-printf', '%P %s %T@\\n'], { encoding: 'utf8' }).stdout).toBe(before);
  });
});
