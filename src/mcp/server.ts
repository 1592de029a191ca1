/**
 * `loopkit mcp`: a Model Context Protocol server over stdio (the official SDK), so an agent can ask
 * the contract before it acts. Tools, each with a zod input schema and structured output: `check`,
 * `next`, `step`, `state`, `trace`, `explain` (answers.ts). Resources: the combined graph as Mermaid,
 * and each skill's contract (its SKILL.md and LOOP.md). The project's model is kept in memory and read
 * again when its files change (host.ts); the client is told (`resources/list_changed`).
 *
 * A question that cannot be answered — an unknown skill, state, file or code, input that does not
 * fit the schema, a project that cannot be read — is a tool error with a message that says why,
 * never a crash. Nothing is written to stdout but the protocol, nothing into the project.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { join } from 'node:path';
import * as z from 'zod';
import { ConfigError } from '../config/errors.js';
import { readText } from '../parse/fs.js';
import { graphView } from '../reporters/graph-view.js';
import { mermaidGraph } from '../reporters/graph.js';
import { VERSION } from '../version.js';
import { checkAnswer, explainAnswer, nextAnswer, stateAnswer, stepAnswer, traceAnswer } from './answers.js';
import type { ModelHost } from './host.js';

const place = z.object({ file: z.string(), line: z.number().int().nullable(), column: z.number().int().nullable() });
const diagnostic = place.extend({
  code: z.string(),
  severity: z.enum(['error', 'warning', 'info']),
  message: z.string(),
  help: z.string(),
  skill: z.string().optional(),
  pointer: z.string().optional().describe('the JSON pointer of the value, in a state file or a trace step'),
  related: z.array(place.extend({ message: z.string() })).optional(),
});
const transition = z.object({
  from: z.string(),
  to: z.string(),
  skill: z.string().describe('the skill whose LOOP.md declares it'),
  trigger: z.string().optional(),
  handoff: z.object({ skill: z.string(), agent: z.string() }).optional(),
  halt: z.object({ reason: z.string(), after: z.number().int().nullable() }).optional(),
  place: place.describe('where the contract declares it'),
});
const haltBound = z
  .object({
    reason: z.string(),
    after: z.number().int(),
    to: z.string().describe('the transition to take when the bound is spent'),
    place,
    spent: z.number().int().optional(),
    left: z.number().int().optional(),
  })
  .nullable();
const counts = { pass: z.boolean(), errors: z.number().int(), warnings: z.number().int(), info: z.number().int() };
const skillInput = z.string().min(1).optional();
const iterations = z.number().int().min(0).optional();

const TEXT_LIMIT = 20;

/** The text content of a tool result: a summary line and the first problems (the structured content has them all). */
function summaryText(head: string, diagnostics: readonly z.infer<typeof diagnostic>[]): string {
  const lines = diagnostics
    .slice(0, TEXT_LIMIT)
    .map((d) => `${d.file}:${d.line ?? 0}:${d.column ?? 0}: ${d.severity}: ${d.message} [${d.code}]`);
  if (diagnostics.length > TEXT_LIMIT) lines.push(`… ${diagnostics.length - TEXT_LIMIT} more in the structured content`);
  return [head, ...lines].join('\n');
}

/** A tool's result: the structured answer, and its text for clients that read only text. */
function result<T extends Record<string, unknown>>(structured: T, text: string) {
  return { content: [{ type: 'text' as const, text }], structuredContent: structured };
}

/** The model, or the reason the project cannot be read (a tool error). */
async function model(host: ModelHost) {
  try {
    return await host.current();
  } catch (e) {
    if (e instanceof ConfigError) throw new Error(`the project's configuration is invalid:\n${e.message}`, { cause: e });
    throw e;
  }
}

