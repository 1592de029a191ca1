/**
 * Agents in the model (model/agents.ts): discovery, the parse of opencode and Claude Code agent
 * files, what an agent may load, and the acceptance on the real Loop Language project (forge): the
 * one handoff its agents deny, witnessed by the agent's permission line, and no other.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lint } from '../src/api/engine.js';
import { openSession } from '../src/api/engine.js';
import { featureContext } from '../src/lsp/context.js';
import { definition } from '../src/lsp/navigation.js';
import { rename, RenameRefused } from '../src/lsp/rename.js';
import { nextAnswer, stepAnswer, stepReason } from '../src/mcp/answers.js';
import { run, Temps } from './helpers/cli.js';
import { shadowedAllows, skillAccess, wildcardMatch, type AgentDef } from '../src/model/agents.js';
import { parseAgent, sanitized } from '../src/parse/agent.js';

/** The real project, beside the repository when present (as bench/ reads it). */
const FORGE = join(import.meta.dirname, '..', '..', 'shared', 'corpus', 'forge');

const temps = new Temps();
afterAll(() => temps.cleanup());
const temp = () => temps.dir('loopkit-agents-');
/** A project of these files (project-relative path → text). */
const project = (files: Record<string, string>): string => temps.project(files, 'loopkit-agents-');

const agent = (path: string, text: string, loader: 'opencode' | 'claude-code' | null = null): AgentDef => {
  const facts = parseAgent(path, text, loader);
  return { ...facts, loaders: { targets: [facts.loader], alsoReadBy: [], why: '', named: false } };
};

const OPENCODE = [
  '---',
  'description: Reviews code: finds bugs',
  'mode: subagent',
  'permission:',
  '  skill:',
  '    "*": deny',
  '    "review-*": allow',
  '    "reviewing-code": allow',
  '    "review-secrets": ask',
  '---',
  'Prompt.',
].join('\n');

describe('agent files', () => {
  it('reads an opencode agent as opencode does: the name from the file, permission.skill in written order, a lenient parse where strict YAML fails', () => {
    const a = agent('.opencode/agent/reviewer.md', OPENCODE, 'opencode');
    expect(a.name).toBe('reviewer');
    expect(a.frontmatter?.error?.line).toBe(2);
    expect(a.lenient).toBe(true);
    expect(a.permissionAt).toEqual({ line: 5, column: 3 });
    expect(a.skillRules?.map((r) => `${r.pattern}:${r.action}@${r.line}`)).toEqual([
      '*:deny@6',
      'review-*:allow@7',
      'reviewing-code:allow@8',
      'review-secrets:ask@9',
    ]);
    // the last matching rule decides; an exact allow anywhere is the author's intent
    expect(skillAccess(a, 'writing-docs').verdict).toBe('denied');
    expect(skillAccess(a, 'review-tests').verdict).toBe('allowed');
    expect(skillAccess(a, 'review-secrets').verdict).toBe('allowed');
    expect(shadowedAllows(a)).toEqual([]);
  });

  it('keeps lines and key columns when it quotes a plain value holding `: `', () => {
    const text = '---\ndescription: a: b\nname: x\n---\n';
    expect(sanitized(text).split('\n')).toEqual(['---', "description: 'a: b'", 'name: x', '---', '']);
  });

  it('reports the allows a later catch-all shadows, with the rule that does', () => {
    const a = agent('agents/po.md', '---\nmode: primary\npermission:\n  skill:\n    "a": allow\n    "b": allow\n    "*": deny\n---\n');
    expect(a.loader).toBe('opencode');
    expect(shadowedAllows(a).map((s) => `${s.allow.pattern}<${s.by.pattern}@${s.by.line}`)).toEqual(['a<*@7', 'b<*@7']);
    expect(skillAccess(a, 'a').verdict).toBe('allowed');
    expect(skillAccess(a, 'c')).toMatchObject({ verdict: 'denied', rule: { pattern: '*', line: 7 } });
  });

  it('reads a Claude Code subagent: its name, and skills: as what it loads (unknown without the list)', () => {
    const a = agent(
      '.claude/agents/r.md',
      '---\nname: reviewer\ndescription: Reviews.\nskills:\n  - reviewing-code\n  - linting\n---\n',
      'claude-code',
    );
    expect(a.name).toBe('reviewer');
    expect(a.preload).toEqual([
      { name: 'reviewing-code', line: 5, column: 5 },
      { name: 'linting', line: 6, column: 5 },
    ]);
    expect(skillAccess(a, 'linting').verdict).toBe('allowed');
    expect(skillAccess(a, 'deploying').verdict).toBe('denied');
    const none = agent('.claude/agents/n.md', '---\nname: n\ndescription: N.\n---\n', 'claude-code');
    expect(skillAccess(none, 'deploying').verdict).toBe('unknown');
  });

  it("matches opencode's wildcards: * any characters, ? one, the rest literal", () => {
    expect(wildcardMatch('review-code', 'review-*')).toBe(true);
    expect(wildcardMatch('review', 'review-*')).toBe(false);
    expect(wildcardMatch('ab', 'a?')).toBe(true);
    expect(wildcardMatch('a.b', 'a?b')).toBe(true);
    expect(wildcardMatch('axb', 'a.b')).toBe(false);
  });
});

