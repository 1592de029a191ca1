/**
 * `loopkit mcp` through real clients over stdio, never internal calls: the official SDK's client
 * spawns the built CLI (tools listed with their schemas, each tool's valid and invalid call, the
 * resources, a reload when the project's files change — waited for through the server's
 * `resources/list_changed` notification), then once through an independent published client
 * (`@modelcontextprotocol/inspector-cli`).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lint } from '../src/api/engine.js';
import { checkAnswer } from '../src/mcp/answers.js';
import { BIN, cleanEnv, PROJECTS, ROOT, Temps } from './helpers/cli.js';
import { EventQueue } from './helpers/events.js';
import { RUNTIME_PROJECT } from './helpers/fixtures.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

/** A copy of examples/loop-controller (the server may be asked to read it again after a change). */
const project = () => temps.copyOf(join(ROOT, 'examples', 'loop-controller'));

type Structured = Record<string, unknown> & { diagnostics?: { code: string; file: string; line: number | null; message: string }[] };

describe('loopkit mcp through the SDK client', () => {
  let dir: string;
  let client: Client;
  const reloads = new EventQueue<string>();
  let stderr = '';

  beforeAll(async () => {
    dir = project();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--project', dir],
      env: cleanEnv(),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (b: Buffer) => (stderr += b.toString()));
    client = new Client({ name: 'loopkit-test', version: '1.0.0' });
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => reloads.push('reloaded'));
    await client.connect(transport);
    return async () => {
      await client.close();
    };
  });

  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  const ok = async (name: string, args: Record<string, unknown>) => {
    const r = await call(name, args);
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    return r.structuredContent as Structured;
  };
  const error = async (name: string, args: Record<string, unknown>, text: string) => {
    const r = await call(name, args);
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toBeUndefined();
    expect((r.content[0] as { text: string }).text).toContain(text);
  };

  it('lists the six tools, each with its input schema and an output schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['check', 'next', 'step', 'state', 'trace', 'explain']);
    const props = Object.fromEntries(tools.map((t) => [t.name, Object.keys(t.inputSchema.properties ?? {})]));
    expect(props).toEqual({
      check: ['files'],
      next: ['state', 'skill', 'iterations'],
      step: ['from', 'to', 'skill', 'iterations'],
      state: ['file', 'value', 'skill'],
      trace: ['file', 'steps', 'skill'],
      explain: ['code'],
    });
    for (const t of tools) {
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(t.description, t.name).toBeTruthy();
      expect(t.annotations?.readOnlyHint, t.name).toBe(true);
    }
    expect(tools.find((t) => t.name === 'next')!.inputSchema.required).toEqual(['state']);
    expect(tools.find((t) => t.name === 'step')!.inputSchema.required).toEqual(['from', 'to']);
  });

  it('check: the diagnostics of the project or of some files; an unknown file is an error', async () => {
    const all = await ok('check', {});
    expect(all).toMatchObject({ pass: true, errors: 0, skills: 1, diagnostics: [] });
    await ok('check', { files: ['skills/controlling-loops/LOOP.md'] });
    await error(
      'check',
      { files: ['skills/controling-loops/LOOP.md'] },
      "no file 'skills/controling-loops/LOOP.md' in the project; did you mean 'skills/controlling-loops/LOOP.md'?",
    );
  });

  it('next: the legal transitions with their triggers and the halt budget left; a state-file value works too; unknown states get "did you mean"', async () => {
    const next = await ok('next', { state: 'FAILED', iterations: 2 });
    expect(next).toMatchObject({
      state: 'loop-failed',
      terminal: false,
      halted: false,
      haltBound: {
        reason: 'human-gate',
        after: 3,
        to: 'halted-human-gate',
        spent: 2,
        left: 1,
        place: { file: 'skills/controlling-loops/LOOP.md' },
      },
    });
    expect((next.transitions as { to: string; trigger: string }[]).map((t) => [t.to, t.trigger])).toEqual([
      ['loop-retry', 'retries remain'],
      ['halted-human-gate', 'max retries exceeded'],
    ]);
    expect(await ok('next', { state: 'loop-complete' })).toMatchObject({ terminal: true, transitions: [], haltBound: null });
    await error('next', { state: 'loop-verfy' }, "unknown state 'loop-verfy': not a state of the contract; did you mean 'loop-verify'?");
    await error(
      'next',
      { state: 'loop-verify', skill: 'controling-loops' },
      "unknown skill 'controling-loops'; did you mean 'controlling-loops'?",
    );
    await error('next', { state: 3 }, 'Input validation error');
    await error('next', { state: 'loop-ship', iterations: -1 }, 'Input validation error');
  });

  it('step: the issue’s move (loop-verify → loop-complete) is not allowed, with the moves that are; a stay after the bound is spent is not either', async () => {
    const no = await ok('step', { from: 'loop-verify', to: 'loop-complete' });
    expect(no).toMatchObject({ allowed: false, verdict: 'undeclared', transitions: [] });
    expect((no.allowedMoves as { to: string }[]).map((t) => t.to)).toEqual(['loop-implement', 'loop-validate', 'loop-failed']);
    expect(no.reason).toBe(
      "loop-verify → loop-complete is not a declared transition. From 'loop-verify' the contract allows: loop-verify → loop-implement, loop-verify → loop-validate, loop-verify → loop-failed.",
    );
    const yes = await ok('step', { from: 'VERIFY', to: 'VALIDATE' });
    expect(yes).toMatchObject({
      allowed: true,
      verdict: 'transition',
      transitions: [{ from: 'loop-verify', to: 'loop-validate', place: { line: 113 } }],
    });
    expect(await ok('step', { from: 'loop-failed', to: 'loop-failed', iterations: 2 })).toMatchObject({ allowed: true, verdict: 'stay' });
    expect(await ok('step', { from: 'loop-failed', to: 'loop-failed', iterations: 3 })).toMatchObject({
      allowed: false,
      verdict: 'halt-bound',
    });
    expect(await ok('step', { from: 'loop-complete', to: 'loop-init' })).toMatchObject({ allowed: false, verdict: 'from-terminal' });
    await error('step', { from: 'loop-verify', to: 'loop-deploy' }, "unknown to-state 'loop-deploy'");
    await error('step', { from: 'loop-verify' }, 'Input validation error');
  });

  it('state: a state file or an inline state against the schema, located; neither or both is an error', async () => {
    expect(await ok('state', { file: 'loop-state.json' })).toMatchObject({ pass: true, skill: 'controlling-loops', checked: 71 });
    const value = JSON.parse(readFileSync(join(dir, 'loop-state.json'), 'utf8')) as Record<string, unknown>;
    const bad = await ok('state', { value: { ...value, githubIssue: '123' } });
    expect(bad.pass).toBe(false);
    expect(bad.diagnostics!.map((d) => [d.code, d.file, d.line])).toEqual([['state-file-wrong-type', '<value>.json', 4]]);
    await error('state', {}, 'give the state file (file) or the state itself (value), one of them');
    await error('state', { file: 'nowhere.json' }, "cannot read state file 'nowhere.json': No such file");
  });

  it('trace: a recorded run from a file or inline steps; where the run is; an empty run is an error', async () => {
    expect(await ok('trace', { file: 'samples/trace-valid.jsonl' })).toMatchObject({
      pass: true,
      steps: 19,
      states: ['loop-complete'],
      ended: true,
    });
    const inline = await ok('trace', { steps: [{ state: 'loop-implement' }, { state: 'loop-verify' }] });
    expect(inline).toMatchObject({ pass: false, steps: 2, ended: false });
    expect(inline.diagnostics!.map((d) => [d.code, d.file, d.line])).toEqual([
      ['trace-undeclared-transition', '<steps>.jsonl', 2],
      ['trace-still-running', '<steps>.jsonl', 2],
    ]);
    await error('trace', { steps: [] }, 'the trace has no steps');
    await error('trace', { file: 'samples/trace-valid.jsonl', steps: [{ state: 'loop-init' }] }, 'one of them');
  });

  it("explain: a code's page (runtime codes too); an unknown code gets a suggestion; an unknown tool is an error", async () => {
    const page = await ok('explain', { code: 'trace-undeclared-transition' });
    expect(page.markdown).toMatch(/^# trace-undeclared-transition\n/);
    await error('explain', { code: 'trace-undeclared-transtion' }, "did you mean 'trace-undeclared-transition'?");
    const unknown = (await client.callTool({ name: 'deploy', arguments: {} })) as CallToolResult;
    expect(unknown.isError).toBe(true);
  });

  it('resources: the graph as Mermaid and each skill’s contract', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['loopkit://graph', 'loopkit://skills/controlling-loops']);
    const graph = await client.readResource({ uri: 'loopkit://graph' });
    expect((graph.contents[0] as { text: string }).text).toMatch(/^stateDiagram-v2\n/);
    const contract = await client.readResource({ uri: 'loopkit://skills/controlling-loops' });
    expect(contract.contents.map((c) => c.uri)).toEqual([
      'loopkit://skills/controlling-loops/SKILL.md',
      'loopkit://skills/controlling-loops/LOOP.md',
    ]);
    expect((contract.contents[1] as { text: string }).text).toContain('transition loop-verify → loop-validate');
  });

  it('reads the project again when its files change (the client is told), and answers from the new contract', async () => {
    const loop = join(dir, 'skills', 'controlling-loops', 'LOOP.md');
    const changed = 'transition loop-verify → loop-complete\n\ntransition loop-verify → Loop_Done\n';
    writeFileSync(loop, readFileSync(loop, 'utf8').replace('transition loop-verify → loop-validate\n', changed));
    await reloads.next(() => true, 'the resource list to change');
    const now = await ok('step', { from: 'loop-verify', to: 'loop-complete' });
    expect(now).toMatchObject({ allowed: true, verdict: 'transition' });
    const check = await ok('check', {});
    expect(check.pass).toBe(false);
    expect(check.diagnostics!.map((d) => d.code)).toContain('state-invalid-name');
    // nothing was written into the project by the server
    expect(readdirSync(dir).sort()).toEqual(['.loopkit.yaml', 'loop-state.json', 'samples', 'session', 'skills']);
    expect(stderr).toContain('loopkit: serving the contracts of');
  });
});

