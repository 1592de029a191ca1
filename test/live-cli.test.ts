/**
 * The live commands end to end, through the real bin in a child process: `watch` following a state
 * file an agent writes (JSON Lines events on stdout, `--record`, `--until-end`, Ctrl-C), `watch
 * --replay` on the examples' recorded sessions, `trace --follow` on a growing log; bad input (one
 * line on stderr, exit 2, no stack trace); nothing written into the project unless asked.
 * The tests wait on the lines the process prints, never on time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, noStack, ROOT, run, Temps, type Run } from './helpers/cli.js';
import { EventQueue } from './helpers/events.js';

const temps = new Temps();
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});
afterAll(() => temps.cleanup());
const tempDir = () => temps.dir('loopkit-live-');

/** A copy of examples/loop-controller without its state file and session. */
const project = () => temps.copyOf(join(ROOT, 'examples', 'loop-controller'), 'loop-state.json', 'session');

/** exit 2 with exactly one line on stderr, containing `text`, and nothing on stdout */
const usageError = (r: Run, text: string) => {
  expect(r.stderr).toContain(text);
  expect(r.stdout).toBe('');
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.status).toBe(2);
  noStack(r);
};

/** A running loopkit: its stdout and stderr lines as they come, and its exit. */
function start(args: string[], cwd: string) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const out = new EventQueue<string>();
  const err = new EventQueue<string>();
  const lines = (stream: NodeJS.ReadableStream, q: EventQueue<string>) => {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop()!;
      for (const p of parts) q.push(p);
    });
  };
  lines(child.stdout!, out);
  lines(child.stderr!, err);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out, err, exited };
}

const SESSION = join(ROOT, 'examples', 'loop-controller', 'session');