describe('discovery', () => {
  const SKILL = (name: string) => `---\nname: ${name}\ndescription: Does ${name}. Use when asked.\n---\n# ${name}\n\nBody.\n`;
  it('finds agents where the loaders read them, honours ignores, and reads agents: of .loopkit.yaml', async () => {
    const root = project({
      'skills/a/SKILL.md': SKILL('a'),
      '.opencode/agent/x.md': '---\npermission:\n  skill:\n    "nope": allow\n---\n',
      'team/y.md': '---\nname: y\ndescription: Y.\nskills: [missing]\n---\n',
      'node_modules/pkg/agents/z.md': '---\npermission:\n  skill:\n    "gone": allow\n---\n',
      '.loopkit.yaml': 'extends: agent-skills\nagents: team\n',
    });
    const r = await lint({ root, only: ['agent-unknown-skill'] });
    expect(r.diagnostics.map((d) => `${d.file}:${d.line}:${d.column}`)).toEqual(['.opencode/agent/x.md:4:5', 'team/y.md:4:10']);
  });

  it('a folder agents: names that does not exist is an error located in .loopkit.yaml', async () => {
    const root = project({ 'skills/a/SKILL.md': SKILL('a'), '.loopkit.yaml': 'extends: agent-skills\nagents:\n  - nowhere\n' });
    await expect(lint({ root })).rejects.toThrow(/agents folder 'nowhere' not found in .*\(agents at \.loopkit\.yaml:3:3\)/u);
  });

  it('refuses an agents: place outside the project, located', async () => {
    const root = project({ 'skills/a/SKILL.md': SKILL('a'), '.loopkit.yaml': 'extends: agent-skills\nagents: ../elsewhere\n' });
    await expect(lint({ root })).rejects.toThrow(/\.loopkit\.yaml:2:\d+.*not inside the project/su);
  });
});