describe('loopkit mcp on examples/loop (a state file coarser than its contract)', () => {
  it('step stops the agent from declaring victory before it verified; a value that stands for several states is named as an error', async () => {
    const client = new Client({ name: 'loopkit-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', '--project', join(ROOT, 'examples', 'loop')],
        env: cleanEnv(),
        stderr: 'ignore',
      }),
    );
    try {
      const step = (await client.callTool({ name: 'step', arguments: { from: 'loop-iterating', to: 'done' } })) as CallToolResult;
      expect(step.structuredContent).toMatchObject({ allowed: false, verdict: 'undeclared' });
      expect((step.content[0] as { text: string }).text).toBe(
        'Not allowed: «loop-iterating» → «done» is not a declared transition. From «loop-iterating» the contract allows: «loop-iterating» → «loop-verifying», «loop-iterating» → «halted-budget».',
      );
      expect(step.structuredContent!.reason).toBe(
        "loop-iterating → done is not a declared transition. From 'loop-iterating' the contract allows: loop-iterating → loop-verifying, loop-iterating → halted-budget.",
      );
      const next = (await client.callTool({ name: 'next', arguments: { state: 'in_progress' } })) as CallToolResult;
      expect(next.isError).toBe(true);
      expect((next.content[0] as { text: string }).text).toBe(
        "'in_progress' stands for several states in the state file of iterating-autonomously (loop-scoring, loop-iterating, loop-verifying): name one of them as the state",
      );
    } finally {
      await client.close();
    }
  });
});