describe('loopkit watch', () => {
  it('follows the state file an agent writes: JSON Lines events, the illegal move at its version, --record, --until-end (exit 1)', async () => {
    const dir = project();
    const record = join(tempDir(), 'run.jsonl');
    const p = start(['watch', 'loop-state.json', '--format', 'json', '--record', record, '--until-end'], dir);
    await p.err.next((l) => l.startsWith('loopkit: watching loop-state.json'), 'the watch to start');
    const versions = readdirSync(SESSION).sort();
    for (const [i, name] of versions.entries()) {
      writeFileSync(join(dir, 'loop-state.json'), readFileSync(join(SESSION, name)));
      await p.out.next(
        (l) => (JSON.parse(l) as { type: string; version?: number }).type === 'version' && JSON.parse(l).version === i + 1,
        `version ${i + 1}`,
      );
    }
    expect(await p.exited).toBe(1);
    const events = p.out.all().map((l) => JSON.parse(l) as Record<string, unknown>);
    const diagnostics = events.filter((e) => e.type === 'diagnostic');
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      version: 9,
      severity: 'Error',
      code: 'trace-undeclared-transition',
      location: { path: 'loop-state.json', line: 7, column: 12, pointer: '/state' },
      related: [
        { message: 'declared: loop-implement → loop-test', location: { path: 'skills/controlling-loops/LOOP.md', line: 104, column: 1 } },
      ],
    });
    expect(events.filter((e) => e.type === 'version').map((e) => e.version)).toEqual(versions.map((_, i) => i + 1));
    expect(events.at(-1)).toEqual({ type: 'summary', errors: 1, warnings: 0, info: 0, versions: 18 });
    expect(readFileSync(record, 'utf8').trimEnd().split('\n')).toHaveLength(18);
    // nothing but the state file the agent wrote is in the project
    expect(readdirSync(dir).sort()).toEqual(['.loopkit.yaml', 'loop-state.json', 'samples', 'skills']);
  });

  it('stops on Ctrl-C with the summary; a clean run exits 0', async () => {
    const dir = project();
    writeFileSync(join(dir, 'loop-state.json'), readFileSync(join(SESSION, '01-init.json')));
    const p = start(['watch', 'loop-state.json', '--no-color'], dir);
    await p.out.next((l) => l === 'version 1: loop-init', 'the first version');
    await p.err.next((l) => l.startsWith('loopkit: watching'), 'the watch to start');
    writeFileSync(join(dir, 'loop-state.json'), readFileSync(join(SESSION, '02-scaffold.json')));
    await p.out.next((l) => l === 'version 2: loop-init → loop-scaffold', 'the second version');
    p.child.kill('SIGINT');
    expect(await p.exited).toBe(0);
    expect(p.out.all().at(-1)).toBe(
      'PASS  0 errors, 0 warnings, 0 info  ·  2 versions of loop-state.json checked against controlling-loops',
    );
  });

  it('stops on SIGTERM with the summary too', async () => {
    const dir = project();
    writeFileSync(join(dir, 'loop-state.json'), readFileSync(join(SESSION, '01-init.json')));
    const p = start(['watch', 'loop-state.json', '--no-color'], dir);
    await p.out.next((l) => l === 'version 1: loop-init', 'the first version');
    await p.err.next((l) => l.startsWith('loopkit: watching'), 'the watch to start');
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(p.out.all().at(-1)).toBe(
      'PASS  0 errors, 0 warnings, 0 info  ·  1 version of loop-state.json checked against controlling-loops',
    );
  });

  it('--quiet prints no progress and no notes, only errors and the summary', async () => {
    const dir = project();
    // the last version of the session is a terminal state: --until-end ends at the first version
    writeFileSync(join(dir, 'loop-state.json'), readFileSync(join(SESSION, '18-complete.json')));
    const loud = start(['watch', 'loop-state.json', '--no-color', '--until-end'], dir);
    expect(await loud.exited).toBe(0);
    expect(loud.out.all()).toEqual([
      'version 1: loop-complete',
      'PASS  0 errors, 0 warnings, 0 info  ·  1 version of loop-state.json checked against controlling-loops',
    ]);
    expect(loud.err.all()).not.toEqual([]);
    const quiet = start(['watch', 'loop-state.json', '--no-color', '--until-end', '--quiet'], dir);
    expect(await quiet.exited).toBe(0);
    expect(quiet.out.all()).toEqual([
      'PASS  0 errors, 0 warnings, 0 info  ·  1 version of loop-state.json checked against controlling-loops',
    ]);
    expect(quiet.err.all()).toEqual([]);
  });

  it('--replay takes the versions in the order of their numbers (2 before 10), not of their names as text', async () => {
    const session = join(tempDir(), 'session');
    mkdirSync(session);
    readdirSync(SESSION)
      .sort()
      .forEach((name, i) => writeFileSync(join(session, `v${i + 1}.json`), readFileSync(join(SESSION, name))));
    const want = await run(['watch', '--replay', SESSION, '--json', '--project', join(ROOT, 'examples', 'loop-controller')]);
    const got = await run(['watch', '--replay', session, '--json', '--project', join(ROOT, 'examples', 'loop-controller')]);
    const codes = (r: Run) =>
      (JSON.parse(r.stdout) as { diagnostics: { code: string; location: { path: string } }[] }).diagnostics.map(
        (d) => `${d.code} ${d.location.path.split('/').pop()}`,
      );
    // the one illegal move of the session is its 9th version, wherever its file is
    expect(codes(want)).toEqual(['trace-undeclared-transition 09-verify.json']);
    expect(codes(got)).toEqual(['trace-undeclared-transition v9.json']);
    expect(got.status).toBe(1);
  });

  it('--replay checks a recorded session as one report, in every format of check', async () => {
    const r = await run(['watch', '--replay', 'examples/loop-controller/session', '--no-color']);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      "examples/loop-controller/session/09-verify.json:7:12: error: The run moved from 'loop-implement' to 'loop-verify', which is not a declared transition  [trace-undeclared-transition]",
    );
    expect(r.stdout).toMatch(
      /^FAIL {2}1 error, 0 warnings, 0 info {2}· {2}18 versions checked against the Loop State Schema of controlling-loops and the contract$/m,
    );
    const loop = await run(['watch', '--replay', 'examples/loop/session', '--format', 'json']);
    expect(loop.status).toBe(1);
    const report = JSON.parse(loop.stdout) as { diagnostics: { code: string; message: string; location: { path: string } }[] };
    expect(report.diagnostics.map((d) => [d.code, d.location.path])).toEqual([
      ['trace-undeclared-transition', 'examples/loop/session/06-iteration-5.json'],
      ['trace-still-running', 'examples/loop/session/06-iteration-5.json'],
    ]);
    expect(report.diagnostics[0]!.message).toBe(
      "The run moved from 'done' to 'in_progress' (loop-scoring, loop-iterating or loop-verifying), but 'done' is a terminal state",
    );
    const sarif = await run(['watch', '--replay', 'examples/loop-controller/session', '--format', 'sarif']);
    expect(sarif.status).toBe(1);
    expect((JSON.parse(sarif.stdout) as { runs: { results: unknown[] }[] }).runs[0]!.results).toHaveLength(1);
  });

  it('bad input: one located line on stderr, exit 2', async () => {
    const dir = project();
    usageError(await run(['watch', 'nowhere/loop-state.json'], { cwd: dir }), 'directory not found: nowhere');
    usageError(await run(['watch', 'skills'], { cwd: dir }), 'skills is a directory: watch a state file');
    usageError(
      await run(['watch', 'loop-state.json', '--skill', 'controling-loops'], { cwd: dir }),
      "unknown skill 'controling-loops'; did you mean 'controlling-loops'?",
    );
    usageError(
      await run(['watch', 'loop-state.json', '--format', 'sarif'], { cwd: dir }),
      'watch prints its findings as they come: --format text, json or github',
    );
    usageError(
      await run(['watch', 'loop-state.json', '--settle', 'soon'], { cwd: dir }),
      "--settle takes a number of milliseconds, not 'soon'",
    );
    usageError(await run(['watch', 'loop-state.json', '--record', 'skills'], { cwd: dir }), 'cannot write --record skills');
    usageError(await run(['watch'], { cwd: dir }), 'name the state file to watch (or --replay <session>)');
    usageError(
      await run(['watch', 'loop-state.json', '--replay', 'samples'], { cwd: dir }),
      'give a state file to watch, or --replay <session>, not both',
    );
    usageError(await run(['watch', '--replay', 'nowhere'], { cwd: dir }), 'session not found: nowhere');
    mkdirSync(join(dir, 'empty'));
    usageError(await run(['watch', '--replay', 'empty'], { cwd: dir }), 'session empty is empty');
    const broken = tempDir();
    writeFileSync(join(broken, '.loopkit.yaml'), 'max_iterations: [\n');
    const config = await run(['watch', 'state.json'], { cwd: broken });
    expect(config.status).toBe(2);
    expect(config.stderr).toMatch(/^loopkit: invalid configuration\n {2}\.loopkit\.yaml:\d+:\d+: /);
    noStack(config);
    expect(readdirSync(dir).sort()).toEqual(['.loopkit.yaml', 'empty', 'samples', 'skills']);
  });

  it('a recorded session version that is not JSON is located in its file', async () => {
    const dir = project();
    const session = join(dir, 'session');
    mkdirSync(session);
    writeFileSync(join(session, '1.json'), readFileSync(join(SESSION, '01-init.json')));
    writeFileSync(join(session, '2.json'), '{\n  "state": "SCAFFOLD",\n}\n');
    const r = await run(['watch', '--replay', 'session', '--no-color'], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('session/2.json:3:1: error: The state file is not valid JSON');
  });
});