describe('the MCP answers say which agent takes over and whether it may load the skill', () => {
  const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'rules', 'handoff-skill-denied');
  it('next and step of a handoff to an agent whose permission denies the skill', async () => {
    const checked = await lint({ root: join(FIXTURE, 'invalid', 'opencode-denied'), preset: 'loop-language' });
    const next = nextAnswer(checked, { state: 'in-dev', skill: 'running-a' });
    expect(next.transitions.map((t) => t.handoff)).toEqual([
      { skill: 'reviewing-b', agent: 'reviewer', mayLoad: 'denied', agentFile: '.opencode/agent/reviewer.md' },
    ]);
    const step = stepAnswer(checked, { from: 'in-dev', to: 'in-review', skill: 'running-a' });
    expect((step as { handoff?: unknown }).handoff).toMatchObject({ agent: 'reviewer', mayLoad: 'denied' });
    const names = { bare: (s: string) => s, quoted: (s: string) => `'${s}'` };
    expect(stepReason(step, names)).toContain('which may NOT load it (.opencode/agent/reviewer.md): the run stops there');
  });
  it('and when it may', async () => {
    const checked = await lint({ root: join(FIXTURE, 'valid', 'opencode-glob-allows'), preset: 'loop-language' });
    expect(nextAnswer(checked, { state: 'in-dev', skill: 'running-a' }).transitions[0]!.handoff).toEqual({
      skill: 'reviewing-b',
      agent: 'reviewer',
      mayLoad: 'allowed',
      agentFile: '.opencode/agent/reviewer.md',
    });
    const none = await lint({ root: join(FIXTURE, 'valid', 'no-agents-defined'), preset: 'loop-language' });
    expect(nextAnswer(none, { state: 'in-dev', skill: 'running-a' }).transitions[0]!.handoff).toEqual({
      skill: 'reviewing-b',
      agent: 'reviewer',
      mayLoad: 'no-agents',
    });
  });
});

describe('the language server: from the agent of a handoff to its file, and renaming an agent', () => {
  const AGENT_FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'rules', 'handoff-skill-denied', 'invalid');
  async function contextAt(root: string, path: string) {
    const session = await openSession({ root, concurrency: 'off' });
    const check = session.state.check!;
    const text = (p: string) => readFileSync(join(root, p), 'utf8');
    return { ctx: featureContext(root, check, path, text(path), text) };
  }
  const client = { documentChanges: true, renameFiles: true, version: () => null };

  it('goes from the agent of a handoff to its file, and renames an OpenCode agent in handoffs with its file', async () => {
    const root = temp();
    cpSync(join(AGENT_FIXTURE, 'opencode-denied'), root, { recursive: true });
    const { ctx } = await contextAt(root, 'skills/running-a/LOOP.md');
    {
      const line = ctx.lines.findIndex((l) => l.includes('to reviewer')) + 1;
      const column = ctx.lines[line - 1]!.indexOf('reviewer', ctx.lines[line - 1]!.indexOf(' to ')) + 2;
      const at = definition(ctx, line, column)!;
      expect(at).toHaveLength(1);
      expect(at[0]!.uri.endsWith('/.opencode/agent/reviewer.md')).toBe(true);
      expect(at[0]!.range.start).toEqual({ line: 0, character: 0 });
      const edit = rename(ctx, line, column, 'code-reviewer', client);
      const changes = edit.documentChanges!;
      const texts = changes.filter((c) => 'edits' in c) as {
        textDocument: { uri: string };
        edits: { newText: string; range: { start: { line: number } } }[];
      }[];
      expect(
        texts.map((t) => [t.textDocument.uri.replace(/^.*\/(skills|\.opencode)/u, '$1'), t.edits.map((e) => e.range.start.line + 1)]),
      ).toEqual([['skills/running-a/LOOP.md', [line]]]);
      expect(texts[0]!.edits[0]!.newText).toBe('code-reviewer');
      const move = changes.find((c) => 'kind' in c && c.kind === 'rename') as { oldUri: string; newUri: string };
      expect(move.oldUri.endsWith('/.opencode/agent/reviewer.md')).toBe(true);
      expect(move.newUri.endsWith('/.opencode/agent/code-reviewer.md')).toBe(true);
      // an editor that cannot rename files is told to rename the file itself
      expect(() => rename(ctx, line, column, 'code-reviewer', { ...client, renameFiles: false })).toThrow(RenameRefused);
      expect(() => rename(ctx, line, column, 'all-agents', client)).toThrow(/the handoff to every agent/u);
    }
  });

  it('renames a Claude Code subagent in its name: and every handoff, its file left where it is', async () => {
    const root = temp();
    cpSync(join(AGENT_FIXTURE, 'claude-subagent-skills'), root, { recursive: true });
    const { ctx } = await contextAt(root, 'skills/running-a/LOOP.md');
    {
      const line = ctx.lines.findIndex((l) => l.includes('to reviewer')) + 1;
      const column = ctx.lines[line - 1]!.lastIndexOf('reviewer') + 1;
      const at = definition(ctx, line, column)!;
      expect(at[0]!.uri.endsWith('/.claude/agents/reviewer.md')).toBe(true);
      expect(at[0]!.range.start).toEqual({ line: 1, character: 6 });
      const edit = rename(ctx, line, column, 'code-reviewer', { ...client, documentChanges: false, renameFiles: false });
      const files = Object.keys(edit.changes!).map((u) => u.replace(/^.*\/(skills|\.claude)/u, '$1'));
      expect(files.sort()).toEqual(['.claude/agents/reviewer.md', 'skills/running-a/LOOP.md']);
    }
  });
});