describe('loopkit mcp on skills that hand work to each other (fixtures/runtime/project)', () => {
  let dir: string;
  let client: Client;
  const reloads = new EventQueue<string>();

  beforeAll(async () => {
    dir = temps.copyOf(RUNTIME_PROJECT);
    // files whose change must be read again: a .gitignore and a skill's script
    writeFileSync(join(dir, '.gitignore'), '# nothing ignored yet\n');
    mkdirSync(join(dir, 'skills', 'running-a', 'scripts'));
    writeFileSync(join(dir, 'skills', 'running-a', 'scripts', 'run.sh'), '#!/bin/sh\necho one\n');
    client = new Client({ name: 'loopkit-test', version: '1.0.0' });
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => reloads.push('reloaded'));
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--project', dir], env: cleanEnv(), stderr: 'ignore' }),
    );
    return async () => {
      await client.close();
    };
  });

  const ok = async (name: string, args: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    return r.structuredContent as Structured;
  };
  const codes = (s: Structured) => s.diagnostics!.map((d) => `${d.file} ${d.code}`);

  it("step names who takes over (handoff), and the contract's problem with a handoff to a skill that cannot go on", async () => {
    const review = await ok('step', { from: 'in-dev', to: 'in-review' });
    expect(review).toMatchObject({
      allowed: true,
      verdict: 'transition',
      handoff: { skill: 'reviewing-b', agent: 'qa-agent' },
      problems: [],
    });
    const ship = await ok('step', { from: 'ship-ready', to: 'ship-check' });
    expect(ship).toMatchObject({ allowed: true, verdict: 'transition', handoff: { skill: 'reviewing-b', agent: 'qa-agent' } });
    expect(ship.problems).toEqual([
      "the transition hands 'ship-check' to skill reviewing-b, which has no transition out of 'ship-check' (the contract's problem: constraints-handoff-unhandled)",
    ]);
    const noHandoff = await ok('step', { from: 'ship-check', to: 'done' });
    expect(noHandoff).toMatchObject({ allowed: true, problems: [] });
    expect(noHandoff.handoff).toBeUndefined();
  });

  it("`skill` scopes next and step to that skill's own transitions", async () => {
    expect(((await ok('next', { state: 'in-review' })).transitions as { to: string }[]).map((t) => t.to)).toEqual(['in-dev', 'done']);
    const own = await ok('next', { state: 'in-review', skill: 'running-a' });
    expect(own).toMatchObject({ skill: 'running-a', transitions: [] });
    expect(await ok('step', { from: 'in-review', to: 'in-dev' })).toMatchObject({ allowed: true, verdict: 'transition' });
    // running-a has no transition out of in-review: there it is where the skill's run ends
    expect(await ok('step', { from: 'in-review', to: 'in-dev', skill: 'running-a' })).toMatchObject({
      skill: 'running-a',
      allowed: false,
      verdict: 'from-terminal',
    });
    const r = (await client.callTool({
      name: 'step',
      arguments: { from: 'ship-ready', to: 'ship-check', skill: 'running-a' },
    })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect((r.content[0] as { text: string }).text).toContain("unknown from-state 'ship-ready'");
  });

  it('check with files: only the diagnostics of those files', async () => {
    const skill = join(dir, 'skills', 'running-a', 'SKILL.md');
    writeFileSync(skill, `${readFileSync(skill, 'utf8')}\nSee [the notes](notes.txt).\n`);
    await reloads.next(() => true, 'a reload after SKILL.md changed');
    expect(codes(await ok('check', {}))).toContain('skills/running-a/SKILL.md skill-broken-link');
    const mine = await ok('check', { files: ['skills/running-a/SKILL.md'] });
    expect(mine.diagnostics!.length).toBeGreaterThan(0);
    expect(mine.diagnostics!.every((d) => d.file === 'skills/running-a/SKILL.md')).toBe(true);
    expect(codes(mine)).toContain('skills/running-a/SKILL.md skill-broken-link');
    expect(codes(await ok('check', { files: ['skills/reviewing-b/SKILL.md'] }))).not.toContain(
      'skills/running-a/SKILL.md skill-broken-link',
    );
  });

  it('reads the project again when a file is added or removed (any file), a .gitignore or a script changes', async () => {
    const notes = join(dir, 'skills', 'running-a', 'notes.txt');
    // the link of the test above: its target added, then removed
    writeFileSync(notes, 'notes\n');
    await reloads.next(() => true, 'a reload after a file was added');
    expect(codes(await ok('check', {}))).not.toContain('skills/running-a/SKILL.md skill-broken-link');
    rmSync(notes);
    await reloads.next(() => true, 'a reload after a file was removed');
    expect(codes(await ok('check', {}))).toContain('skills/running-a/SKILL.md skill-broken-link');
    expect((await ok('check', {})).skills).toBe(3);
    writeFileSync(join(dir, '.gitignore'), 'skills/shipping-c/\n');
    await reloads.next(() => true, 'a reload after the .gitignore changed');
    expect((await ok('check', {})).skills).toBe(2);
    writeFileSync(join(dir, 'skills', 'running-a', 'scripts', 'run.sh'), '#!/bin/sh\necho two\n');
    await reloads.next(() => true, 'a reload after a script changed');
  });
});