describe('loopkit explain of the runtime codes the live commands report', () => {
  it('shows their pages too', async () => {
    const r = await run(['explain', 'trace-handoff-unhandled', '--no-color']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^trace-handoff-unhandled\n/);
    const typo = await run(['explain', 'trace-handof-unhandled']);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toBe("loopkit: error: unknown rule 'trace-handof-unhandled'; did you mean 'trace-handoff-unhandled'?\n");
  });
});

describe('loopkit trace --follow', () => {
  it('prints each problem as its line is written (JSON Lines), a line that is not JSON located; --until-end stops at the end of the run', async () => {
    const dir = project();
    const log = join(dir, 'run.jsonl');
    writeFileSync(log, '{"state": "loop-init"}\n');
    const p = start(['trace', 'run.jsonl', '--follow', '--until-end', '--format', 'json'], dir);
    await p.err.next((l) => l.startsWith('loopkit: following run.jsonl'), 'the follow to start');
    appendFileSync(log, '{"state": "loop-scaffold"}\n{"state": "loop-implement"\n');
    const bad = JSON.parse(await p.out.next((l) => l.includes('trace-malformed-step'), 'the broken line')) as Record<string, unknown>;
    expect(bad).toMatchObject({ type: 'diagnostic', line: 3, code: 'trace-malformed-step', location: { path: 'run.jsonl', line: 3 } });
    appendFileSync(log, '{"state": "loop-implement"}\n{"state": "loop-verify"}\n');
    const skipped = JSON.parse(await p.out.next((l) => l.includes('trace-undeclared-transition'), 'the undeclared move')) as Record<
      string,
      unknown
    >;
    expect(skipped).toMatchObject({ line: 5, location: { line: 5, column: 11 } });
    appendFileSync(log, '{"state": "loop-failed"}\n{"state": "loop-retry"}\n{"state": "loop-implement"}\n{"state": "loop-test"}\n');
    appendFileSync(log, '{"state": "loop-verify"}\n{"state": "loop-validate"}\n{"state": "loop-document"}\n{"state": "loop-review"}\n');
    appendFileSync(log, '{"state": "loop-ship"}\n{"state": "loop-complete"}\n');
    expect(await p.exited).toBe(1);
    const last = JSON.parse(p.out.all().at(-1)!) as Record<string, unknown>;
    expect(last).toEqual({ type: 'summary', errors: 2, warnings: 0, info: 0, steps: 14, lines: 15 });
  });

  it('--format github: each problem as a GitHub Actions annotation; --quiet: no note on stderr', async () => {
    const dir = project();
    const steps = ['loop-init', 'loop-scaffold', 'loop-implement', 'loop-verify', 'loop-complete'].map((state) =>
      JSON.stringify({ state }),
    );
    writeFileSync(join(dir, 'run.jsonl'), `${steps.join('\n')}\n`);
    const p = start(['trace', 'run.jsonl', '--follow', '--until-end', '--format', 'github', '--quiet'], dir);
    expect(await p.exited).toBe(1);
    expect(p.out.all()).toEqual([
      "::error file=run.jsonl,line=4,col=10,title=loopkit trace-undeclared-transition::The run moved from 'loop-implement' to 'loop-verify', which is not a declared transition%0AFrom 'loop-implement' the contract allows: loop-implement → loop-test.",
      "::error file=run.jsonl,line=5,col=10,title=loopkit trace-undeclared-transition::The run moved from 'loop-verify' to 'loop-complete', which is not a declared transition%0AFrom 'loop-verify' the contract allows: loop-verify → loop-implement, loop-verify → loop-validate, loop-verify → loop-failed.",
    ]);
    expect(p.err.all()).toEqual([]);
  });

  it('follows the log across a truncation and a rotation: told as events, line numbers from 1 in each new log', async () => {
    const dir = project();
    const log = join(dir, 'run.jsonl');
    writeFileSync(log, '{"state": "loop-init"}\n{"state": "loop-scaffold"}\n');
    const p = start(['trace', 'run.jsonl', '--follow', '--format', 'json'], dir);
    await p.err.next((l) => l.startsWith('loopkit: following run.jsonl'), 'the follow to start');
    truncateSync(log, 0);
    await p.out.next((l) => JSON.parse(l).type === 'truncated', 'the truncation');
    // the log starts again: line 1 is a step that is not JSON
    appendFileSync(log, '{"state": "loop-init"\n');
    const bad = JSON.parse(await p.out.next((l) => l.includes('trace-malformed-step'), 'the broken first line')) as Record<string, unknown>;
    expect(bad).toMatchObject({ line: 1, location: { path: 'run.jsonl', line: 1 } });
    renameSync(log, join(dir, 'run.jsonl.1'));
    writeFileSync(log, '{"state": 3}\n');
    await p.out.next((l) => ['rotated', 'removed'].includes(JSON.parse(l).type), 'the rotation');
    const again = JSON.parse(await p.out.next((l) => l.includes('trace-malformed-step'), 'the first line of the new log')) as Record<
      string,
      unknown
    >;
    expect(again).toMatchObject({ line: 1, location: { path: 'run.jsonl', line: 1 } });
    p.child.kill('SIGINT');
    expect(await p.exited).toBe(1);
  });

  it('bad input: exit 2', async () => {
    const dir = project();
    usageError(await run(['trace', 'run.jsonl', '--until-end'], { cwd: dir }), '--until-end is for --follow');
    usageError(
      await run(['trace', 'run.jsonl', '--follow', '--format', 'junit'], { cwd: dir }),
      'trace --follow prints its findings as they come',
    );
    usageError(await run(['trace', 'nowhere/run.jsonl', '--follow'], { cwd: dir }), 'directory not found: nowhere');
    usageError(await run(['trace', 'run.jsonl', '--follow', '--skill', 'nobody'], { cwd: dir }), "unknown skill 'nobody'");
  });
});