describe('a session (language server, MCP, watch) follows the agent files', () => {
  it('checks again when an agent file changes on disk', async () => {
    const root = temp();
    cpSync(join(import.meta.dirname, '..', 'fixtures', 'rules', 'handoff-skill-denied', 'invalid', 'opencode-denied'), root, {
      recursive: true,
    });
    const session = await openSession({ root, concurrency: 'off' });
    const denied = () => session.state.check!.diagnostics.filter((d) => d.code === 'handoff-skill-denied').length;
    expect(denied()).toBe(1);
    const file = '.opencode/agent/reviewer.md';
    writeFileSync(join(root, file), readFileSync(join(root, file), 'utf8').replace('"running-a": allow', '"reviewing-b": allow'));
    await session.changed([{ path: file, type: 'changed' }]);
    expect(denied()).toBe(0);
  });
});

describe('trace and watch: a step taken by an agent that may not load its skill', () => {
  it('is reported at the step, once per agent and skill, with the agent file as witness', async () => {
    const root = temp();
    cpSync(join(import.meta.dirname, '..', 'fixtures', 'rules', 'handoff-skill-denied', 'invalid', 'opencode-denied'), root, {
      recursive: true,
    });
    const steps = [
      { state: 'in-dev', skill: 'running-a', agent: 'dev' },
      { state: 'in-review', skill: 'reviewing-b', agent: 'reviewer' },
      { state: 'in-review', skill: 'reviewing-b', agent: 'reviewer' },
    ];
    writeFileSync(join(root, 'trace.jsonl'), steps.map((s) => JSON.stringify(s)).join('\n') + '\n');
    const r = await run(['trace', join(root, 'trace.jsonl'), '--project', root, '--format', 'json']);
    const report = JSON.parse(r.stdout) as {
      diagnostics: { code: string; location: { line: number }; related?: { location: { path: string; line: number } }[] }[];
    };
    const denied = report.diagnostics.filter((d) => d.code === 'trace-agent-skill-denied');
    expect(denied.map((d) => d.location.line)).toEqual([2]);
    expect(denied[0]!.related![0]!.location.path.endsWith('.opencode/agent/reviewer.md')).toBe(true);
    expect(denied[0]!.related![0]!.location.line).toBe(5);
    // an agent its file lets load the skill: nothing
    writeFileSync(join(root, 'trace.jsonl'), JSON.stringify({ state: 'in-dev', skill: 'running-a', agent: 'reviewer' }) + '\n');
    const fine = await run(['trace', join(root, 'trace.jsonl'), '--project', root, '--format', 'json']);
    expect((JSON.parse(fine.stdout) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code)).not.toContain(
      'trace-agent-skill-denied',
    );
  });
});