describe('loopkit mcp on a project that cannot be read', () => {
  it('a broken .loopkit.yaml is each tool’s error, with its place; a missing project directory is exit 2', async () => {
    const dir = project();
    writeFileSync(join(dir, '.loopkit.yaml'), 'max_iterations: many\n');
    const client = new Client({ name: 'loopkit-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--project', dir], env: cleanEnv(), stderr: 'ignore' }),
    );
    try {
      const r = (await client.callTool({ name: 'next', arguments: { state: 'loop-verify' } })) as CallToolResult;
      expect(r.isError).toBe(true);
      expect((r.content[0] as { text: string }).text).toMatch(
        /^the project's configuration is invalid:\n.*\.loopkit\.yaml:1:17: max_iterations/,
      );
      const explain = (await client.callTool({ name: 'explain', arguments: { code: 'trace-still-running' } })) as CallToolResult;
      expect(explain.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    const missing = spawnSync(process.execPath, [BIN, 'mcp', '--project', join(dir, 'nowhere')], {
      env: cleanEnv(),
      encoding: 'utf8',
      input: '',
    });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe(`loopkit: error: path not found: ${join(dir, 'nowhere')}\n`);
  });
});

describe('loopkit mcp through an independent client (@modelcontextprotocol/inspector-cli)', () => {
  // the inspector looks for its package.json relative to the working directory: run it one level below a package.json
  const inspector = (args: string[]) => {
    const r = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build', 'cli.js'),
        '--cli',
        process.execPath,
        BIN,
        'mcp',
        '--project',
        join(ROOT, 'examples', 'loop-controller'),
        ...args,
      ],
      { cwd: join(ROOT, 'test'), env: cleanEnv(), encoding: 'utf8', timeout: 120_000 },
    );
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as Record<string, unknown>;
  };

  it('lists the tools with their schemas, and calls one validly and one invalidly', () => {
    const listed = inspector(['--method', 'tools/list']) as {
      tools: { name: string; inputSchema: { properties: Record<string, unknown> } }[];
    };
    expect(listed.tools.map((t) => t.name)).toEqual(['check', 'next', 'step', 'state', 'trace', 'explain']);
    expect(Object.keys(listed.tools[2]!.inputSchema.properties)).toEqual(['from', 'to', 'skill', 'iterations']);
    const step = inspector([
      '--method',
      'tools/call',
      '--tool-name',
      'step',
      '--tool-arg',
      'from=loop-verify',
      '--tool-arg',
      'to=loop-complete',
    ]) as {
      structuredContent: { allowed: boolean; verdict: string };
    };
    expect(step.structuredContent).toMatchObject({ allowed: false, verdict: 'undeclared' });
    const bad = inspector(['--method', 'tools/call', '--tool-name', 'next', '--tool-arg', 'state=loop-verfy']) as {
      isError: boolean;
      content: { text: string }[];
    };
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toContain("did you mean 'loop-verify'?");
  });
});

describe('the check tool on a repository that is one skill', () => {
  it('the root folder (`.`) selects every diagnostic of the root skill; a sub-folder only its own', async () => {
    // strict: the finding in references/ (skill-reference-broken-link) is outside the default set of agent-skills
    const result = await lint({ root: join(PROJECTS, 'single-skill-errors'), concurrency: 'off', preset: 'strict' });
    expect(result.diagnostics.length).toBeGreaterThan(2);
    expect(checkAnswer(result, ['.']).diagnostics).toHaveLength(result.diagnostics.length);
    expect(checkAnswer(result, ['references']).diagnostics.map((d) => d.file)).toEqual(['references/fields.md']);
  });
});