export function createServer(host: ModelHost): McpServer {
  const server = new McpServer(
    { name: 'loopkit', version: VERSION },
    {
      instructions:
        'loopkit knows the contracts (SKILL.md + LOOP.md) of this project. Before a move, ask `next` (what is legal from a state) ' +
        'or `step` (is this move allowed); `check` verifies the contracts, `state` a state file, `trace` a recorded run, `explain` a code.',
    },
  );

  server.registerTool(
    'check',
    {
      title: 'Check the contracts',
      description: "Verify the project's skills (as `loopkit check`): the diagnostics, of the whole project or of some files.",
      inputSchema: {
        files: z.array(z.string().min(1)).optional().describe('project-relative files or directories (default: the whole project)'),
      },
      outputSchema: { ...counts, skills: z.number().int(), diagnostics: z.array(diagnostic) },
      annotations: { readOnlyHint: true },
    },
    async ({ files }) => {
      const answer = checkAnswer(await model(host), files);
      const head = `${answer.pass ? 'PASS' : 'FAIL'}: ${answer.errors} errors, ${answer.warnings} warnings, ${answer.info} info in ${answer.skills} skill${answer.skills === 1 ? '' : 's'}`;
      return result(answer, summaryText(head, answer.diagnostics));
    },
  );

  server.registerTool(
    'next',
    {
      title: 'What is legal from a state',
      description:
        'The transitions the contract allows from a state (with triggers, handoffs and halt bounds), and how much of the iteration budget is left.',
      inputSchema: {
        state: z.string().min(1).describe("a state of the contract, or the value a skill's state file writes for it"),
        skill: skillInput.describe("only this skill's transitions (default: the combined graph of every skill)"),
        iterations: iterations.describe('iterations the run has spent in the state so far (for the budget left)'),
      },
      outputSchema: {
        state: z.string(),
        skill: z.string().optional(),
        terminal: z.boolean().describe('no transition leaves the state: the run ends here'),
        halted: z.boolean().describe('a halt transition enters the state'),
        transitions: z.array(transition),
        haltBound,
        summary: z.string(),
      },
      annotations: { readOnlyHint: true },
    },
    async (input) => {
      const answer = nextAnswer(await model(host), input);
      const budget = answer.haltBound
        ? ` Halt bound: ${answer.haltBound.after} iterations (halt ${answer.haltBound.reason} → ${answer.haltBound.to})${answer.haltBound.left !== undefined ? `, ${answer.haltBound.left} left` : ''}.`
        : '';
      return result(answer, `${answer.summary}${budget}`);
    },
  );

  server.registerTool(
    'step',
    {
      title: 'Is this move allowed',
      description:
        'Judge a proposed move from → to (optionally by one skill, after some iterations in `from`): allowed, or why not, with the contract’s place.',
      inputSchema: {
        from: z.string().min(1).describe('the state the run is in (or its state-file value)'),
        to: z.string().min(1).describe('the state it would move to (the same state: another iteration there)'),
        skill: skillInput.describe("judge on this skill's own transitions (default: the combined graph)"),
        iterations: iterations.describe('iterations the run has spent in `from` so far'),
      },
      outputSchema: {
        from: z.string(),
        to: z.string(),
        skill: z.string().optional(),
        allowed: z.boolean(),
        verdict: z.enum(['stay', 'transition', 'undeclared', 'from-terminal', 'halt-bound']),
        reason: z.string(),
        transitions: z.array(transition).describe('the declared transitions the move takes'),
        handoff: z.object({ skill: z.string(), agent: z.string() }).optional().describe('who takes over after the move'),
        allowedMoves: z.array(transition).describe('every transition out of `from`'),
        haltBound,
        problems: z.array(z.string()),
      },
      annotations: { readOnlyHint: true },
    },
    async (input) => {
      const answer = stepAnswer(await model(host), input);
      return result(answer, `${answer.allowed ? 'Allowed' : 'Not allowed'}: ${answer.reason}`);
    },
  );

  server.registerTool(
    'state',
    {
      title: 'Check a state file',
      description: "Check a runtime state file, or a state given inline, against a skill's Loop State Schema (as `loopkit state`).",
      inputSchema: {
        file: z.string().min(1).optional().describe('the state file (JSON or YAML), project-relative or absolute'),
        value: z.record(z.string(), z.unknown()).optional().describe('the state itself, as an object'),
        skill: skillInput.describe('the skill whose schema it follows (default: the only skill with a schema table)'),
      },
      outputSchema: { ...counts, skill: z.string(), checked: z.number().int(), diagnostics: z.array(diagnostic) },
      annotations: { readOnlyHint: true },
    },
    async (input) => {
      const answer = await stateAnswer(await model(host), input);
      const head = `${answer.pass ? 'PASS' : 'FAIL'}: ${answer.errors} errors, ${answer.warnings} warnings; ${answer.checked} values checked against the Loop State Schema of ${answer.skill}`;
      return result(answer, summaryText(head, answer.diagnostics));
    },
  );

  server.registerTool(
    'trace',
    {
      title: 'Check a recorded run',
      description: 'Check a recorded run (JSON Lines of steps, or the steps inline) against the contract (as `loopkit trace`).',
      inputSchema: {
        file: z.string().min(1).optional().describe('the trace, project-relative or absolute'),
        steps: z
          .array(z.record(z.string(), z.unknown()))
          .optional()
          .describe('the steps: {"state", "skill"?, "agent"?, "iteration"?, "event"?}'),
        skill: skillInput.describe("only this skill's steps, against its own transitions"),
      },
      outputSchema: {
        ...counts,
        steps: z.number().int(),
        states: z.array(z.string()).describe('where the run is after its last step'),
        ended: z.boolean().describe('the run is in a terminal or halted state'),
        diagnostics: z.array(diagnostic),
      },
      annotations: { readOnlyHint: true },
    },
    async (input) => {
      const answer = traceAnswer(await model(host), input);
      const head = `${answer.pass ? 'PASS' : 'FAIL'}: ${answer.errors} errors, ${answer.warnings} warnings, ${answer.info} info; ${answer.steps} steps; the run is in ${answer.states.join(' or ') || 'an unknown state'}`;
      return result(answer, summaryText(head, answer.diagnostics));
    },
  );

  server.registerTool(
    'explain',
    {
      title: 'Explain a code',
      description: "A diagnostic code's documentation page (markdown): what it checks, why, invalid and valid examples.",
      inputSchema: { code: z.string().min(1).describe('a diagnostic code or alias') },
      outputSchema: { code: z.string(), markdown: z.string() },
      annotations: { readOnlyHint: true },
    },
    ({ code }) => {
      const answer = explainAnswer(code);
      return result(answer, answer.markdown);
    },
  );

  server.registerResource(
    'graph',
    'loopkit://graph',
    {
      title: 'The combined state machine',
      description: 'Every transition of every skill, as a Mermaid state diagram',
      mimeType: 'text/x-mermaid',
    },
    async (uri) => {
      const m = await model(host);
      return {
        contents: [
          { uri: uri.href, mimeType: 'text/x-mermaid', text: mermaidGraph(graphView({ graph: m.graph, config: m.project.config })) },
        ],
      };
    },
  );

  server.registerResource(
    'contract',
    new ResourceTemplate('loopkit://skills/{skill}', {
      list: async () => {
        const m = await model(host);
        return {
          resources: m.project.skills.map((s) => ({
            uri: `loopkit://skills/${encodeURIComponent(s.name)}`,
            name: s.name,
            title: `The contract of ${s.name}`,
            mimeType: 'text/markdown',
          })),
        };
      },
    }),
    { title: "A skill's contract", description: 'The SKILL.md and LOOP.md of a skill', mimeType: 'text/markdown' },
    async (uri, { skill }) => {
      const m = await model(host);
      const name = decodeURIComponent(String(skill));
      const { namedSkill } = await import('../commands/project.js');
      const s = namedSkill(m.project, name);
      const files = [s.skillFile.path, ...(s.loop ? [s.loop.file.path] : [])];
      return {
        contents: files.map((f) => {
          const read = readText(join(m.project.root, f));
          return {
            uri: `${uri.href}/${f.split('/').pop()}`,
            mimeType: 'text/markdown',
            text: 'text' in read ? read.text : `(cannot read ${f}: ${read.error})`,
          };
        }),
      };
    },
  );

  host.onReload(() => {
    if (server.isConnected()) server.sendResourceListChanged();
  });
  return server;
}

/** Serve a project over stdio until the client closes the connection. */
export async function serveStdio(host: ModelHost): Promise<void> {
  const server = createServer(host);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