describe.skipIf(!existsSync(FORGE))('forge (the real Loop Language project, ../shared/corpus/forge)', () => {
  it('reports the one handoff an agent denies at skills/approving-stories/LOOP.md:62, witnessed by agents/po-agent.md, and no other', async () => {
    const root = temp();
    cpSync(FORGE, root, { recursive: true });
    const r = await lint({ root });
    const handoffs = r.diagnostics.filter((d) => d.code.startsWith('handoff-'));
    expect(handoffs.map((d) => `${d.code} ${d.file}:${d.line}`)).toEqual(['handoff-skill-denied skills/approving-stories/LOOP.md:62']);
    const [denied] = handoffs;
    expect(denied!.severity).toBe('error');
    expect(denied!.message).toContain('`handoff finishing-stories to po-agent`');
    expect(denied!.help).toContain('`devops-agent` does');
    const po = readFileSync(join(root, 'agents/po-agent.md'), 'utf8').split('\n');
    // the witness: po-agent's permission line (`skill:` under `permission:`), and the catch-all that decides
    const witness = denied!.related!.map((w) => `${w.file}:${w.line}`);
    expect(witness[0]).toBe(`agents/po-agent.md:${po.findIndex((l) => l.trim() === 'skill:') + 1}`);
    expect(witness[1]).toBe(`agents/po-agent.md:${po.findIndex((l) => l.trim() === '"*": deny') + 1}`);
    // 64 handoffs name an agent (8 more go to all-agents): the other 63 are allowed by their agent's file
    const verdicts = handoffVerdicts(root);
    expect(verdicts.allAgents).toBe(8);
    expect(verdicts.allowed).toBe(63);
    expect(verdicts.denied).toEqual(['skills/approving-stories/LOOP.md:62 finishing-stories to po-agent']);
    // the agents' frontmatter is not valid YAML (descriptions holding `: `), but both loaders that read
    // agents/ read it: opencode by its fallback, Claude Code by its second reading (values quoted)
    const strictFails = readdirSync(join(root, 'agents')).filter(
      (f) => agent(`agents/${f}`, readFileSync(join(root, 'agents', f), 'utf8')).frontmatter?.error,
    );
    expect(strictFails).toHaveLength(7);
    expect(r.diagnostics.filter((d) => d.code === 'agent-invalid-frontmatter')).toEqual([]);
  });

  it('reads an agent as Claude Code does (its second reading quotes a value holding `: `), and reports what neither reading parses as an error (the same agent in .claude/agents/)', async () => {
    const root = temp();
    cpSync(FORGE, root, { recursive: true });
    mkdirSync(join(root, '.claude/agents'), { recursive: true });
    cpSync(join(root, 'agents/po-agent.md'), join(root, '.claude/agents/po-agent.md'));
    rmSync(join(root, 'agents'), { recursive: true });
    expect((await lint({ root, only: ['agent-invalid-frontmatter'] })).diagnostics).toEqual([]);
    // a continuation line holding `: ` below the description: no reading parses it
    const file = join(root, '.claude/agents/po-agent.md');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.splice(2, 0, '  Never: codes production code');
    writeFileSync(file, lines.join('\n'));
    const r = await lint({ root, only: ['agent-invalid-frontmatter'] });
    expect(r.diagnostics.map((d) => `${d.severity} ${d.file}:${d.line}`)).toEqual(['error .claude/agents/po-agent.md:2']);
  });
});

/** Every `handoff <skill> to <agent>` line of forge's LOOP.md files, judged by the agent files as parsed. */
function handoffVerdicts(root: string): { allowed: number; denied: string[]; allAgents: number } {
  const agents = new Map(
    readdirSync(join(root, 'agents')).map((f) => {
      const a = agent(`agents/${f}`, readFileSync(join(root, 'agents', f), 'utf8'));
      return [a.name, a];
    }),
  );
  const out = { allowed: 0, denied: [] as string[], allAgents: 0 };
  for (const s of readdirSync(join(root, 'skills')).sort()) {
    let text: string;
    try {
      text = readFileSync(join(root, 'skills', s, 'LOOP.md'), 'utf8');
    } catch {
      continue;
    }
    text.split('\n').forEach((line, i) => {
      for (const m of line.matchAll(/handoff ([a-z-]+) to ([a-z-]+)/gu)) {
        if (m[2] === 'all-agents') out.allAgents++;
        else if (skillAccess(agents.get(m[2]!)!, m[1]!).verdict === 'allowed') out.allowed++;
        else out.denied.push(`skills/${s}/LOOP.md:${i + 1} ${m[1]} to ${m[2]}`);
      }
    });
  }
  return out;
}
