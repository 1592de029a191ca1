/**
 * The language server (src/lsp) in the test process: `startServer` on two in-memory streams, a
 * vscode-jsonrpc client on their other ends — what the mutation run's per-test coverage sees, where
 * test/lsp.test.ts and test/lsp-diagnostics.test.ts drive the real server in a child process. Every
 * request and notification the server handles, on small projects written by the test, compared
 * with whole answers (exact ranges, messages, texts); and the pure modules (convert.ts, context.ts,
 * contract-index.ts, watch.ts) called directly.
 *
 * Every server is shut down and both connections disposed after its test. No test waits for a time:
 * a test waits for the server's answer (a workspace/symbol request is answered once every change
 * handed in is checked and published) or for an event the code under test produces. `fs.watch` is
 * wrapped (what the server's own watching watches, its listener called as the file system would,
 * the watchers it closes), and so is `setTimeout` where the settle time of a burst matters.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync, type FSWatcher, type WatchListener } from 'node:fs';
import type * as FsModule from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import {
  CodeActionRequest,
  CompletionRequest,
  DefinitionRequest,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidChangeWorkspaceFoldersNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentHighlightRequest,
  DocumentSymbolRequest,
  FileChangeType,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  PrepareRenameRequest,
  PublishDiagnosticsNotification,
  ReferencesRequest,
  RegistrationRequest,
  RenameRequest,
  ShowMessageNotification,
  ShowMessageRequest,
  ShutdownRequest,
  WorkspaceSymbolRequest,
  type ClientCapabilities,
  type CodeAction,
  type CompletionItem,
  type Diagnostic,
  type DocumentHighlight,
  type DocumentSymbol,
  type FileEvent,
  type Hover,
  type InitializeResult,
  type Location,
  type MarkupContent,
  type Position,
  type Range,
  type SymbolInformation,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import type { Connection } from 'vscode-languageserver/node';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { openSession, ruleIndex } from '../src/api/engine.js';
import type { Diagnostic as EngineDiagnostic } from '../src/engine/diagnostic.js';
import type { ProjectSession } from '../src/engine/session.js';
import { featureContext, linesOf, occurrenceLocation, splitText } from '../src/lsp/context.js';
import { contractIndex, key, locate, nameAt, occurrenceAt, placeIn, wordAt, type Occurrence } from '../src/lsp/contract-index.js';
import {
  diagnosticMessage,
  fileUri,
  location,
  lspDiagnostic,
  pathUri,
  position,
  projectPath,
  range,
  rulePage,
  span,
  uriPath,
} from '../src/lsp/convert.js';
import { workspaceSymbols } from '../src/lsp/navigation.js';
import { startServer, type ServerOptions } from '../src/lsp/server.js';
import { watchProject } from '../src/lsp/watch.js';
import { ROOT, Temps } from './helpers/cli.js';
import { EventQueue } from './helpers/events.js';
import { uriOf } from './helpers/lsp.js';

/** A directory watched through `fs.watch`: with its listener, and whether it was closed. */
interface Watched {
  dir: string;
  recursive: boolean;
  listener: WatchListener<string>;
  watcher: FSWatcher;
  closed: boolean;
}

// fs.watch, wrapped: every watcher the code under test starts is recorded (the real one runs)
const watched = vi.hoisted(() => ({ list: [] as Watched[], refuse: new Set<string>() }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof FsModule>();
  const watch = (dir: string, options: { recursive?: boolean }, listener: WatchListener<string>): FSWatcher => {
    if (watched.refuse.has(dir)) throw new Error(`EMFILE: too many open files, watch '${dir}'`);
    const watcher = fs.watch(dir, options, listener);
    const entry: Watched = { dir, recursive: options.recursive === true, listener, watcher, closed: false };
    const close = watcher.close.bind(watcher);
    watcher.close = () => {
      entry.closed = true;
      close();
    };
    watched.list.push(entry);
    return watcher;
  };
  return { ...fs, default: { ...fs, watch }, watch };
});

const temps = new Temps();
afterAll(() => temps.cleanup());

const editors: Editor[] = [];
const restorers: (() => void)[] = [];
afterEach(async () => {
  for (const e of editors.splice(0)) await e.stop();
  for (const r of restorers.splice(0)) r();
  for (const w of watched.list.splice(0)) if (!w.closed) w.watcher.close();
  watched.refuse.clear();
});

/** The watchers started so far that are open, as `dir (recursive)`. */
const openWatchers = () => watched.list.filter((w) => !w.closed).map((w) => `${w.dir}${w.recursive ? ' (recursive)' : ''}`);

interface Publication {
  uri: string;
  diagnostics: Diagnostic[];
}

interface EditorOptions {
  /** the client watches files (default true) */
  watches?: boolean;
  capabilities?: ClientCapabilities;
  watch?: ServerOptions['watch'];
  cache?: ServerOptions['cache'];
  /** the initialize request's root and folders, instead of those of `folders` */
  init?: { rootUri?: string | null; rootPath?: string | null; workspaceFolders?: { uri: string; name: string }[] | null };
}

/** The URI of a file (an absolute path), or a URI as it is (`untitled:…`). */
const docUri = (file: string) => (file.startsWith('/') ? uriOf(file) : file);

/** A server started in this process on two streams, and a client on their other ends. */
class Editor {
  readonly diagnostics = new Map<string, Diagnostic[]>();
  readonly publications = new EventQueue<Publication>();
  /** window/logMessage: type 1 error, 2 warning, 3 info */
  readonly logs: { type: number; message: string }[] = [];
  /** window/showMessage */
  readonly shown: { type: number; message: string }[] = [];
  readonly registrations: { method: string; options: unknown }[] = [];
  initialized!: InitializeResult;
  private readonly versions = new Map<string, number>();

  private constructor(
    readonly server: Connection,
    readonly client: MessageConnection,
  ) {
    client.onNotification(PublishDiagnosticsNotification.type, (p) => {
      this.diagnostics.set(p.uri, p.diagnostics);
      this.publications.push({ uri: p.uri, diagnostics: p.diagnostics });
    });
    client.onNotification(LogMessageNotification.type, (p) => void this.logs.push({ type: p.type, message: p.message }));
    client.onNotification(ShowMessageNotification.type, (p) => void this.shown.push({ type: p.type, message: p.message }));
    client.onRequest(ShowMessageRequest.type, (p) => {
      this.shown.push({ type: p.type, message: p.message });
      return null;
    });
    client.onRequest(RegistrationRequest.type, (p) => {
      for (const r of p.registrations) this.registrations.push({ method: r.method, options: r.registerOptions as unknown });
    });
    client.listen();
  }

  static async start(folders: readonly string[], options: EditorOptions = {}): Promise<Editor> {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const server = startServer({
      input: toServer,
      output: toClient,
      ...(options.watch !== undefined ? { watch: options.watch } : {}),
      ...(options.cache ? { cache: options.cache } : {}),
    });
    const client = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
    const editor = new Editor(server, client);
    editors.push(editor);
    const capabilities: ClientCapabilities = options.capabilities ?? {
      workspace: {
        didChangeWatchedFiles: { dynamicRegistration: options.watches !== false },
        workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'] },
        workspaceFolders: true,
      },
    };
    editor.initialized = await client.sendRequest(InitializeRequest.type, {
      processId: null,
      rootUri: folders[0] ? uriOf(folders[0]) : null,
      workspaceFolders: folders.map((f) => ({ uri: uriOf(f), name: f })),
      capabilities,
      ...options.init,
    });
    await client.sendNotification(InitializedNotification.type, {});
    return editor;
  }

  /** Once every change handed in so far is checked and published (the server answers this request only then). */
  async settled(): Promise<void> {
    await this.client.sendRequest(WorkspaceSymbolRequest.type, { query: '\u0000settled' });
  }

  of(abs: string): Diagnostic[] | undefined {
    return this.diagnostics.get(docUri(abs));
  }

  async open(abs: string, text = readFileSync(abs, 'utf8')): Promise<void> {
    this.versions.set(abs, 1);
    await this.client.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: docUri(abs), languageId: 'markdown', version: 1, text },
    });
  }

  /** Replace a document's whole text (an editor opens a document before it changes it). */
  async change(abs: string, text: string): Promise<void> {
    if (!this.versions.has(abs)) return this.open(abs, text);
    const version = this.versions.get(abs)! + 1;
    this.versions.set(abs, version);
    await this.client.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: docUri(abs), version },
      contentChanges: [{ text }],
    });
  }

  async close(abs: string): Promise<void> {
    this.versions.delete(abs);
    await this.client.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: docUri(abs) } });
  }

  async filesChanged(changes: FileEvent[]): Promise<void> {
    await this.client.sendNotification(DidChangeWatchedFilesNotification.type, { changes });
  }

  async folders(added: string[], removed: string[]): Promise<void> {
    await this.client.sendNotification(DidChangeWorkspaceFoldersNotification.type, {
      event: { added: added.map((f) => ({ uri: uriOf(f), name: f })), removed: removed.map((f) => ({ uri: uriOf(f), name: f })) },
    });
  }

  async stop(): Promise<void> {
    await this.client.sendRequest(ShutdownRequest.type).catch(() => undefined);
    this.client.dispose();
    this.server.dispose();
  }

  hover(abs: string, position: Position): Promise<Hover | null> {
    return this.client.sendRequest(HoverRequest.type, { textDocument: { uri: docUri(abs) }, position });
  }
  definition(abs: string, position: Position): Promise<Location[] | null> {
    return this.client.sendRequest(DefinitionRequest.type, { textDocument: { uri: docUri(abs) }, position }) as Promise<Location[] | null>;
  }
  references(abs: string, position: Position, includeDeclaration = true): Promise<Location[] | null> {
    return this.client.sendRequest(ReferencesRequest.type, {
      textDocument: { uri: docUri(abs) },
      position,
      context: { includeDeclaration },
    });
  }
  highlights(abs: string, position: Position): Promise<DocumentHighlight[] | null> {
    return this.client.sendRequest(DocumentHighlightRequest.type, { textDocument: { uri: docUri(abs) }, position });
  }
  symbols(abs: string): Promise<DocumentSymbol[] | null> {
    return this.client.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: docUri(abs) } }) as Promise<DocumentSymbol[] | null>;
  }
  workspaceSymbols(query: string): Promise<SymbolInformation[] | null> {
    return this.client.sendRequest(WorkspaceSymbolRequest.type, { query }) as Promise<SymbolInformation[] | null>;
  }
  completion(abs: string, position: Position): Promise<CompletionItem[] | null> {
    return this.client.sendRequest(CompletionRequest.type, { textDocument: { uri: docUri(abs) }, position }) as Promise<
      CompletionItem[] | null
    >;
  }
  prepareRename(abs: string, position: Position) {
    return this.client.sendRequest(PrepareRenameRequest.type, { textDocument: { uri: docUri(abs) }, position });
  }
  rename(abs: string, position: Position, newName: string): Promise<WorkspaceEdit | null> {
    return this.client.sendRequest(RenameRequest.type, { textDocument: { uri: docUri(abs) }, position, newName });
  }
  /** a rename's answer, or the message of its refusal */
  renameOrWhy(abs: string, position: Position, newName: string): Promise<WorkspaceEdit | null | string> {
    return this.rename(abs, position, newName).catch((e: Error) => e.message);
  }
  actions(abs: string, from: number, to: number, diagnostics: Diagnostic[] | undefined, only?: string[]): Promise<CodeAction[] | null> {
    return this.client.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: docUri(abs) },
      range: { start: { line: from, character: 0 }, end: { line: to, character: 0 } },
      context: { ...(diagnostics ? { diagnostics } : {}), ...(only ? { only } : {}) },
    } as never) as Promise<CodeAction[] | null>;
  }
}

/** A range as `line:character-line:character` (0-based, as the protocol counts). */
const r = (x: Range) => `${x.start.line}:${x.start.character}-${x.end.line}:${x.end.character}`;

/** A location as `path:range`, the path relative to the project root. */
const placeOf = (root: string) => (l: Location) => `${rel(root, l.uri)}:${r(l.range)}`;

/** The project-relative path of a file URI (outside the project: the absolute path). */
function rel(root: string, uri: string): string {
  const abs = fileURLToPath(uri);
  return abs.startsWith(`${root}/`) ? abs.slice(root.length + 1) : abs === root ? '' : abs;
}

/** What a hover shows. */
const shownText = (h: Hover | null) => (h === null ? null : (h.contents as MarkupContent).value);

/** The offset of a protocol position in a text. */
function offset(text: string, p: Position): number {
  let atOffset = 0;
  for (let l = 0; l < p.line; l++) atOffset = text.indexOf('\n', atOffset) + 1;
  return atOffset + p.character;
}

/** A text with edits applied (from the last to the first). */
function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => offset(text, b.range.start) - offset(text, a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, offset(out, e.range.start)) + e.newText + out.slice(offset(out, e.range.end));
  return out;
}

const CONFIG = `skills_dir: skills/
max_iterations: 20
standard_verbs:
  - implement
  - commit
  - review
  - complete
halt_reasons:
  - stall
  - budget
enforced_states:
  - name: in-dev
    agent: dev-agent
    description: The developer builds the story
  - name: in-review
    agent: qa-agent
    description: ""
  - name: done
    agent: ""
    description: Finished
rules:
  loop-nonstandard-verb: warning
loop_state_files: []
`;

const BUILD_SKILL = `---
name: building-things
description: Builds the story AC by AC. Use when a story is ready.
x-owner: me
---
## Description

Builds the story; the contract is in [LOOP.md](LOOP.md#state-transition-rule).

## Rules

1. Keep it green.

## State Model

Starts in \`in-dev\`, hands over in \`in-review\`, or stops in \`halted-stall\`.
`;

const BUILD_LOOP = `## Entry Conditions

The story is ready.

## Loop State Schema

| field | type | description |
|-------|------|-------------|
| story | str | Story identifier |
| status | state | Where the story is |

| value | state |
|-------|-------|
| open | \`in-dev\` |

## Single Iteration Step

1. Implement the next AC.
2. Commit.

## Proof of Progress

One more AC is green.

## State Transition Rule

transition in-dev → in-review
trigger every AC is green
handoff reviewing-things to qa-agent

transition in-dev → halted-stall
halt stall after 5 iterations

## Halt Conditions

halt stall after 5 iterations

## Handoff Target

handoff reviewing-things to qa-agent
`;

const REVIEW_SKILL = `---
name: reviewing-things
description: Reviews the story before it is done. Use when the developer hands it over.
---
## Description

Reviews the build of \`building-things\`, not \`nobody-here\`. See [LOOP.md](LOOP.md).

## Rules

1. Review every AC.

## State Model

Runs in \`in-review\`; back to \`in-dev\` or on to \`done\`.
`;

const REVIEW_LOOP = `## Entry Conditions

The build runs.

## Loop State Schema

| field | type | description |
|-------|------|-------------|
| story | str | Story identifier |

## Single Iteration Step

<!-- loopkit-disable-next-line loop-nonstandard-verb -- a domain verb -->
1. Inspect each AC.

## Proof of Progress

Every AC was reviewed.

## State Transition Rule

transition in-review → in-dev
trigger a bug was found
handoff building-things to dev-agent

transition in-review → done
handoff done to all-agents

## Halt Conditions

None: it does not halt budget, nor halt sometimes.

## Handoff Target

handoff building-things to dev-agent
`;

/** A small project that checks clean: two skills, a README that names them, two agents (Claude Code, OpenCode). */
const MINI: Record<string, string> = {
  '.loopkit.yaml': CONFIG,
  'README.md': '# Mini\n\n- `building-things` builds\n- `reviewing-things` reviews\n',
  'skills/building-things/SKILL.md': BUILD_SKILL,
  'skills/building-things/LOOP.md': BUILD_LOOP,
  'skills/reviewing-things/SKILL.md': REVIEW_SKILL,
  'skills/reviewing-things/LOOP.md': REVIEW_LOOP,
  '.claude/agents/qa-agent.md': '---\nname: qa-agent\ndescription: Reviews stories.\n---\nYou review.\n',
  '.opencode/agent/dev-agent.md': '---\ndescription: Builds stories.\n---\nYou build.\n',
};

function mini(changes: Record<string, string | null> = {}): string {
  const files: Record<string, string> = { ...MINI };
  for (const [path, text] of Object.entries(changes)) {
    if (text === null) delete files[path];
    else files[path] = text;
  }
  return temps.project(files, 'loopkit-lsp-units-');
}

/** The protocol position of `needle` (its first occurrence, or the `nth`) in a text, plus `within` characters. */
function at(text: string, needle: string, within = 0, nth = 0): Position {
  const lines = text.split('\n');
  let seen = 0;
  for (let line = 0; line < lines.length; line++) {
    let i = lines[line]!.indexOf(needle);
    while (i >= 0) {
      if (seen++ === nth) return { line, character: i + within };
      i = lines[line]!.indexOf(needle, i + 1);
    }
  }
  throw new Error(`${needle} not in the text`);
}

const BL = 'skills/building-things/LOOP.md';
const BS = 'skills/building-things/SKILL.md';
const RL = 'skills/reviewing-things/LOOP.md';
const RS = 'skills/reviewing-things/SKILL.md';

/** A session on a project, with the reader the server gives the features (the session's text of a file). */
async function sessionOf(root: string): Promise<{ session: ProjectSession; read: (path: string) => string | null }> {
  const session = await openSession({ root, concurrency: 'off' });
  const read = (path: string) => {
    const got = session.read(path);
    return 'text' in got ? got.text : null;
  };
  return { session, read };
}

/** An occurrence as `kind name line:column exact role skill`. */
const occ = (o: Occurrence) => `${o.kind} ${o.name} ${o.line}:${o.column}${o.exact ? ' exact' : ''} ${o.role} ${o.skill}`;

describe('convert.ts: places and diagnostics in the protocol', () => {
  it('uriPath reads file URIs only; pathUri and fileUri make them', () => {
    expect(uriPath('file:///tmp/a%20b/c.md')).toBe('/tmp/a b/c.md');
    expect(uriPath('untitled:Untitled-1')).toBeNull();
    expect(uriPath('git:/tmp/c.md')).toBeNull();
    // a host in a file URI: no path on this system
    expect(uriPath('file://server/share/c.md')).toBeNull();
    expect(pathUri('/tmp/a b/c#1.md')).toBe('file:///tmp/a%20b/c%231.md');
    expect(fileUri('/tmp/r', '')).toBe('file:///tmp/r');
    expect(fileUri('/tmp/r', 'skills/a b.md')).toBe('file:///tmp/r/skills/a%20b.md');
  });

  it('projectPath: the path inside the root with `/`, null outside it', () => {
    expect(projectPath('/tmp/r', '/tmp/r/skills/a/SKILL.md')).toBe('skills/a/SKILL.md');
    expect(projectPath('/tmp/r', '/tmp/r')).toBe('');
    expect(projectPath('/tmp/r', '/tmp/other/x.md')).toBeNull();
    expect(projectPath('/tmp/r', '/tmp/r2/x.md')).toBeNull();
    expect(projectPath('/tmp/r', '/tmp')).toBeNull();
    // a name that only starts with two dots is inside
    expect(projectPath('/tmp/r', '/tmp/r/..notes.md')).toBe('..notes.md');
    expect(projectPath('/tmp/r', '/tmp/r/..drafts/x.md')).toBe('..drafts/x.md');
  });

  it('position, range and span: 1-based places as 0-based positions, never negative', () => {
    expect(position(3, 5)).toEqual({ line: 2, character: 4 });
    expect(position(null, undefined)).toEqual({ line: 0, character: 0 });
    expect(position(0, 0)).toEqual({ line: 0, character: 0 });
    expect(position(1, 1)).toEqual({ line: 0, character: 0 });
    expect(r(range(2, 3))).toBe('1:2-1:2');
    expect(r(range(2, 3, 4, 9))).toBe('1:2-3:8');
    // no end column: the end is at the start's column
    expect(r(range(2, 3, 4, null))).toBe('1:2-3:2');
    expect(r(range(2, 3, null, 9))).toBe('1:2-1:2');
    expect(r(range(2, 3, undefined, 9))).toBe('1:2-1:2');
    // no line: the start of the file, whatever the end
    expect(r(range(null, 3, 4, 9))).toBe('0:2-0:2');
    expect(r(span(3, 4, 5))).toBe('2:3-2:8');
    expect(location('/tmp/r', 'a.md', span(1, 1, 2))).toEqual({
      uri: 'file:///tmp/r/a.md',
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 2 } },
    });
  });

  it('rulePage: the rule page of the running loopkit, null for a code without one; diagnosticMessage adds the hint', () => {
    const page = uriOf(join(ROOT, 'docs', 'rules', 'graph-dead-end.md'));
    expect(rulePage('graph-dead-end')).toBe(page);
    expect(rulePage('graph-dead-end')).toBe(page);
    expect(rulePage('no-such-rule')).toBeNull();
    expect(rulePage('no-such-rule')).toBeNull();
    expect(diagnosticMessage({ message: 'Broken.', help: '' })).toBe('Broken.');
    expect(diagnosticMessage({ message: 'Broken.', help: 'Mend it.' })).toBe('Broken.\nMend it.');
  });

  it('lspDiagnostic: range, severity, code and page, message with hint, witness path, data', () => {
    const d: EngineDiagnostic = {
      code: 'graph-dead-end',
      severity: 'warning',
      message: 'A dead end.',
      help: 'Add a transition.',
      file: 'skills/a/LOOP.md',
      line: 3,
      column: 2,
      endLine: 3,
      endColumn: 9,
      skill: 'running-a',
      messageId: 'deadEnd',
      related: [
        { message: 'step 1: a → b', file: 'skills/a/LOOP.md', line: 4, column: 1 },
        { message: 'the file', file: 'README.md', line: null, column: null },
      ],
    };
    expect(lspDiagnostic('/tmp/r', d)).toStrictEqual({
      range: { start: { line: 2, character: 1 }, end: { line: 2, character: 8 } },
      severity: 2,
      code: 'graph-dead-end',
      source: 'loopkit',
      message: 'A dead end.\nAdd a transition.',
      codeDescription: { href: uriOf(join(ROOT, 'docs', 'rules', 'graph-dead-end.md')) },
      relatedInformation: [
        {
          location: { uri: 'file:///tmp/r/skills/a/LOOP.md', range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } } },
          message: 'step 1: a → b',
        },
        {
          location: { uri: 'file:///tmp/r/README.md', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } },
          message: 'the file',
        },
      ],
      data: { messageId: 'deadEnd', skill: 'running-a' },
    });
    const bare: EngineDiagnostic = {
      code: 'no-such-rule',
      severity: 'info',
      message: 'Note.',
      help: '',
      file: 'a.md',
      line: null,
      column: null,
      related: [],
    };
    expect(lspDiagnostic('/tmp/r', bare)).toStrictEqual({
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      severity: 3,
      code: 'no-such-rule',
      source: 'loopkit',
      message: 'Note.',
    });
    expect(lspDiagnostic('/tmp/r', { ...bare, severity: 'error', messageId: 'only' }).data).toStrictEqual({ messageId: 'only' });
    expect(lspDiagnostic('/tmp/r', { ...bare, severity: 'error', skill: 'running-a' })).toMatchObject({
      severity: 1,
      data: { skill: 'running-a' },
    });
    expect(lspDiagnostic('/tmp/r', { ...bare, skill: 'running-a' }).data).toStrictEqual({ skill: 'running-a' });
  });
});

describe('context.ts: what a feature works on', () => {
  it('featureContext: the file kind (its role, the configuration, or none), its lines, the index of the check', async () => {
    const root = mini();
    const { session, read } = await sessionOf(root);
    const check = session.state.check!;
    const ctx = featureContext(root, check, BL, 'line one\r\nline two\n', read);
    expect({ ...ctx, check: null, index: null, text: null }).toEqual({
      root,
      check: null,
      index: null,
      path: BL,
      kind: 'loop',
      lines: ['line one', 'line two', ''],
      source: 'line one\r\nline two\n',
      text: null,
    });
    expect(ctx.check).toBe(check);
    expect(ctx.index).toBe(contractIndex(check, read));
    expect(ctx.text('README.md')).toBe(MINI['README.md']);
    expect(featureContext(root, check, BS, '', read).kind).toBe('skill');
    expect(featureContext(root, check, 'README.md', '', read).kind).toBe('readme');
    expect(featureContext(root, check, '.loopkit.yaml', '', read).kind).toBe('config');
    expect(featureContext(root, check, 'notes.md', '', read).kind).toBeNull();
    expect(splitText('a\r\nb\nc')).toEqual(['a', 'b', 'c']);
  });

  it('featureContext: `.loopkit.yaml` is the configuration also in a project that has none yet', async () => {
    const root = mini({ '.loopkit.yaml': null });
    const { session, read } = await sessionOf(root);
    const check = session.state.check!;
    expect(check.project.configFile).toBeNull();
    expect(featureContext(root, check, '.loopkit.yaml', '', read).kind).toBe('config');
    expect(featureContext(root, check, 'config.yaml', '', read).kind).toBeNull();
  });

  it('linesOf reads another file once (the current one from the editor); occurrenceLocation finds an inexact name in the text', async () => {
    const root = mini();
    const { session, read } = await sessionOf(root);
    const reads: string[] = [];
    const ctx = featureContext(root, session.state.check!, BL, 'edited\ntext', (p) => {
      reads.push(p);
      return read(p);
    });
    // the index, made for this check, read the README
    expect(reads.splice(0)).toEqual(['README.md']);
    const memo = new Map<string, readonly string[]>();
    expect(linesOf(ctx, BL, memo)).toBe(ctx.lines);
    expect(linesOf(ctx, 'README.md', memo)).toEqual(['# Mini', '', '- `building-things` builds', '- `reviewing-things` reviews', '']);
    expect(linesOf(ctx, 'README.md', memo)).toBe(memo.get('README.md'));
    expect(linesOf(ctx, 'gone.md', memo)).toEqual(['']);
    expect(reads).toEqual(['README.md', 'gone.md']);
    // a code span's place is its backtick: the name is found after it; an exact place is taken as it is
    const declared = ctx.index.byFile.get(BS)!.find((o) => o.role === 'declared' && o.name === 'in-review')!;
    expect(occ(declared)).toBe('state in-review 16:35 declared 0');
    expect(placeOf(root)(occurrenceLocation(ctx, declared, memo))).toBe(`${BS}:15:35-15:44`);
    expect(placeOf(root)(occurrenceLocation(ctx, { ...declared, exact: true }, memo))).toBe(`${BS}:15:34-15:43`);
    // the text no longer holds it: the place as the index has it
    const stale = { ...declared, file: 'gone.md' };
    expect(placeOf(root)(occurrenceLocation(ctx, stale, memo))).toBe('gone.md:15:34-15:43');
  });
});

describe('contract-index.ts: where the contract names things', () => {
  it('locate: the whole token nearest after the column, else the last before it', () => {
    expect(locate('in-dev', 'in-dev', 1)).toBe(1);
    expect(locate('x in-dev', 'in-dev', 1)).toBe(3);
    expect(locate('in-dev in-dev in-dev', 'in-dev', 8)).toBe(8);
    expect(locate('in-dev in-dev in-dev', 'in-dev', 9)).toBe(15);
    expect(locate('in-dev in-dev', 'in-dev', 30)).toBe(8);
    expect(locate('in-dev-x in-dev', 'in-dev', 1)).toBe(10);
    expect(locate('xin-dev in-devs', 'in-dev', 1)).toBeNull();
    expect(locate('(in-dev)', 'in-dev', 1)).toBe(2);
    expect(locate('no state here', 'in-dev', 1)).toBeNull();
  });

  it('placeIn: an exact place where the text still holds the name, else the name found on its line', () => {
    const o: Occurrence = { kind: 'state', name: 'in-dev', file: 'a.md', line: 2, column: 3, exact: true, role: 'from', skill: 0 };
    expect(placeIn(o, ['', 'x in-dev in-dev'])).toBe(3);
    expect(placeIn(o, ['', 'xy in-dev in-dev'])).toBe(4);
    expect(placeIn({ ...o, exact: false }, ['', 'x in-dev in-dev'])).toBe(3);
    expect(placeIn({ ...o, exact: false }, ['', '`in-dev` in-dev'])).toBe(10);
    expect(placeIn({ ...o, exact: false, column: 1 }, ['', '`in-dev` in-dev'])).toBe(2);
    expect(placeIn(o, ['', 'nothing'])).toBeNull();
    expect(placeIn(o, ['only one line'])).toBeNull();
  });

  it('wordAt: the name under a column, with where it starts', () => {
    expect(wordAt('go to in-dev now', 7)).toEqual({ word: 'in-dev', column: 7 });
    expect(wordAt('go to in-dev now', 10)).toEqual({ word: 'in-dev', column: 7 });
    // just after the word: still the word
    expect(wordAt('go to in-dev now', 13)).toEqual({ word: 'in-dev', column: 7 });
    expect(wordAt('in-dev', 7)).toEqual({ word: 'in-dev', column: 1 });
    expect(wordAt('a_b-c9 d', 1)).toEqual({ word: 'a_b-c9', column: 1 });
    expect(wordAt('(  )', 3)).toBeNull();
    expect(wordAt('', 1)).toBeNull();
  });

  it('the index of a project: every place, by file and by name, and what the project knows', async () => {
    const root = mini();
    const { session, read } = await sessionOf(root);
    const check = session.state.check!;
    const index = contractIndex(check, read);
    expect(contractIndex(check, read)).toBe(index);
    expect(Object.fromEntries([...index.byFile].map(([f, list]) => [f, list.map(occ)]))).toEqual({
      '.claude/agents/qa-agent.md': ['agent qa-agent 2:6 name -1'],
      '.loopkit.yaml': [
        'halt stall 9:5 config -1',
        'halt budget 10:5 config -1',
        'state in-dev 12:11 config -1',
        'agent dev-agent 13:12 config -1',
        'state in-review 15:11 config -1',
        'agent qa-agent 16:12 config -1',
        'state done 18:11 config -1',
        'code loop-nonstandard-verb 22:3 config -1',
      ],
      'README.md': ['skill building-things 3:4 exact readme -1', 'skill reviewing-things 4:4 exact readme -1'],
      [BL]: [
        'state in-dev 14:11 value 0',
        'state in-dev 27:12 exact from 0',
        'state in-review 27:21 exact to 0',
        'skill reviewing-things 29:9 exact directive 0',
        'agent qa-agent 29:25 directive 0',
        'state in-dev 31:12 exact from 0',
        'state halted-stall 31:21 exact to 0',
        'halt stall 32:6 exact directive 0',
        'halt stall 36:6 exact mention 0',
        'skill reviewing-things 40:9 exact mention 0',
        'agent qa-agent 40:25 directive 0',
      ],
      [BS]: [
        'skill building-things 2:6 name 0',
        'state in-dev 16:11 declared 0',
        'state in-review 16:35 declared 0',
        'state halted-stall 16:60 declared 0',
      ],
      [RL]: [
        'code loop-nonstandard-verb 13:1 suppression 1',
        'state in-review 22:12 exact from 1',
        'state in-dev 22:24 exact to 1',
        'skill building-things 24:9 exact directive 1',
        'agent dev-agent 24:24 directive 1',
        'state in-review 26:12 exact from 1',
        'state done 26:24 exact to 1',
        'skill done 27:9 exact directive 1',
        'halt budget 31:24 exact mention 1',
        'skill building-things 35:9 exact mention 1',
        'agent dev-agent 35:24 directive 1',
      ],
      [RS]: [
        'skill reviewing-things 2:6 name 1',
        'skill building-things 7:22 mention 1',
        'state in-review 15:9 declared 1',
        'state in-dev 15:30 declared 1',
        'state done 15:48 declared 1',
      ],
    });
    expect([...index.states]).toEqual(['in-dev', 'in-review', 'halted-stall', 'done']);
    expect([...index.skills.keys()]).toEqual(['building-things', 'reviewing-things']);
    expect([...index.haltReasons]).toEqual(['stall', 'budget']);
    expect([...index.agents.keys()]).toEqual(['qa-agent', 'dev-agent']);
    // by name: the files in the order of their paths, each in document order
    expect(index.byName.get(key('state', 'in-review'))!.map(occ)).toEqual([
      'state in-review 15:11 config -1',
      'state in-review 27:21 exact to 0',
      'state in-review 16:35 declared 0',
      'state in-review 22:12 exact from 1',
      'state in-review 26:12 exact from 1',
      'state in-review 15:9 declared 1',
    ]);
    expect(index.byName).toBe(index.byName);
    expect(index.byName.get(key('halt', 'sometimes'))).toBeUndefined();
  });
});

describe('contract-index.ts: what else a project may write', () => {
  it('state settings of the configuration, default halt reasons, a legacy HANDOFFS.md, names that are nothing', async () => {
    const root = mini({
      '.loopkit.yaml':
        `${CONFIG.replace('halt_reasons:\n  - stall\n  - budget\n', '')}deskcheck_enabled: false\ndeskcheck_state: in-review\ndeskcheck_forward_to: "in-waiting"\n`.replace(
          'rules:',
          '  - name: in-hold\n  - name: building-things\nrules:',
        ),
      [RS]: REVIEW_SKILL.replace('on to `done`', 'on to `done` or `in-pause`'),
      'README.md': '# V\n\n- `building-things` builds\n- `not-a-skill` nothing\n',
      'skills/legacy-thing/SKILL.md':
        '---\ndescription: Handles the old format. Use when testing.\n---\n## Description\n\nOld; names `nothing-known` only.\n',
      'skills/legacy-thing/HANDOFFS.md': '# Handoffs\n\n  transition in-review → in-limbo\n  halt frozen after 3 iterations\n',
      '.opencode/agent/dev-agent.md': '---\nname: dev-agent\ndescription: Builds stories.\n---\nYou build.\n',
    });
    const { session, read } = await sessionOf(root);
    const index = contractIndex(session.state.check!, read);
    const shown = Object.fromEntries([...index.byFile].map(([f, list]) => [f, list.map(occ)]));
    expect(shown).toEqual({
      '.claude/agents/qa-agent.md': ['agent qa-agent 2:6 name -1'],
      // the state settings, a quoted one at its quote; no halt_reasons written: none of them here
      '.loopkit.yaml': [
        'state in-dev 9:11 config -1',
        'agent dev-agent 10:12 config -1',
        'state in-review 12:11 config -1',
        'agent qa-agent 13:12 config -1',
        'state done 15:11 config -1',
        'state in-hold 18:11 config -1',
        'state building-things 19:11 config -1',
        'code loop-nonstandard-verb 21:3 config -1',
        'state in-review 24:18 config -1',
        'state in-waiting 25:23 config -1',
      ],
      // a backticked name that is no skill is no place
      'README.md': ['skill building-things 3:4 exact readme -1'],
      [BL]: index.byFile.get(BL)!.map(occ),
      [BS]: index.byFile.get(BS)!.map(occ),
      // the legacy transitions; the SKILL.md without a name, that names nothing the project knows, holds no place
      'skills/legacy-thing/HANDOFFS.md': [
        'state in-review 3:14 exact from 1',
        'state in-limbo 3:26 exact to 1',
        'halt frozen 4:8 exact directive 1',
      ],
      [RL]: index.byFile.get(RL)!.map(occ),
      // a backticked name that is a state is a state, though a skill has the name too
      [RS]: [
        'skill reviewing-things 2:6 name 2',
        'state building-things 7:22 mention 2',
        'state in-review 15:9 declared 2',
        'state in-dev 15:30 declared 2',
        'state done 15:48 declared 2',
        'state in-pause 15:58 declared 2',
      ],
    });
    // the OpenCode agent is named by its file, whatever its frontmatter says
    expect(index.byName.get(key('agent', 'dev-agent'))!.map((o) => o.file)).toEqual(['.loopkit.yaml', RL, RL]);
    // the graph's, then those only declared, enforced, or named by a setting
    expect([...index.states]).toEqual([
      'in-dev',
      'in-review',
      'halted-stall',
      'in-limbo',
      'done',
      'in-pause',
      'in-hold',
      'building-things',
      'in-waiting',
    ]);
    // the defaults (no halt_reasons written), and a halt of a transition that none declares
    expect([...index.haltReasons]).toEqual(['stall', 'ambiguous', 'human-gate', 'unsafe', 'budget', 'frozen']);
  });

  it('occurrenceAt and nameAt: the place under a column, else a word of the text the project knows', async () => {
    const root = mini();
    const { session, read } = await sessionOf(root);
    const index = contractIndex(session.state.check!, read);
    const lines = splitText(BUILD_LOOP);
    const found = (line: number, column: number, ls = lines, file = BL) => {
      const o = nameAt(index, file, ls, line, column);
      return o === undefined ? null : occ(o);
    };
    // `transition in-dev → in-review`: in-dev from its first column to just after it
    expect(found(27, 11)).toBeNull();
    expect(found(27, 12)).toBe('state in-dev 27:12 exact from 0');
    expect(found(27, 18)).toBe('state in-dev 27:12 exact from 0');
    expect(found(27, 19)).toBeNull();
    expect(found(27, 21)).toBe('state in-review 27:21 exact to 0');
    // an inexact place is found in the text: the value row's backticked state
    expect(found(14, 12)).toBe('state in-dev 14:11 exact value 0');
    expect(occurrenceAt(index, BL, lines, 14, 10)).toBeUndefined();
    // the text moved: the name where it is now; gone from the line: nothing of the index
    const moved = [...lines];
    moved[26] = 'transition  in-dev → in-review';
    expect(found(27, 13, moved)).toBe('state in-dev 27:13 exact from 0');
    moved[26] = 'transition x → y';
    expect(occurrenceAt(index, BL, moved, 27, 12)).toBeUndefined();
    // a word of the prose that the project knows
    expect(found(1, 8, ['Go to in-review now.'], 'notes.md')).toBe('state in-review 1:7 exact mention -1');
    expect(found(1, 6, ['Ask building-things.'], 'notes.md')).toBe('skill building-things 1:5 exact mention -1');
    expect(found(1, 10, ['We halt  stall here.'], 'notes.md')).toBe('halt stall 1:10 exact mention -1');
    expect(found(1, 6, ['A stall here.'], 'notes.md')).toBeNull();
    expect(found(1, 8, ['unhalt stall'], 'notes.md')).toBeNull();
    expect(found(1, 3, ['A nobody-here.'], 'notes.md')).toBeNull();
    expect(found(1, 2, ['  '], 'notes.md')).toBeNull();
    expect(found(5, 1, ['one line'], 'notes.md')).toBeNull();
    expect(key('halt', 'stall')).toBe('halt:stall');
  });
});

/** setTimeout and clearTimeout, spied on (they still run): the settle timers of a burst and those cleared. */
function spyTimers(ms: number) {
  const setSpy = vi.spyOn(globalThis, 'setTimeout');
  const clearSpy = vi.spyOn(globalThis, 'clearTimeout');
  restorers.push(() => {
    setSpy.mockRestore();
    clearSpy.mockRestore();
  });
  return {
    /** the timers set for `ms` */
    set: () => setSpy.mock.calls.map((c, i) => ({ ms: c[1], handle: setSpy.mock.results[i]!.value as unknown })).filter((t) => t.ms === ms),
    cleared: () => clearSpy.mock.calls.map((c) => c[0] as unknown),
  };
}

describe('watch.ts: the server’s own watching of a project', () => {
  it('watches the root alone and the skills directory with all it holds; a burst is handed over together, once quiet', async () => {
    // (what exists is made before the watch starts: the real watchers must see no event of the test)
    const root = temps.project({ 'skills/a/SKILL.md': 'a', 'skills/c/SKILL.md': 'c', 'README.md': 'r' });
    const skillsDir = join(root, 'skills');
    const bursts = new EventQueue<{ abs: string; type: string }[]>();
    const failures: string[] = [];
    const timers = spyTimers(60);
    const w = watchProject(
      root,
      [skillsDir],
      (c) => bursts.push(c),
      (m) => failures.push(m),
    );
    expect(openWatchers()).toEqual([root, `${skillsDir} (recursive)`]);
    expect(w.dirs).toEqual([skillsDir]);
    const [top, skills] = watched.list as [Watched, Watched];
    skills.listener('change', 'a/SKILL.md');
    skills.listener('rename', 'b');
    skills.listener('rename', 'c');
    // a file that appears and is then written: what it is last
    skills.listener('rename', 'a/SKILL.md');
    skills.listener('change', 'a/SKILL.md');
    skills.listener('rename', 'node_modules/x');
    skills.listener('change', 'a/.git/HEAD');
    skills.listener('change', null as unknown as string);
    top.listener('change', 'README.md');
    top.listener('rename', '.git');
    // one settle time for the whole burst
    expect(timers.set()).toHaveLength(1);
    expect(await bursts.next(() => true, 'the burst')).toEqual([
      { abs: join(skillsDir, 'a/SKILL.md'), type: 'changed' },
      { abs: join(skillsDir, 'b'), type: 'deleted' },
      { abs: join(skillsDir, 'c'), type: 'created' },
      { abs: join(root, 'README.md'), type: 'changed' },
    ]);
    // the next burst: a settle time of its own, only its own changes
    top.listener('rename', 'README.md');
    expect(timers.set()).toHaveLength(2);
    expect(await bursts.next(() => true, 'the second burst')).toEqual([{ abs: join(root, 'README.md'), type: 'created' }]);
    // closed with a burst under way: its timer is cleared, every watcher closed
    skills.listener('change', 'a/SKILL.md');
    expect(timers.set()).toHaveLength(3);
    expect(timers.cleared()).not.toContain(timers.set()[2]!.handle);
    w.close();
    expect(timers.cleared()).toContain(timers.set()[2]!.handle);
    expect(openWatchers()).toEqual([]);
    expect(bursts.all()).toHaveLength(2);
    expect(failures).toEqual([]);
  });

  it('skills kept at the top: the root with all it holds, one watcher; a directory that cannot be watched is told', () => {
    const root = temps.project({ 'a/SKILL.md': 'a' });
    const failures: string[] = [];
    const w = watchProject(
      root,
      [root, join(root, 'missing')],
      () => undefined,
      (m) => failures.push(m),
    );
    expect(openWatchers()).toEqual([`${root} (recursive)`]);
    expect(failures).toEqual([`${join(root, 'missing')}: ENOENT: no such file or directory, stat '${join(root, 'missing')}'`]);
    // an error of a watcher, later
    watched.list[0]!.watcher.emit('error', new Error('the watch ended'));
    expect(failures).toEqual([
      `${join(root, 'missing')}: ENOENT: no such file or directory, stat '${join(root, 'missing')}'`,
      `${root}: the watch ended`,
    ]);
    w.close();
    expect(openWatchers()).toEqual([]);
  });

  it('real file-system events: a file deleted deep in a skills directory, a folder created; nothing of a folder beside them', async () => {
    const root = temps.project({ 'skills/a/old.md': 'old', 'skills/a/SKILL.md': 'a', 'other/x.md': 'x' });
    const changes: { abs: string; type: string }[] = [];
    const seen = new EventQueue<number>();
    const w = watchProject(
      root,
      [join(root, 'skills')],
      (c) => {
        changes.push(...c);
        seen.push(changes.length);
      },
      () => undefined,
    );
    writeFileSync(join(root, 'other', 'x.md'), 'changed');
    rmSync(join(root, 'skills', 'a', 'old.md'));
    mkdirSync(join(root, 'skills', 'd'));
    await seen.next(() => changes.some((c) => c.abs.endsWith('old.md')) && changes.some((c) => c.abs.endsWith('/d')), 'both events');
    expect(changes).toEqual([
      { abs: join(root, 'skills', 'a', 'old.md'), type: 'deleted' },
      { abs: join(root, 'skills', 'd'), type: 'created' },
    ]);
    w.close();
  });
});

/** A diagnostic as `range severity code message` (the message with its hint). */
const diag = (d: Diagnostic) => `${r(d.range)} ${d.severity} ${String(d.code ?? '-')} ${d.message}`;

/** Every publication so far as `path: diagnostics`, in order. */
const publishedOf = (e: Editor, root: string) =>
  e.publications.all().map((p) => `${rel(root, p.uri)}: ${p.diagnostics.map((d) => d.code ?? d.message).join(', ')}`);

const VERB =
  "18:3-18:3 2 loop-nonstandard-verb Non-standard verb 'Flurbish' in LOOP.md for `building-things` at line 19\nStandard verbs: implement, commit, review, complete. Consider using one of these for clarity.";

describe('server: initialize, folders and watching', () => {
  it('answers initialize with its capabilities, registers for file watching and reads the folder', async () => {
    const root = mini();
    const e = await Editor.start([root]);
    await e.settled();
    expect(e.initialized).toEqual({
      serverInfo: { name: 'loopkit', version: '0.4.0' },
      capabilities: {
        textDocumentSync: { openClose: true, change: 2, save: { includeText: false } },
        definitionProvider: true,
        referencesProvider: true,
        documentHighlightProvider: true,
        documentSymbolProvider: { label: 'loopkit' },
        workspaceSymbolProvider: true,
        hoverProvider: true,
        completionProvider: { triggerCharacters: [' ', '`'] },
        codeActionProvider: { codeActionKinds: ['quickfix', 'source.fixAll.loopkit'] },
        renameProvider: { prepareProvider: true },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
    });
    expect(e.registrations).toEqual([{ method: 'workspace/didChangeWatchedFiles', options: { watchers: [{ globPattern: '**/*' }] } }]);
    expect(e.logs).toEqual([{ type: 3, message: `workspace folder ${root}: 2 skills, 0 problems` }]);
    // a clean project: nothing published, nothing watched by the server
    expect(e.publications.all()).toEqual([]);
    expect(openWatchers()).toEqual([]);
  });

  it('a client that does not watch files: the server watches the root and the skills directory, until shut down', async () => {
    const root = mini();
    const e = await Editor.start([root], { watches: false });
    await e.settled();
    expect(e.registrations).toEqual([]);
    expect(openWatchers()).toEqual([root, `${join(root, 'skills')} (recursive)`]);
    editors.splice(editors.indexOf(e), 1);
    await e.stop();
    expect(openWatchers()).toEqual([]);
  });

  it('--watch forces the server’s own watching; watch: false turns it off', async () => {
    const root = mini();
    const forced = await Editor.start([root], { watch: true });
    await forced.settled();
    expect(forced.registrations).toEqual([]);
    expect(openWatchers()).toEqual([root, `${join(root, 'skills')} (recursive)`]);
    const off = await Editor.start([root], { watches: false, watch: false });
    await off.settled();
    expect(off.registrations).toEqual([]);
    // no watcher more than the first server's
    expect(watched.list).toHaveLength(2);
    expect(off.logs).toEqual([{ type: 3, message: `workspace folder ${root}: 2 skills, 0 problems` }]);
  });

  it('a client without workspace capabilities: the root is read, watched by the server; folder changes are not followed', async () => {
    const root = mini();
    const other = mini({ [BL]: BUILD_LOOP.replace('2. Commit.', '2. Flurbish the widget.') });
    const e = await Editor.start([root], { capabilities: {} });
    await e.settled();
    expect(e.registrations).toEqual([]);
    expect(openWatchers()).toEqual([root, `${join(root, 'skills')} (recursive)`]);
    await e.folders([other], [root]);
    await e.settled();
    expect(e.logs).toEqual([{ type: 3, message: `workspace folder ${root}: 2 skills, 0 problems` }]);
    expect(e.publications.all()).toEqual([]);
  });

  it('folders added and removed: an added one is read and published, a removed one cleared and no longer watched', async () => {
    const root = mini();
    const other = mini({ [BL]: BUILD_LOOP.replace('2. Commit.', '2. Flurbish the widget.') });
    const e = await Editor.start([root], { watches: false });
    await e.settled();
    await e.folders([other], []);
    await e.settled();
    expect(e.logs.map((l) => l.message)).toEqual([
      `workspace folder ${root}: 2 skills, 0 problems`,
      `workspace folder ${other}: 2 skills, 1 problems`,
    ]);
    expect(e.of(join(other, BL))!.map(diag)).toEqual([VERB]);
    expect(openWatchers()).toEqual([root, `${join(root, 'skills')} (recursive)`, other, `${join(other, 'skills')} (recursive)`]);
    await e.folders([], [other]);
    await e.settled();
    expect(e.of(join(other, BL))).toEqual([]);
    expect(openWatchers()).toEqual([root, `${join(root, 'skills')} (recursive)`]);
    // a file of the removed folder is no longer answered for
    expect(await e.hover(join(other, BL), at(BUILD_LOOP, 'in-dev → in-review', 1))).toBeNull();
    // a folder that is not a file URI is ignored
    await e.client.sendNotification(DidChangeWorkspaceFoldersNotification.type, {
      event: { added: [{ uri: 'untitled:x', name: 'x' }], removed: [{ uri: 'untitled:y', name: 'y' }] },
    });
    await e.settled();
    expect(e.logs).toHaveLength(2);
    expect(await e.hover(join(root, BL), at(BUILD_LOOP, 'in-dev → in-review', 1))).not.toBeNull();
  });

  it('no workspace folders: the root URI, else the root path; a folder that is not a file URI is none', async () => {
    const root = mini();
    const byUri = await Editor.start([], { init: { workspaceFolders: null, rootUri: uriOf(root) } });
    await byUri.settled();
    expect(byUri.logs).toEqual([{ type: 3, message: `workspace folder ${root}: 2 skills, 0 problems` }]);
    const byPath = await Editor.start([], { init: { workspaceFolders: null, rootUri: null, rootPath: root } });
    await byPath.settled();
    expect(byPath.logs).toEqual([{ type: 3, message: `workspace folder ${root}: 2 skills, 0 problems` }]);
    const untitled = await Editor.start([], { init: { workspaceFolders: [{ uri: 'untitled:x', name: 'x' }], rootUri: uriOf(root) } });
    await untitled.settled();
    expect(untitled.logs).toEqual([{ type: 3, message: `workspace folder ${root}: 2 skills, 0 problems` }]);
    const folderWins = await Editor.start([], {
      init: { workspaceFolders: [{ uri: uriOf(root), name: 'r' }], rootUri: uriOf(join(root, 'skills')), rootPath: '/nowhere' },
    });
    await folderWins.settled();
    expect(folderWins.logs).toEqual([{ type: 3, message: `workspace folder ${root}: 2 skills, 0 problems` }]);
  });

  it('no folder at all: a document opened brings in its project, which is then answered for', async () => {
    const root = mini({ [BL]: BUILD_LOOP.replace('2. Commit.', '2. Flurbish the widget.') });
    const e = await Editor.start([], { init: { workspaceFolders: null, rootUri: null, rootPath: null } });
    await e.settled();
    expect(e.logs).toEqual([]);
    // two documents of the project opened at once: it is read once
    await e.open(join(root, BS));
    await e.open(join(root, RS));
    await e.settled();
    expect(e.logs).toEqual([{ type: 3, message: `project ${root}: 2 skills, 1 problems` }]);
    expect(e.of(join(root, BL))!.map(diag)).toEqual([VERB]);
    expect(shownText(await e.hover(join(root, BS), at(BUILD_SKILL, 'x-owner', 1)))).toBe(
      '**x-owner** — a custom key (`x-` prefix): no agent reads it',
    );
  });

  it('a folder that is no project, one that is a file, one that does not exist: told, not read', async () => {
    const empty = temps.project({ 'notes.md': '# Notes\n' });
    const file = join(empty, 'notes.md');
    const e = await Editor.start([empty, file, join(empty, 'missing')]);
    await e.settled();
    expect(e.logs.map((l) => l.message).sort()).toEqual(
      [
        `${empty}: not a loopkit project (no skills found in ${empty}: no SKILL.md below the root)`,
        `${file}: not a directory: ${file} (loopkit checks a project directory)`,
      ].sort(),
    );
    expect(await e.hover(file, { line: 0, character: 2 })).toBeNull();
    // a file opened in the folder that is no project: not read again
    await e.open(file);
    await e.settled();
    expect(e.logs).toHaveLength(2);
  });
});

describe('server: what it publishes as buffers and files change', () => {
  it('the edited file first; a file whose problems did not change is not published again; each cleared once', async () => {
    const root = mini();
    const e = await Editor.start([root]);
    await e.settled();
    const review = join(root, RL);
    const skill = join(root, BS);
    // opened as it is on disk: nothing changes, nothing is published
    await e.open(skill);
    await e.settled();
    expect(publishedOf(e, root)).toEqual([]);
    const flurbish = REVIEW_LOOP.replace('1. Inspect each AC.', '1. Inspect each AC.\n2. Flurbish the widget.');
    await e.change(review, flurbish);
    await e.settled();
    expect(publishedOf(e, root)).toEqual(['skills/reviewing-things/LOOP.md: loop-nonstandard-verb']);
    await e.change(skill, BUILD_SKILL.replace('name: building-things', 'name: building-stuff'));
    await e.settled();
    expect(publishedOf(e, root).slice(1)).toEqual([
      'skills/building-things/SKILL.md: skill-name-mismatch-dir',
      'README.md: xref-unknown-readme-skill',
      'skills/reviewing-things/LOOP.md: loop-nonstandard-verb, constraints-unknown-handoff-target, xref-unknown-handoff-skill',
    ]);
    expect(e.of(skill)!.map(diag)).toEqual([
      "1:0-1:0 1 skill-name-mismatch-dir name 'building-stuff' does not match parent directory 'building-things'. The name field must match the directory name\nRename the directory to `building-stuff` or set `name: building-things`.",
    ]);
    expect(e.of(review)!.map(diag)).toEqual([
      "14:3-14:3 2 loop-nonstandard-verb Non-standard verb 'Flurbish' in LOOP.md for `reviewing-things` at line 15\nStandard verbs: implement, commit, review, complete. Consider using one of these for clarity.",
      '24:8-24:8 1 constraints-unknown-handoff-target Skill `reviewing-things` transitions to unknown handoff target `building-things`\nSkill `building-things` must exist in the skills directory.',
      '35:8-35:8 2 xref-unknown-handoff-skill LOOP.md for `reviewing-things` references unknown skill `building-things` at line 36\nSkill `building-things` must exist in the skills directory.',
    ]);
    // undone: the edited file is cleared first, then what changed elsewhere, each once
    await e.change(skill, BUILD_SKILL);
    await e.settled();
    expect(publishedOf(e, root).slice(4)).toEqual([
      'skills/building-things/SKILL.md: ',
      'skills/reviewing-things/LOOP.md: loop-nonstandard-verb',
      'README.md: ',
    ]);
    // the same text again: nothing to publish
    await e.change(skill, BUILD_SKILL);
    await e.settled();
    expect(e.publications.all()).toHaveLength(7);
  });

  it('a buffer closed: the disk’s text again', async () => {
    const root = mini();
    const e = await Editor.start([root]);
    const loop = join(root, BL);
    await e.open(loop);
    await e.change(loop, BUILD_LOOP.replace('2. Commit.', '2. Flurbish the widget.'));
    await e.settled();
    expect(e.of(loop)!.map(diag)).toEqual([VERB]);
    await e.close(loop);
    await e.settled();
    expect(e.of(loop)).toEqual([]);
    expect(publishedOf(e, root)).toEqual(['skills/building-things/LOOP.md: loop-nonstandard-verb', 'skills/building-things/LOOP.md: ']);
  });

  it('files changed, created and deleted on disk, as the client reports them', async () => {
    const root = mini();
    const e = await Editor.start([root]);
    await e.settled();
    const loop = join(root, BL);
    writeFileSync(loop, BUILD_LOOP.replace('2. Commit.', '2. Flurbish the widget.'));
    await e.filesChanged([{ uri: uriOf(loop), type: FileChangeType.Changed }]);
    await e.settled();
    expect(e.of(loop)!.map(diag)).toEqual([VERB]);
    // a skill folder created: its files are read
    const extra = join(root, 'skills', 'writing-notes');
    mkdirSync(extra);
    writeFileSync(
      join(extra, 'SKILL.md'),
      '---\nname: writing-notes\ndescription: Writes notes. Use when testing.\n---\n## Description\n\nNotes.\n',
    );
    await e.filesChanged([{ uri: uriOf(extra), type: FileChangeType.Created }]);
    await e.settled();
    expect(e.of(join(extra, 'SKILL.md'))!.map((d) => d.code)).toEqual(['skill-missing-rules', 'skill-missing-state-model']);
    // … and deleted: its problems go; a change in node_modules or of something that is no file URI is nothing
    rmSync(extra, { recursive: true });
    await e.filesChanged([
      { uri: uriOf(extra), type: FileChangeType.Deleted },
      { uri: uriOf(join(root, 'node_modules', 'x', 'SKILL.md')), type: FileChangeType.Created },
      { uri: 'untitled:x', type: FileChangeType.Changed },
    ]);
    await e.settled();
    expect(e.of(join(extra, 'SKILL.md'))).toEqual([]);
    writeFileSync(loop, BUILD_LOOP);
    await e.filesChanged([{ uri: uriOf(loop), type: FileChangeType.Changed }]);
    await e.settled();
    expect(e.of(loop)).toEqual([]);
    expect(publishedOf(e, root)).toEqual([
      'skills/building-things/LOOP.md: loop-nonstandard-verb',
      'skills/writing-notes/SKILL.md: skill-missing-rules, skill-missing-state-model',
      'skills/writing-notes/SKILL.md: ',
      'skills/building-things/LOOP.md: ',
    ]);
  });

  it('applies .loopkit-baseline.json as check does; follows it when it is created, rewritten, broken, edited, deleted', async () => {
    const root = mini({ [BL]: BUILD_LOOP.replace('2. Commit.', '2. Flurbish the widget.') });
    const e = await Editor.start([root]);
    await e.settled();
    const loop = join(root, BL);
    const baseline = join(root, '.loopkit-baseline.json');
    expect(e.of(loop)!.map(diag)).toEqual([VERB]);
    const recorded = {
      version: 1,
      problems: [
        {
          code: 'loop-nonstandard-verb',
          file: BL,
          element: 'section Single Iteration Step',
          subject: 'Flurbish',
          count: 1,
          message: "Non-standard verb 'Flurbish' in LOOP.md for `building-things` at line 19",
        },
      ],
    };
    writeFileSync(baseline, JSON.stringify(recorded));
    await e.filesChanged([{ uri: uriOf(baseline), type: FileChangeType.Created }]);
    await e.settled();
    expect(e.of(loop)).toEqual([]);
    // rewritten in place, without the problem
    writeFileSync(baseline, JSON.stringify({ ...recorded, problems: [] }));
    await e.filesChanged([{ uri: uriOf(baseline), type: FileChangeType.Changed }]);
    await e.settled();
    expect(e.of(loop)!.map(diag)).toEqual([VERB]);
    // broken: a problem in the baseline itself, the check's problems all shown
    writeFileSync(baseline, '{ not json');
    await e.filesChanged([{ uri: uriOf(baseline), type: FileChangeType.Changed }]);
    await e.settled();
    expect(e.of(baseline)!.map(diag)).toEqual([
      "0:0-0:0 1 - baseline .loopkit-baseline.json is not valid JSON (Expected property name or '}' in JSON at position 2)",
    ]);
    expect(e.of(loop)!.map(diag)).toEqual([VERB]);
    // mended in the editor (not saved): applied at once
    await e.open(baseline, JSON.stringify(recorded));
    await e.settled();
    expect(e.of(loop)).toEqual([]);
    expect(e.of(baseline)).toEqual([]);
    await e.close(baseline);
    rmSync(baseline);
    await e.filesChanged([{ uri: uriOf(baseline), type: FileChangeType.Deleted }]);
    await e.settled();
    expect(e.of(loop)!.map(diag)).toEqual([VERB]);
  });

  it('a broken .loopkit.yaml in the editor: each issue at its place, to the end of its line; mended, the project again', async () => {
    const root = mini({ [BL]: BUILD_LOOP.replace('2. Commit.', '2. Flurbish the widget.') });
    const e = await Editor.start([root]);
    await e.settled();
    const config = join(root, '.loopkit.yaml');
    const loop = join(root, BL);
    await e.change(
      config,
      CONFIG.replace('max_iterations: 20', 'max_iterations: -3').replace('halt_reasons:\n  - stall\n  - budget\n', 'halt_reasons: 5\n'),
    );
    await e.settled();
    expect(e.of(config)!.map(diag)).toEqual([
      '1:16-1:18 1 - max_iterations: expected a whole number from 0 to 4294967295, got -3',
      '7:14-7:15 1 - halt_reasons: expected a list of strings',
    ]);
    // an issue of no field: the message alone
    await e.change(config, 'max_iterations: 3\n\tx: 1\n');
    await e.settled();
    expect(e.of(config)!.map(diag)).toEqual(['1:0-1:5 1 - invalid YAML: Tabs are not allowed as indentation']);
    // answers still come from the last check that succeeded
    expect(shownText(await e.hover(loop, at(BUILD_LOOP, 'halt stall', 6)))).toMatch(
      /^\*\*halt reason\*\* `stall` — declared in halt_reasons/u,
    );
    await e.change(config, CONFIG);
    await e.settled();
    expect(e.of(config)).toEqual([]);
    expect(e.of(loop)!.map(diag)).toEqual([VERB]);
  });

  it('a project that cannot be checked: why, in .loopkit.yaml (at skills_dir when it is written); no answers', async () => {
    const noSkills = temps.project({ '.loopkit.yaml': 'max_iterations: 3\n' });
    const nowhere = temps.project({ '.loopkit.yaml': 'max_iterations: 3\nskills_dir: nowhere/\n' });
    const e = await Editor.start([noSkills, nowhere]);
    await e.settled();
    expect(e.logs.map((l) => l.message).sort()).toEqual(
      [
        `workspace folder ${noSkills}: cannot be checked: skills directory 'skills/' (the default of skills_dir) not found in ${noSkills}`,
        `workspace folder ${nowhere}: cannot be checked: skills directory 'nowhere/' not found in ${nowhere} (skills_dir at .loopkit.yaml:2:13)`,
      ].sort(),
    );
    expect(e.of(join(noSkills, '.loopkit.yaml'))!.map(diag)).toEqual([
      `0:0-0:17 1 - skills directory 'skills/' (the default of skills_dir) not found in ${noSkills}`,
    ]);
    expect(e.of(join(nowhere, '.loopkit.yaml'))!.map(diag)).toEqual([
      `1:0-1:20 1 - skills directory 'nowhere/' not found in ${nowhere} (skills_dir at .loopkit.yaml:2:13)`,
    ]);
    expect(await e.hover(join(nowhere, '.loopkit.yaml'), { line: 1, character: 2 })).toBeNull();
    expect(await e.completion(join(nowhere, '.loopkit.yaml'), { line: 1, character: 2 })).toBeNull();
    expect(e.shown).toEqual([]);
  });

  it('a project without .loopkit.yaml whose skills are all deleted: a warning the user sees', async () => {
    const root = mini({ '.loopkit.yaml': null });
    const e = await Editor.start([root]);
    await e.settled();
    rmSync(join(root, 'skills'), { recursive: true });
    await e.filesChanged([{ uri: uriOf(join(root, 'skills')), type: FileChangeType.Deleted }]);
    await e.settled();
    expect(e.shown).toEqual([{ type: 2, message: `loopkit: ${root}: no skills found in ${root}: no SKILL.md below the root` }]);
  });

  it('a folder that was no project becomes one when its files are created', async () => {
    const root = temps.project({ 'notes.md': '# Notes\n' });
    const e = await Editor.start([root]);
    await e.settled();
    expect(e.logs).toHaveLength(1);
    for (const [path, text] of Object.entries(MINI)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), path === BL ? BUILD_LOOP.replace('2. Commit.', '2. Flurbish the widget.') : text);
    }
    await e.filesChanged([
      { uri: uriOf(join(root, '.loopkit.yaml')), type: FileChangeType.Created },
      { uri: uriOf(join(root, 'skills')), type: FileChangeType.Created },
    ]);
    await e.open(join(root, BL));
    await e.settled();
    expect(e.logs.map((l) => l.message)).toEqual([
      `${root}: not a loopkit project (no skills found in ${root}: no SKILL.md below the root)`,
      `project ${root}: 2 skills, 1 problems`,
    ]);
    expect(e.of(join(root, BL))!.map(diag)).toEqual([VERB]);
  });
});

describe('server: its own watching, folders and projects', () => {
  it('a file changed on disk reaches the server through its own watcher; the same directories are not watched again', async () => {
    const root = mini();
    const e = await Editor.start([root], { watches: false });
    await e.settled();
    const loop = join(root, BL);
    const [, skills] = watched.list as [Watched, Watched];
    writeFileSync(loop, BUILD_LOOP.replace('2. Commit.', '2. Flurbish the widget.'));
    skills.listener('change', 'building-things/LOOP.md');
    await e.publications.next((p) => p.uri === uriOf(loop), 'the file changed on disk');
    expect(e.of(loop)!.map(diag)).toEqual([VERB]);
    expect(watched.list).toHaveLength(2);
    expect(openWatchers()).toEqual([root, `${join(root, 'skills')} (recursive)`]);
  });

  it('skills_dir moved: the new skills directory is watched, the old one no longer', async () => {
    const root = mini({ [BL]: BUILD_LOOP.replace('2. Commit.', '2. Flurbish the widget.') });
    const e = await Editor.start([root], { watches: false });
    await e.settled();
    const [top] = watched.list as [Watched];
    renameSync(join(root, 'skills'), join(root, 'contracts'));
    writeFileSync(join(root, '.loopkit.yaml'), CONFIG.replace('skills_dir: skills/', 'skills_dir: contracts/'));
    top.listener('change', '.loopkit.yaml');
    top.listener('rename', 'skills');
    top.listener('rename', 'contracts');
    await e.publications.next((p) => p.uri === uriOf(join(root, 'contracts/building-things/LOOP.md')), 'the moved skill');
    await e.settled();
    expect(e.of(join(root, BL))).toEqual([]);
    expect(openWatchers()).toEqual([root, `${join(root, 'contracts')} (recursive)`]);
    expect(watched.list).toHaveLength(4);
  });

  it('a project that cannot be checked: its root watched, and its skills directory once it can', async () => {
    const root = mini({ '.loopkit.yaml': 'max_iterations: -3\n' });
    const e = await Editor.start([root], { watches: false });
    await e.settled();
    expect(openWatchers()).toEqual([root]);
    const [top] = watched.list as [Watched];
    writeFileSync(join(root, '.loopkit.yaml'), CONFIG);
    top.listener('change', '.loopkit.yaml');
    await e.publications.next((p) => p.uri === uriOf(join(root, '.loopkit.yaml')) && p.diagnostics.length === 0, 'the mended config');
    expect(openWatchers()).toEqual([root, `${join(root, 'skills')} (recursive)`]);
    // broken again: the directories it watched are kept
    const [, , skills] = watched.list as [Watched, Watched, Watched];
    writeFileSync(join(root, '.loopkit.yaml'), 'max_iterations: -4\n');
    skills.listener('change', '../.loopkit.yaml');
    await e.publications.next((p) => p.uri === uriOf(join(root, '.loopkit.yaml')) && p.diagnostics.length === 1, 'the broken config');
    expect(openWatchers()).toEqual([root, `${join(root, 'skills')} (recursive)`]);
    expect(watched.list).toHaveLength(3);
  });

  it('a directory that cannot be watched: told in the log', async () => {
    const root = mini();
    watched.refuse.add(join(root, 'skills'));
    const e = await Editor.start([root], { watches: false });
    await e.settled();
    expect(e.logs).toEqual([
      { type: 3, message: `workspace folder ${root}: 2 skills, 0 problems` },
      {
        type: 3,
        message: `loopkit: cannot watch ${join(root, 'skills')}: EMFILE: too many open files, watch '${join(root, 'skills')}'; files changed outside the editor are read when they are opened`,
      },
    ]);
    expect(openWatchers()).toEqual([root]);
  });

  it('a project whose root lies above every folder is not read, and told once; a file outside every folder is not answered', async () => {
    const root = mini({ 'docs/guide.md': '# Guide\n\nThe story goes to in-review.\n', 'docs/more.md': '# More\n' });
    const docs = join(root, 'docs');
    const e = await Editor.start([docs]);
    await e.settled();
    await e.open(join(docs, 'guide.md'));
    await e.open(join(docs, 'more.md'));
    await e.settled();
    expect(e.logs).toEqual([
      { type: 3, message: `${docs}: not a loopkit project (no skills found in ${docs}: no SKILL.md below the root)` },
      { type: 3, message: `loopkit: the project ${root} lies outside the workspace folders: not read (open it as a folder)` },
    ]);
    expect(await e.hover(join(docs, 'guide.md'), { line: 2, character: 22 })).toBeNull();
    expect(await e.hover(join(root, BL), at(BUILD_LOOP, 'in-dev → in-review', 1))).toBeNull();
    await e.open(join(root, BL), BUILD_LOOP.replace('2. Commit.', '2. Flurbish the widget.'));
    await e.settled();
    expect(e.publications.all()).toEqual([]);
    expect(await e.hover('untitled:Untitled-1', { line: 0, character: 0 })).toBeNull();
    expect(e.logs).toHaveLength(2);
  });

  it('a file not saved yet in a folder not made yet is answered for; its words that are states hover as states', async () => {
    const root = mini();
    const e = await Editor.start([root]);
    const notes = join(root, 'skills', 'building-things', 'drafts', 'notes.md');
    await e.open(notes, 'Then in-review follows.\n');
    const hover = await e.hover(notes, { line: 0, character: 7 });
    expect(r(hover!.range!)).toBe('0:5-0:14');
    expect(shownText(hover)).toMatch(/^\*\*state\*\* `in-review` — enforced, agent `qa-agent`\n/u);
  });

  it('a project inside the folder’s: a file opened in it brings it in; each file is answered from its own project', async () => {
    const root = mini();
    const inner = join(root, 'tools', 'inner');
    for (const [path, text] of Object.entries(MINI)) {
      mkdirSync(join(inner, path, '..'), { recursive: true });
      writeFileSync(join(inner, path), path === BL ? BUILD_LOOP.replace('2. Commit.', '2. Flurbish the widget.') : text);
    }
    // a state only the inner project knows
    writeFileSync(join(inner, '.loopkit.yaml'), CONFIG.replace('rules:', '  - name: in-inner\n    agent: ""\nrules:'));
    const e = await Editor.start([root]);
    await e.settled();
    expect(e.of(join(inner, BL))).toBeUndefined();
    await e.open(join(inner, BL));
    await e.settled();
    expect(e.logs.map((l) => l.message)).toEqual([
      `workspace folder ${root}: 2 skills, 0 problems`,
      // the note check prints about the layout
      '1 folder has a .loopkit.yaml of its own and is a project of its own, not checked with this one: tools/inner. Check it with `loopkit check tools/inner`.',
      `project ${inner}: 2 skills, 2 problems`,
    ]);
    expect(e.of(join(inner, BL))!.map(diag)).toEqual([VERB]);
    const def = await e.definition(join(inner, BL), at(BUILD_LOOP, 'handoff reviewing', 9));
    expect(def!.map(placeOf(root))).toEqual(['tools/inner/skills/reviewing-things/SKILL.md:1:6-1:22']);
    const outer = await e.definition(join(root, BL), at(BUILD_LOOP, 'handoff reviewing', 9));
    expect(outer!.map(placeOf(root))).toEqual(['skills/reviewing-things/SKILL.md:1:6-1:22']);
    // a file of the inner project not opened before: its project is held already
    expect((await e.definition(join(inner, RL), at(REVIEW_LOOP, 'handoff building', 9)))!.map(placeOf(root))).toEqual([
      'tools/inner/skills/building-things/SKILL.md:1:6-1:21',
    ]);
    expect(e.logs).toHaveLength(3);
    // a file of the inner project not saved yet: answered from the inner project, the deepest that holds it
    const draft = join(inner, 'skills', 'building-things', 'drafts', 'notes.md');
    await e.open(draft, 'Then in-inner.\n');
    expect(shownText(await e.hover(draft, { line: 0, character: 7 }))).toBe('**state** `in-inner` — in no transition · enforced');
  });

  it('with a cache: the per-file results are kept in the cache file; one that cannot be written is told', async () => {
    const root = mini();
    const cacheDir = temps.dir('loopkit-lsp-units-cache-');
    const cacheFile = join(cacheDir, 'cache.json');
    const e = await Editor.start([root], { cache: { flag: true, location: cacheFile, env: {} } });
    await e.settled();
    expect(existsSync(cacheFile)).toBe(true);
    const blocked = join(cacheDir, 'a-file');
    writeFileSync(blocked, 'x');
    const f = await Editor.start([root], { cache: { flag: true, location: join(blocked, 'cache.json'), env: {} } });
    await f.settled();
    expect(f.logs.filter((l) => l.type === 2)).toEqual([
      {
        type: 2,
        message: `loopkit: cannot write the cache in ${blocked} (EEXIST: file already exists, mkdir '${blocked}'); checking without it`,
      },
    ]);
    const off = join(cacheDir, 'off.json');
    const g = await Editor.start([root], { cache: { flag: false, location: off, env: {} } });
    await g.settled();
    expect(existsSync(off)).toBe(false);
  });

  it('a document of no file, a file that is nowhere, a change of the root itself: nothing, and no error', async () => {
    const root = mini();
    const e = await Editor.start([root]);
    await e.open('untitled:Untitled-1', 'transition in-dev → in-review\n');
    await e.change('untitled:Untitled-1', 'transition in-dev → done\n');
    await e.close('untitled:Untitled-1');
    expect(await e.hover(join(root, 'skills', 'nothing.md'), { line: 0, character: 0 })).toBeNull();
    await e.filesChanged([{ uri: uriOf(root), type: FileChangeType.Changed }]);
    await e.settled();
    expect(e.logs).toEqual([{ type: 3, message: `workspace folder ${root}: 2 skills, 0 problems` }]);
    expect(e.publications.all()).toEqual([]);
  });

  it('skills kept at the root: the root watched with all it holds', async () => {
    const root = temps.project({
      'SKILL.md': '---\nname: filling-forms\ndescription: Fills forms. Use when testing.\n---\n## Description\n\nOne.\n',
    });
    const e = await Editor.start([root], { watches: false });
    await e.settled();
    expect(openWatchers()).toEqual([`${root} (recursive)`]);
  });

  it('a project that cannot be checked now: no code actions (not a failure)', async () => {
    const root = mini({ [BL]: BUILD_LOOP.replace('2. Commit.', '2. Flurbish the widget.') });
    const e = await Editor.start([root]);
    await e.settled();
    const [d] = e.of(join(root, BL))!;
    await e.change(join(root, '.loopkit.yaml'), 'max_iterations: -3\n');
    expect(await e.actions(join(root, BL), 18, 18, [d!])).toEqual([]);
    expect(e.logs.filter((l) => l.type === 1)).toEqual([]);
  });

  it('a request that fails is answered with nothing and logged; the server goes on', async () => {
    const root = mini({ [BL]: BUILD_LOOP.replace('2. Commit.', '2. Flurbish the widget.') });
    const e = await Editor.start([root]);
    await e.settled();
    // a client that sends no diagnostics with its code action request
    expect(await e.actions(join(root, BL), 18, 18, undefined)).toBeNull();
    expect(e.logs.slice(1).map((l) => [l.type, l.message.split('\n')[0]])).toEqual([
      [1, "loopkit: TypeError: Cannot read properties of undefined (reading 'filter')"],
    ]);
    expect(e.logs[1]!.message.split('\n')[1]).toMatch(/^ {4}at /u);
    expect(await e.hover(join(root, BL), at(BUILD_LOOP, 'halt stall', 6))).not.toBeNull();
  });

  it('workspace symbols of every project held; a project that cannot be checked has none', async () => {
    const one = mini();
    const two = mini({ [RS]: REVIEW_SKILL.replace('on to `done`', 'on to `done` or `in-review-again`') });
    const broken = temps.project({ '.loopkit.yaml': 'max_iterations: 3\n' });
    const e = await Editor.start([one, two, broken]);
    const found = await e.workspaceSymbols('review');
    // a state at the name its state model writes in backticks, not at the backtick
    const both = (s: SymbolInformation) =>
      s.location.uri.startsWith(`${uriOf(one)}/`) ? `one/${placeOf(one)(s.location)}` : `two/${placeOf(two)(s.location)}`;
    expect(found!.map((s) => `${s.name} ${s.kind} ${s.containerName} ${both(s)}`)).toEqual([
      `reviewing-things 2 skill one/${RS}:1:0-1:0`,
      `in-review 22 building-things one/${BS}:15:35-15:44`,
      `reviewing-things 2 skill two/${RS}:1:0-1:0`,
      `in-review 22 building-things two/${BS}:15:35-15:44`,
      `in-review-again 22 reviewing-things two/${RS}:14:58-14:73`,
    ]);
  });
});

const GUIDE =
  '# Guide\n\n````md\n## Fenced\n```\n## Still fenced\n````\n\n## Steps\n\n## Steps\n\n## Custom {#my-id}\n\n## *Styled* `code` ##\n';
const LINKS =
  'See [a](guide.md#steps-1), [b](guide.md#my-id), [c](guide.md#fenced), [d](guide.md#still-fenced), [e](guide.md#styled-code),\n' +
  '[f](#rules), [g](missing.md), [h](guide.md#nothing), [i](guide.md#custom), [j](guide.md#steps), [k](guide.md).\n';
const LINKED_SKILL = `${BUILD_SKILL}\n${LINKS}`;

describe('navigation: definitions', () => {
  it('a state: its declaration in the skill’s own state model first, else in every one that declares it', async () => {
    const root = mini();
    const e = await Editor.start([root]);
    const where = placeOf(root);
    expect((await e.definition(join(root, BL), at(BUILD_LOOP, 'in-dev → in-review', 11)))!.map(where)).toEqual([`${BS}:15:35-15:44`]);
    expect((await e.definition(join(root, RL), at(REVIEW_LOOP, 'transition in-review', 12)))!.map(where)).toEqual([`${RS}:14:9-14:18`]);
    // from a file of no skill: every declaration
    expect((await e.definition(join(root, '.loopkit.yaml'), at(CONFIG, 'in-review', 1)))!.map(where)).toEqual([
      `${BS}:15:35-15:44`,
      `${RS}:14:9-14:18`,
    ]);
    expect((await e.definition(join(root, BL), at(BUILD_LOOP, '→ halted-stall', 3)))!.map(where)).toEqual([`${BS}:15:60-15:72`]);
    // nothing under the cursor
    expect(await e.definition(join(root, BL), at(BUILD_LOOP, 'The story is ready', 1))).toBeNull();
  });

  it('an undeclared state: the transition that enters it, else the first that leaves it, else .loopkit.yaml', async () => {
    const config = CONFIG.replace('rules:', '  - name: in-hold\n    agent: ""\nrules:');
    const root = mini({
      '.loopkit.yaml': config,
      [BS]: BUILD_SKILL.replace(/Starts in .*\n/u, 'Starts somewhere.\n'),
      [RS]: REVIEW_SKILL.replace(/Runs in .*\n/u, 'Runs somewhere.\n'),
      [BL]: BUILD_LOOP.replace('transition in-dev → halted-stall', 'transition in-start → in-dev\n\ntransition in-dev → halted-stall'),
    });
    const e = await Editor.start([root]);
    const where = placeOf(root);
    const loop = BUILD_LOOP.replace('transition in-dev → halted-stall', 'transition in-start → in-dev\n\ntransition in-dev → halted-stall');
    // entered by building-things' first transition
    expect((await e.definition(join(root, RL), at(REVIEW_LOOP, 'transition in-review', 12)))!.map(where)).toEqual([`${BL}:26:20-26:29`]);
    // entered first by building-things' transition from in-start (the graph's order), not by reviewing-things'
    expect((await e.definition(join(root, BL), at(loop, 'in-dev → in-review', 1)))!.map(where)).toEqual([`${BL}:30:22-30:28`]);
    // entered by none: where it is left
    expect((await e.definition(join(root, BL), at(loop, 'in-start', 1)))!.map(where)).toEqual([`${BL}:30:11-30:19`]);
    // in no transition: its enforced_states entry
    expect((await e.definition(join(root, '.loopkit.yaml'), at(config, 'in-hold', 1)))!.map(where)).toEqual(['.loopkit.yaml:20:10-20:17']);
  });

  it('a skill, an agent, a halt reason, a rule code', async () => {
    const root = mini();
    const e = await Editor.start([root]);
    const where = placeOf(root);
    expect((await e.definition(join(root, BL), at(BUILD_LOOP, 'handoff reviewing', 9)))!.map(where)).toEqual([`${RS}:1:6-1:22`]);
    expect((await e.definition(join(root, 'README.md'), at(MINI['README.md']!, 'building-things', 3)))!.map(where)).toEqual([
      `${BS}:1:6-1:21`,
    ]);
    // a Claude Code subagent at its name; an OpenCode agent at its file's start
    expect((await e.definition(join(root, BL), at(BUILD_LOOP, 'qa-agent', 2)))!.map(where)).toEqual([
      '.claude/agents/qa-agent.md:1:6-1:14',
    ]);
    expect((await e.definition(join(root, RL), at(REVIEW_LOOP, 'dev-agent', 2)))!.map(where)).toEqual([
      '.opencode/agent/dev-agent.md:0:0-0:0',
    ]);
    expect((await e.definition(join(root, BL), at(BUILD_LOOP, 'halt stall', 6)))!.map(where)).toEqual(['.loopkit.yaml:8:4-8:9']);
    expect((await e.definition(join(root, RL), at(REVIEW_LOOP, 'halt budget', 6)))!.map(where)).toEqual(['.loopkit.yaml:9:4-9:10']);
    const page = await e.definition(join(root, '.loopkit.yaml'), at(CONFIG, 'loop-nonstandard-verb', 2));
    expect(page).toEqual([
      {
        uri: uriOf(join(ROOT, 'docs', 'rules', 'loop-nonstandard-verb.md')),
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      },
    ]);
    expect((await e.definition(join(root, RL), at(REVIEW_LOOP, 'loop-nonstandard-verb', 2)))!.map((l) => l.uri)).toEqual([
      uriOf(join(ROOT, 'docs', 'rules', 'loop-nonstandard-verb.md')),
    ]);
  });

  it('an agent without a file, a halt reason none declares, a skill without a name written, a code without a page: nothing, or the file', async () => {
    const loop = BUILD_LOOP.replace(
      'handoff reviewing-things to qa-agent\n\ntransition',
      'handoff reviewing-things to po-agent\n\ntransition',
    ).replace('halt stall after 5 iterations\n\n## Halt', 'halt frozen after 5 iterations\n\n## Halt');
    const root = mini({
      [BL]: `<!-- loopkit-disable-next-line no-such-rule -->\n${loop}`,
      'skills/legacy-thing/SKILL.md': '---\ndescription: Handles the old format. Use when testing.\n---\n## Description\n\nOld.\n',
      'skills/legacy-thing/HANDOFFS.md': '# Handoffs\n\n  transition in-review → done\n  handoff building-things to dev-agent\n',
      'README.md': `${MINI['README.md']}- \`legacy-thing\` is old\n`,
    });
    const e = await Editor.start([root]);
    const where = placeOf(root);
    const text = `<!-- loopkit-disable-next-line no-such-rule -->\n${loop}`;
    expect(await e.definition(join(root, BL), at(text, 'po-agent', 1))).toBeNull();
    expect(await e.definition(join(root, BL), at(text, 'halt frozen', 6))).toBeNull();
    expect(await e.definition(join(root, BL), at(text, 'no-such-rule', 1))).toBeNull();
    expect(
      (await e.definition(join(root, 'README.md'), at(`${MINI['README.md']}- \`legacy-thing\` is old\n`, 'legacy-thing', 1)))!.map(where),
    ).toEqual(['skills/legacy-thing/SKILL.md:0:0-0:0']);
  });

  it('a link: the file it leads to, at the heading its anchor names (GitHub’s slugs, repeats, {#id}, never in a fence)', async () => {
    const root = mini({ [BS]: LINKED_SKILL, 'skills/building-things/guide.md': GUIDE });
    const e = await Editor.start([root]);
    const where = placeOf(root);
    const skill = join(root, BS);
    const go = async (needle: string) => {
      const got = await e.definition(skill, at(LINKED_SKILL, needle, 1));
      return got === null ? `${needle}: none` : got.map(where);
    };
    const guide = 'skills/building-things/guide.md';
    expect(await go('(guide.md#steps-1)')).toEqual([`${guide}:10:0-10:0`]);
    expect(await go('(guide.md#steps)')).toEqual([`${guide}:8:0-8:0`]);
    expect(await go('(guide.md#my-id)')).toEqual([`${guide}:12:0-12:0`]);
    expect(await go('(guide.md#custom)')).toEqual([`${guide}:12:0-12:0`]);
    expect(await go('(guide.md#fenced)')).toEqual([`${guide}:0:0-0:0`]);
    expect(await go('(guide.md#still-fenced)')).toEqual([`${guide}:0:0-0:0`]);
    expect(await go('(guide.md#styled-code)')).toEqual([`${guide}:14:0-14:0`]);
    expect(await go('(guide.md#nothing)')).toEqual([`${guide}:0:0-0:0`]);
    expect(await go('(guide.md)')).toEqual([`${guide}:0:0-0:0`]);
    expect(await go('(#rules)')).toEqual([`${BS}:9:0-9:0`]);
    expect(await go('(missing.md)')).toBe('(missing.md): none');
    // the link's destination from its first character to just after its last; not the text before it
    const first = at(LINKED_SKILL, '(guide.md)', 1);
    expect((await e.definition(skill, { ...first, character: first.character + 'guide.md'.length }))!.map(where)).toEqual([
      `${guide}:0:0-0:0`,
    ]);
    expect(await e.definition(skill, { ...first, character: first.character + 'guide.md'.length + 1 })).toBeNull();
    expect(await e.definition(skill, { ...first, character: first.character - 1 })).toBeNull();
    // the heading of the file itself as the editor has it
    const edited = LINKED_SKILL.replace('## Rules', '\n\n## Rules');
    await e.change(skill, edited);
    expect((await e.definition(skill, at(edited, '(#rules)', 1)))!.map(where)).toEqual([`${BS}:11:0-11:0`]);
  });

  it('a link in a skill’s reference file may be written from the skill’s folder; one in a file of no skill from its own', async () => {
    const root = mini({
      'skills/building-things/guide.md': GUIDE,
      'skills/building-things/references/steps.md': '# Steps\n\nSee [the guide](guide.md#steps).\n',
      'README.md': `${MINI['README.md']}\nSee [building](skills/building-things/SKILL.md).\n`,
      [BS]: `${BUILD_SKILL}\nSee [the steps](references/steps.md).\n`,
    });
    const e = await Editor.start([root]);
    const where = placeOf(root);
    expect((await e.definition(join(root, 'skills/building-things/references/steps.md'), { line: 2, character: 18 }))!.map(where)).toEqual([
      'skills/building-things/guide.md:8:0-8:0',
    ]);
    expect((await e.definition(join(root, 'README.md'), { line: 5, character: 16 }))!.map(where)).toEqual([`${BS}:0:0-0:0`]);
  });
});

describe('navigation: references, highlights, symbols', () => {
  it('references: every place of the name; without the declarations when asked', async () => {
    const root = mini();
    const e = await Editor.start([root]);
    const where = placeOf(root);
    const loop = join(root, BL);
    const inDev = at(BUILD_LOOP, 'in-dev → in-review', 1);
    expect((await e.references(loop, inDev))!.map(where)).toEqual([
      '.loopkit.yaml:11:10-11:16',
      `${BL}:13:10-13:16`,
      `${BL}:26:11-26:17`,
      `${BL}:30:11-30:17`,
      `${BS}:15:11-15:17`,
      `${RL}:21:23-21:29`,
      `${RS}:14:30-14:36`,
    ]);
    expect((await e.references(loop, inDev, false))!.map(where)).toEqual([
      '.loopkit.yaml:11:10-11:16',
      `${BL}:13:10-13:16`,
      `${BL}:26:11-26:17`,
      `${BL}:30:11-30:17`,
      `${RL}:21:23-21:29`,
    ]);
    const skillAt = at(BUILD_LOOP, 'handoff reviewing', 9);
    expect((await e.references(loop, skillAt))!.map(where)).toEqual([
      'README.md:3:3-3:19',
      `${BL}:28:8-28:24`,
      `${BL}:39:8-39:24`,
      `${RS}:1:6-1:22`,
    ]);
    expect((await e.references(loop, skillAt, false))!.map(where)).toEqual(['README.md:3:3-3:19', `${BL}:28:8-28:24`, `${BL}:39:8-39:24`]);
    expect(await e.references(loop, at(BUILD_LOOP, 'The story', 1))).toBeNull();
  });

  it('references of a skill whose name is its folder’s: its SKILL.md first', async () => {
    const root = mini({
      'skills/legacy-thing/SKILL.md': '---\ndescription: Handles the old format. Use when testing.\n---\n## Description\n\nOld.\n',
      'README.md': `${MINI['README.md']}- \`legacy-thing\` is old\n`,
    });
    const e = await Editor.start([root]);
    const readme = `${MINI['README.md']}- \`legacy-thing\` is old\n`;
    expect((await e.references(join(root, 'README.md'), at(readme, 'legacy-thing', 1)))!.map(placeOf(root))).toEqual([
      'skills/legacy-thing/SKILL.md:0:0-0:0',
      'README.md:4:3-4:15',
    ]);
    expect((await e.references(join(root, 'README.md'), at(readme, 'legacy-thing', 1), false))!.map(placeOf(root))).toEqual([
      'README.md:4:3-4:15',
    ]);
  });

  it('highlights: the places in this file, written (declared, named, entered) or read', async () => {
    const root = mini();
    const e = await Editor.start([root]);
    const hl = async (path: string, text: string, needle: string, within: number) =>
      (await e.highlights(join(root, path), at(text, needle, within)))?.map((h) => `${r(h.range)} ${h.kind}`) ?? null;
    expect(await hl(BL, BUILD_LOOP, 'in-dev → in-review', 11)).toEqual(['26:20-26:29 3']);
    expect(await hl(BL, BUILD_LOOP, 'in-dev → in-review', 1)).toEqual(['13:10-13:16 2', '26:11-26:17 2', '30:11-30:17 2']);
    expect(await hl(BS, BUILD_SKILL, '`in-dev`', 1)).toEqual(['15:11-15:17 3']);
    expect(await hl(BS, BUILD_SKILL, 'building-things', 1)).toEqual(['1:6-1:21 3']);
    expect(await hl(RS, REVIEW_SKILL, '`building-things`', 1)).toEqual(['6:22-6:37 2']);
    expect(await hl(BL, BUILD_LOOP, 'The story', 1)).toBeNull();
  });

  it('document symbols of a LOOP.md: its sections, the transitions in them with their directives', async () => {
    const root = mini();
    const e = await Editor.start([root]);
    const flat = (list: DocumentSymbol[] | null): string[] =>
      (list ?? []).flatMap((s) => [
        `${s.name} ${s.kind} ${r(s.range)} ${r(s.selectionRange)}${s.detail === undefined ? '' : ` (${s.detail})`}`,
        ...flat(s.children ?? []).map((c) => `  ${c}`),
      ]);
    expect(flat(await e.symbols(join(root, BL)))).toEqual([
      'Entry Conditions 3 0:0-2:19 0:0-0:19',
      'Loop State Schema 3 4:0-13:19 4:0-4:20',
      'Single Iteration Step 3 15:0-18:10 15:0-15:24',
      'Proof of Progress 3 20:0-22:21 20:0-20:20',
      'State Transition Rule 3 24:0-31:29 24:0-24:24',
      '  in-dev → in-review 24 26:0-28:36 26:11-26:29 (trigger every AC is green · handoff reviewing-things to qa-agent)',
      '  in-dev → halted-stall 24 30:0-31:29 30:11-30:32 (halt stall after 5)',
      'Halt Conditions 3 33:0-35:29 33:0-33:18',
      'Handoff Target 3 37:0-39:36 37:0-37:17',
    ]);
    const odd =
      'transition in-review → in-dev\n\n## \n\ntransition in-dev → done\n\n### Deeper\n\n## State Transition Rule\n\ntransition in-review → done\nhalt budget\n';
    await e.change(join(root, RL), odd);
    expect(flat(await e.symbols(join(root, RL)))).toEqual([
      // a transition before the first section stays at the top
      'in-review → in-dev 24 0:0-0:29 0:11-0:29',
      '(untitled) 3 2:0-6:10 2:0-2:3',
      '  in-dev → done 24 4:0-4:24 4:11-4:24',
      'State Transition Rule 3 8:0-11:11 8:0-8:24',
      '  in-review → done 24 10:0-11:11 10:11-10:27 (halt budget)',
    ]);
  });

  it('document symbols of a SKILL.md (frontmatter keys, sections, declared states), a HANDOFFS.md; none elsewhere', async () => {
    const root = mini({
      'skills/legacy-thing/SKILL.md': '## Description\n\nOld.\n',
      'skills/legacy-thing/HANDOFFS.md': '# Handoffs\n\n  transition in-review → done\n  trigger it is old\n',
      'skills/building-things/guide.md': GUIDE,
      [BS]: `${BUILD_SKILL}\nSee [the guide](guide.md).\n`,
    });
    const e = await Editor.start([root]);
    const flat = (list: DocumentSymbol[] | null): string[] =>
      (list ?? []).flatMap((s) => [
        `${s.name} ${s.kind} ${r(s.range)} ${r(s.selectionRange)}${s.detail === undefined ? '' : ` (${s.detail})`}`,
        ...flat(s.children ?? []).map((c) => `  ${c}`),
      ]);
    expect(flat(await e.symbols(join(root, BS)))).toEqual([
      'frontmatter 19 0:0-4:3 0:0-0:3',
      '  name 7 1:0-1:21 1:0-1:4',
      '  description 7 2:0-2:66 2:0-2:11',
      '  x-owner 7 3:0-3:11 3:0-3:7',
      'Description 3 5:0-7:78 5:0-5:14',
      'Rules 3 9:0-11:17 9:0-9:8',
      'State Model 3 13:0-17:26 13:0-13:14',
      '  in-dev 22 15:11-15:17 15:11-15:17 (state)',
      '  in-review 22 15:35-15:44 15:35-15:44 (state)',
      '  halted-stall 22 15:60-15:72 15:60-15:72 (state)',
    ]);
    expect(flat(await e.symbols(join(root, 'skills/legacy-thing/SKILL.md')))).toEqual(['Description 3 0:0-2:4 0:0-0:14']);
    expect(flat(await e.symbols(join(root, 'skills/legacy-thing/HANDOFFS.md')))).toEqual([
      'in-review → done 24 2:0-3:19 2:13-2:29 (trigger it is old)',
    ]);
    expect(await e.symbols(join(root, 'README.md'))).toEqual([]);
    // a skill's reference file
    expect(await e.symbols(join(root, 'skills/building-things/guide.md'))).toEqual([]);
    expect(await e.symbols(join(root, '.loopkit.yaml'))).toEqual([]);
    expect(await e.symbols(join(root, '.claude/agents/qa-agent.md'))).toEqual([]);
  });

  it('workspace symbols: the skills and states whose letters the query holds in order, any case', async () => {
    const root = mini({ '.loopkit.yaml': CONFIG.replace('rules:', '  - name: in-hold\n    agent: ""\nrules:') });
    const e = await Editor.start([root]);
    const list = async (query: string) =>
      (await e.workspaceSymbols(query))!.map((s) => `${s.name} ${s.kind} ${s.containerName} ${placeOf(root)(s.location)}`);
    expect(await list('RVW')).toEqual([`reviewing-things 2 skill ${RS}:1:0-1:0`, `in-review 22 building-things ${BS}:15:35-15:44`]);
    expect(await list('hold')).toEqual(['in-hold 22 state .loopkit.yaml:20:10-20:17']);
    expect(await list('ts')).toEqual([
      `building-things 2 skill ${BS}:1:0-1:0`,
      `reviewing-things 2 skill ${RS}:1:0-1:0`,
      `halted-stall 22 building-things ${BS}:15:60-15:72`,
    ]);
    expect((await list('')).map((s) => s.split(' ')[0])).toEqual([
      'building-things',
      'reviewing-things',
      'in-dev',
      'in-review',
      'halted-stall',
      'done',
      'in-hold',
    ]);
    expect(await list('zz')).toEqual([]);
  });

  it('workspaceSymbols, called directly: at most `limit` symbols; a skill with no name written at its file’s start', async () => {
    const root = mini({ 'skills/legacy-thing/SKILL.md': '## Description\n\nOld.\n' });
    const { session, read } = await sessionOf(root);
    const check = session.state.check!;
    const ctx = { root, check, index: contractIndex(check, read), source: '', text: read };
    const names = (limit: number) => workspaceSymbols(ctx, '', limit).map((s) => `${s.name} ${placeOf(root)(s.location)}`);
    expect(names(1)).toEqual([`building-things ${BS}:1:0-1:0`]);
    expect(names(4)).toEqual([
      `building-things ${BS}:1:0-1:0`,
      'legacy-thing skills/legacy-thing/SKILL.md:0:0-0:0',
      `reviewing-things ${RS}:1:0-1:0`,
      `in-dev ${BS}:15:11-15:17`,
    ]);
    expect(names(1000)).toHaveLength(7);
  });
});

const HUB_LOOP = `## State Transition Rule

${Array.from({ length: 14 }, (_, i) => `transition in-hub → in-t${i + 1}\nhandoff reviewing-things to qa-agent\n`).join('\n')}
${Array.from({ length: 12 }, (_, i) => `transition in-s${i + 1} → in-hub\n`).join('\n')}
transition in-hub → in-t1
trigger once more
`;

describe('hover', () => {
  /** A markdown link to a line of a file, as hovers write it. */
  const link = (root: string, file: string, line: number) => `[${file}:${line}](${uriOf(join(root, file))}#L${line})`;

  it('a state: its marks, its description, where it is declared, the transitions out of it and into it', async () => {
    const root = mini();
    const e = await Editor.start([root]);
    const l = (file: string, line: number) => link(root, file, line);
    const hover = async (path: string, text: string, needle: string, within: number) => {
      const h = await e.hover(join(root, path), at(text, needle, within));
      return h === null ? null : `${r(h.range!)} ${shownText(h)}`;
    };
    const declaredBoth = `Declared in \`building-things\` (${l(BS, 16)}), \`reviewing-things\` (${l(RS, 15)})`;
    expect(await hover(BL, BUILD_LOOP, 'in-dev → in-review', 1)).toBe(
      [
        '26:11-26:17 **state** `in-dev` — at most 5 iterations here · enforced, agent `dev-agent`',
        '',
        'The developer builds the story',
        '',
        declaredBoth,
        '',
        '**From here** a run may go:',
        `- → \`in-review\` — trigger: every AC is green · handoff \`reviewing-things\` to \`qa-agent\` (building-things, ${l(BL, 27)})`,
        `- → \`halted-stall\` — halt \`stall\` after 5 iterations (building-things, ${l(BL, 31)})`,
        '',
        '**Into here**:',
        `- \`in-review\` → — trigger: a bug was found · handoff \`building-things\` to \`dev-agent\` (reviewing-things, ${l(RL, 22)})`,
      ].join('\n'),
    );
    // enforced without a description
    expect(await hover(BL, BUILD_LOOP, 'in-dev → in-review', 11)).toBe(
      [
        '26:20-26:29 **state** `in-review` — enforced, agent `qa-agent`',
        '',
        declaredBoth,
        '',
        '**From here** a run may go:',
        `- → \`in-dev\` — trigger: a bug was found · handoff \`building-things\` to \`dev-agent\` (reviewing-things, ${l(RL, 22)})`,
        `- → \`done\` — handoff \`done\` to \`all-agents\` (reviewing-things, ${l(RL, 26)})`,
        '',
        '**Into here**:',
        `- \`in-dev\` → — trigger: every AC is green · handoff \`reviewing-things\` to \`qa-agent\` (building-things, ${l(BL, 27)})`,
      ].join('\n'),
    );
    expect(await hover(BL, BUILD_LOOP, '→ halted-stall', 3)).toBe(
      [
        '30:20-30:32 **state** `halted-stall` — terminal (halted)',
        '',
        `Declared in \`building-things\` (${l(BS, 16)})`,
        '',
        'No transition leaves it: a run that gets here ends here.',
        '',
        '**Into here**:',
        `- \`in-dev\` → — halt \`stall\` after 5 iterations (building-things, ${l(BL, 31)})`,
      ].join('\n'),
    );
    // enforced with an empty agent: terminal, its description
    expect(await hover(RL, REVIEW_LOOP, '→ done', 3)).toBe(
      [
        '25:23-25:27 **state** `done` — terminal · enforced',
        '',
        'Finished',
        '',
        `Declared in \`reviewing-things\` (${l(RS, 15)})`,
        '',
        'No transition leaves it: a run that gets here ends here.',
        '',
        '**Into here**:',
        `- \`in-review\` → — handoff \`done\` to \`all-agents\` (reviewing-things, ${l(RL, 26)})`,
      ].join('\n'),
    );
    // nothing under the cursor, not even a rule code or a frontmatter key
    expect(await hover(BL, BUILD_LOOP, 'The story is ready', 1)).toBeNull();
  });

  it('a hub state: at most twelve transitions each way, the rest counted; an entry point; a state in no transition', async () => {
    const config = CONFIG.replace('rules:', '  - name: in-hold\n    agent: ""\nrules:');
    const root = mini({
      '.loopkit.yaml': config,
      'skills/hub-thing/SKILL.md': '## Description\n\nA hub.\n',
      'skills/hub-thing/LOOP.md': HUB_LOOP,
    });
    const e = await Editor.start([root]);
    const l = (line: number) => link(root, 'skills/hub-thing/LOOP.md', line);
    const hub = await e.hover(join(root, 'skills/hub-thing/LOOP.md'), at(HUB_LOOP, 'in-hub', 1));
    expect(shownText(hub)).toBe(
      [
        '**state** `in-hub`',
        '',
        '**From here** a run may go:',
        // every transition to a state, each a line of its own
        `- → \`in-t1\` — handoff \`reviewing-things\` to \`qa-agent\` (hub-thing, ${l(3)})`,
        `- → \`in-t1\` — trigger: once more (hub-thing, ${l(69)})`,
        ...Array.from(
          { length: 10 },
          (_, i) => `- → \`in-t${i + 2}\` — handoff \`reviewing-things\` to \`qa-agent\` (hub-thing, ${l(6 + 3 * i)})`,
        ),
        '- … and 3 more',
        '',
        '**Into here**:',
        // exactly twelve: all of them, nothing counted
        ...Array.from({ length: 12 }, (_, i) => `- \`in-s${i + 1}\` → (hub-thing, ${l(45 + 2 * i)})`),
      ].join('\n'),
    );
    expect(shownText(await e.hover(join(root, 'skills/hub-thing/LOOP.md'), at(HUB_LOOP, 'in-s1 ', 1)))).toBe(
      ['**state** `in-s1` — entry point', '', '**From here** a run may go:', `- → \`in-hub\` (hub-thing, ${l(45)})`].join('\n'),
    );
    expect(shownText(await e.hover(join(root, '.loopkit.yaml'), at(config, 'in-hold', 1)))).toBe(
      '**state** `in-hold` — in no transition · enforced',
    );
  });

  it('a skill: its description, its states, the work handed to it (at most twelve); a name that is no skill', async () => {
    const root = mini({
      'skills/hub-thing/SKILL.md': '## Description\n\nA hub.\n',
      'skills/hub-thing/LOOP.md': HUB_LOOP,
      'README.md': `${MINI['README.md']}- \`hub-thing\` hubs\n`,
    });
    const e = await Editor.start([root]);
    const l = (file: string, line: number) => link(root, file, line);
    const rev = shownText(await e.hover(join(root, BL), at(BUILD_LOOP, 'handoff reviewing', 9)))!;
    expect(rev.split('\n')).toEqual([
      `**skill** \`reviewing-things\` — ${l(RS, 1)}`,
      '',
      'Reviews the story before it is done. Use when the developer hands it over.',
      '',
      'States: `in-review`, `in-dev`, `done`',
      '',
      '**Work handed to it**:',
      `- \`in-dev\` → \`in-review\` by building-things, to \`qa-agent\` (${l(BL, 27)})`,
      ...Array.from(
        { length: 11 },
        (_, i) => `- \`in-hub\` → \`in-t${i + 1}\` by hub-thing, to \`qa-agent\` (${l('skills/hub-thing/LOOP.md', 3 + 3 * i)})`,
      ),
    ]);
    // no frontmatter, no work handed to it
    const readme = `${MINI['README.md']}- \`hub-thing\` hubs\n`;
    expect(shownText(await e.hover(join(root, 'README.md'), at(readme, 'hub-thing', 1)))).toBe(
      [
        `**skill** \`hub-thing\` — ${l('skills/hub-thing/SKILL.md', 1)}`,
        '',
        `States: \`in-hub\`, ${[...Array.from({ length: 14 }, (_, i) => `\`in-t${i + 1}\``), ...Array.from({ length: 12 }, (_, i) => `\`in-s${i + 1}\``)].join(', ')}`,
      ].join('\n'),
    );
    const done = await e.hover(join(root, RL), at(REVIEW_LOOP, 'handoff done', 9));
    expect(`${r(done!.range!)} ${shownText(done)}`).toBe('26:8-26:12 **skill** `done` — not a skill of this project');
  });

  it('a skill without transitions; a halt reason, declared or not, with the transitions that halt with it', async () => {
    const loop = BUILD_LOOP.replace('halt stall after 5 iterations\n\n## Halt', 'halt frozen\n\n## Halt');
    const root = mini({
      [BL]: loop,
      'skills/legacy-thing/SKILL.md': '---\nname: legacy-thing\ndescription: Handles the old format.\n---\n## Description\n\nOld.\n',
      'README.md': `${MINI['README.md']}- \`legacy-thing\` is old\n`,
    });
    const e = await Editor.start([root]);
    const l = (file: string, line: number) => link(root, file, line);
    expect(
      shownText(await e.hover(join(root, 'README.md'), at(`${MINI['README.md']}- \`legacy-thing\` is old\n`, 'legacy-thing', 1))),
    ).toBe(`**skill** \`legacy-thing\` — ${l('skills/legacy-thing/SKILL.md', 1)}\n\nHandles the old format.`);
    const frozen = await e.hover(join(root, BL), at(loop, 'halt frozen', 6));
    expect(`${r(frozen!.range!)} ${shownText(frozen)}`).toBe(
      [
        '31:5-31:11 **halt reason** `frozen` — not declared in halt_reasons (loop-unknown-halt)',
        '',
        '**Transitions that halt with it**:',
        `- → \`halted-stall\` — halt \`frozen\` (building-things, ${l(BL, 31)})`,
      ].join('\n'),
    );
    const budget = await e.hover(join(root, RL), at(REVIEW_LOOP, 'halt budget', 6));
    expect(`${r(budget!.range!)} ${shownText(budget)}`).toBe('30:23-30:29 **halt reason** `budget` — declared in halt_reasons');
    // the halted state of a transition without a bound: terminal (halted), no bound
    expect(shownText(await e.hover(join(root, BL), at(loop, 'in-dev → in-review', 1)))!.split('\n')[0]).toBe(
      '**state** `in-dev` — enforced, agent `dev-agent`',
    );
  });

  it('a rule code: in .loopkit.yaml, a suppression comment, or prose; an alias; a word that is no rule', async () => {
    const prose = '2. Commit. See graph-dead-end, loop-unknown-halt-reason, loop-section-order and well-known.';
    const loop = BUILD_LOOP.replace('2. Commit.', prose);
    const root = mini({ [BL]: loop });
    const e = await Editor.start([root]);
    const hover = async (path: string, p: Position) => {
      const h = await e.hover(join(root, path), p);
      return h === null ? null : `${r(h.range!)} ${shownText(h)}`;
    };
    const page = (code: string) => `[Rule documentation](${uriOf(join(ROOT, 'docs', 'rules', `${code}.md`))})`;
    const verb = `**rule** \`loop-nonstandard-verb\` — warning by default · language\n\nCheck that numbered steps in LOOP.md start with a verb from standard_verbs\n\n${page('loop-nonstandard-verb')}`;
    expect(await hover('.loopkit.yaml', at(CONFIG, 'loop-nonstandard-verb', 1))).toBe(`21:2-21:23 ${verb}`);
    expect(await hover(RL, at(REVIEW_LOOP, 'loop-nonstandard-verb', 1))).toBe(`12:31-12:52 ${verb}`);
    const dead = `**rule** \`graph-dead-end\` — error by default · graph\n\nDisallow states that no transition leaves unless they are terminal (done, halted-<reason>, or enforced with no agent)\n\n${page('graph-dead-end')}`;
    const start = at(loop, 'graph-dead-end');
    expect(await hover(BL, start)).toBe(`18:15-18:29 ${dead}`);
    expect(await hover(BL, { ...start, character: start.character + 13 })).toBe(`18:15-18:29 ${dead}`);
    expect(await hover(BL, { ...start, character: start.character + 14 })).toBeNull();
    expect(await hover(BL, { ...start, character: start.character - 1 })).toBeNull();
    expect(await hover(BL, at(loop, 'loop-unknown-halt-reason', 3))).toBe(
      `18:31-18:55 **rule** \`loop-unknown-halt\` — warning by default · language\n\nRequire every \`halt <reason>\` directive in LOOP.md to use a reason listed in halt_reasons\n\n(\`loop-unknown-halt-reason\` is an alias of \`loop-unknown-halt\`)\n\n${page('loop-unknown-halt')}`,
    );
    expect((await hover(BL, at(loop, 'loop-section-order', 3)))!.split('\n')[0]).toBe(
      '18:57-18:75 **rule** `loop-section-order` — error by default · sections · --fix repairs it',
    );
    expect(await hover(BL, at(loop, 'well-known', 3))).toBeNull();
    // a code of no rule in a suppression comment: nothing
    await e.change(join(root, BL), `<!-- loopkit-disable-next-line no-such-rule -->\n${loop}`);
    expect(await hover(BL, { line: 0, character: 33 })).toBeNull();
  });

  it('a frontmatter key of SKILL.md: what it means, to whom; not in other files', async () => {
    const skill = BUILD_SKILL.replace('x-owner: me', 'x-owner: me\nowner: me\nflavour: sweet');
    const root = mini({ [BS]: skill });
    const e = await Editor.start([root]);
    const hover = async (path: string, p: Position) => {
      const h = await e.hover(join(root, path), p);
      return h === null ? null : `${r(h.range!)} ${shownText(h)}`;
    };
    expect(await hover(BS, { line: 2, character: 0 })).toBe(
      '2:0-2:11 **description** (Agent Skills)\n\nWhat the skill does and when to use it (third person, at most 1024 characters): agents read it to choose the skill.',
    );
    expect(await hover(BS, { line: 2, character: 11 })).toBe(
      '2:0-2:11 **description** (Agent Skills)\n\nWhat the skill does and when to use it (third person, at most 1024 characters): agents read it to choose the skill.',
    );
    expect(await hover(BS, { line: 2, character: 12 })).toBeNull();
    expect(await hover(BS, { line: 3, character: 3 })).toBe('3:0-3:7 **x-owner** — a custom key (`x-` prefix): no agent reads it');
    expect(await hover(BS, { line: 4, character: 3 })).toBe('4:0-4:5 **owner** (Loop Language)\n\nWho maintains the skill.');
    expect(await hover(BS, { line: 5, character: 3 })).toBe(
      '5:0-5:7 **flavour** — no agent reads this key (skill-unknown-frontmatter-key)',
    );
    expect(await hover('.claude/agents/qa-agent.md', { line: 2, character: 3 })).toBeNull();
  });
});

/** A completion item as `label|kind|detail|sortText|range=newText|insertTextFormat|documentation`. */
const item = (i: CompletionItem) => {
  const te = i.textEdit as TextEdit | undefined;
  const doc =
    typeof i.documentation === 'string' ? i.documentation : i.documentation ? `${i.documentation.kind}:${i.documentation.value}` : '';
  return [i.label, i.kind, i.detail ?? '', i.sortText ?? '', te ? `${r(te.range)}=${te.newText}` : '', i.insertTextFormat ?? '', doc].join(
    '|',
  );
};

describe('completion', () => {
  /** The items offered at a place of a file (its text as on disk unless `text` is given). */
  async function offered(e: Editor, abs: string, p: Position, text?: string): Promise<string[] | null> {
    if (text !== undefined) await e.change(abs, text);
    const got = await e.completion(abs, p);
    return got === null ? null : got.map(item);
  }
  const KEYWORDS = [
    'transition|14||||transition <from> → <to>: a change of state',
    'trigger|14||||trigger <condition>: when the transition above is taken',
    'handoff|14||||handoff <skill> to <agent>: who owns the work after the transition above',
    'halt|14||||halt <reason> after <N> iterations: the transition above stops the loop',
  ];
  /** The keywords, each replacing a range. */
  const keywords = (range: string, which = KEYWORDS) => which.map((k) => k.replace('||||', `|||${range}=${k.split('|')[0]} ||`));

  it('in a transition: states (those a run may take from its source first), the arrow', async () => {
    const root = mini();
    const e = await Editor.start([root]);
    const loop = join(root, BL);
    // `transition in-dev → in-review`, completed at three places
    expect(await offered(e, loop, { line: 26, character: 11 })).toEqual([
      'in-dev|20|state · enforced|in-dev|26:11-26:11=in-dev||',
      'in-review|20|state · enforced|in-review|26:11-26:11=in-review||',
      'halted-stall|20|state · terminal|halted-stall|26:11-26:11=halted-stall||',
      'done|20|state · terminal · enforced|done|26:11-26:11=done||',
    ]);
    expect(await offered(e, loop, { line: 26, character: 14 })).toEqual([
      'in-dev|20|state · enforced|in-dev|26:11-26:14=in-dev||',
      'in-review|20|state · enforced|in-review|26:11-26:14=in-review||',
      'halted-stall|20|state · terminal|halted-stall|26:11-26:14=halted-stall||',
      'done|20|state · terminal · enforced|done|26:11-26:14=done||',
    ]);
    expect(await offered(e, loop, { line: 26, character: 18 })).toEqual([
      '→|24|arrow|0|26:18-26:18=→ ||',
      '->|24|arrow|1|26:18-26:18=-> ||',
    ]);
    expect(await offered(e, loop, { line: 26, character: 23 })).toEqual([
      'in-dev|20|state · enforced|1in-dev|26:20-26:23=in-dev||',
      'in-review|20|state · enforced|0in-review|26:20-26:23=in-review||',
      'halted-stall|20|state · terminal|0halted-stall|26:20-26:23=halted-stall||',
      'done|20|state · terminal · enforced|1done|26:20-26:23=done||',
    ]);
    // dashes typed of an arrow are replaced; the arrow written as `->` and in a list item with backticks
    const dashes = `${BUILD_LOOP}transition in-review --`;
    expect(await offered(e, loop, { line: 40, character: 23 }, dashes)).toEqual([
      '→|24|arrow|0|40:21-40:23=→ ||',
      '->|24|arrow|1|40:21-40:23=-> ||',
    ]);
    const listed = `${BUILD_LOOP}- \`transition in-review\` -> \`do`;
    expect((await offered(e, loop, { line: 40, character: 31 }, listed))!.map((i) => i.split('|').slice(0, 5).join('|'))).toEqual([
      'in-dev|20|state · enforced|0in-dev|40:29-40:31=in-dev',
      'in-review|20|state · enforced|1in-review|40:29-40:31=in-review',
      'halted-stall|20|state · terminal|1halted-stall|40:29-40:31=halted-stall',
      'do|20|state · terminal|0do|40:29-40:31=do',
      'done|20|state · terminal · enforced|0done|40:29-40:31=done',
    ]);
  });

  it('after handoff: skills and done, then `to`, then agents; after halt: halt reasons, then the bound', async () => {
    const root = mini();
    const e = await Editor.start([root]);
    const loop = join(root, BL);
    // `handoff reviewing-things to qa-agent`
    expect(await offered(e, loop, { line: 28, character: 8 })).toEqual([
      'building-things|9|skill · skills/building-things|building-things|28:8-28:8=building-things||',
      'reviewing-things|9|skill · skills/reviewing-things|reviewing-things|28:8-28:8=reviewing-things||',
      'done|14|the work is finished: no skill takes over|~done|28:8-28:8=done||',
    ]);
    expect(await offered(e, loop, { line: 28, character: 26 })).toEqual(['to|14|||28:25-28:26=to ||']);
    expect(await offered(e, loop, { line: 28, character: 25 })).toEqual(['to|14|||28:25-28:25=to ||']);
    expect(await offered(e, loop, { line: 28, character: 30 })).toEqual([
      'dev-agent|12|agent|dev-agent|28:28-28:30=dev-agent||',
      'qa-agent|12|agent|qa-agent|28:28-28:30=qa-agent||',
      'all-agents|12|agent|all-agents|28:28-28:30=all-agents||',
    ]);
    // `halt stall after 5 iterations`
    expect(await offered(e, loop, { line: 31, character: 7 })).toEqual([
      'stall|20|halt reason|stall|31:5-31:7=stall||',
      'budget|20|halt reason|budget|31:5-31:7=budget||',
    ]);
    expect(await offered(e, loop, { line: 31, character: 11 })).toEqual(['after N iterations|15|||31:11-31:11=after ${1:3} iterations|2|']);
    // a halt reason no halt_reasons declares
    const frozen = BUILD_LOOP.replace('halt stall after 5 iterations\n\n## Halt', 'halt frozen\n\n## Halt');
    expect(await offered(e, loop, { line: 31, character: 5 }, frozen)).toEqual([
      'stall|20|halt reason|stall|31:5-31:5=stall||',
      'budget|20|halt reason|budget|31:5-31:5=budget||',
      'frozen|20|halt reason · not declared in halt_reasons|frozen|31:5-31:5=frozen||',
    ]);
  });

  it('step verbs in a numbered step, keywords at the start of a line, missing sections after `## `, nothing in prose', async () => {
    const root = mini();
    const e = await Editor.start([root]);
    const loop = join(root, BL);
    // `2. Commit.`
    const verbs = (range: string) =>
      ['implement', 'commit', 'review', 'complete'].map((v) => `${v}|3|step verb (standard_verbs)|${v}|${range}=${v}||`);
    expect(await offered(e, loop, { line: 18, character: 3 })).toEqual(verbs('18:3-18:3'));
    expect(await offered(e, loop, { line: 18, character: 5 })).toEqual(verbs('18:3-18:5'));
    expect(await offered(e, loop, { line: 18, character: 10 })).toEqual([]);
    // `transition in-dev → in-review` at its start, in `tr`
    expect(await offered(e, loop, { line: 26, character: 0 })).toEqual(keywords('26:0-26:0'));
    expect(await offered(e, loop, { line: 26, character: 2 })).toEqual(keywords('26:0-26:2', KEYWORDS.slice(0, 2)));
    expect(await offered(e, loop, { line: 28, character: 3 })).toEqual(keywords('28:0-28:3', KEYWORDS.slice(2, 3)));
    expect(await offered(e, loop, { line: 2, character: 10 })).toEqual([]);
    // `## State Transition Rule`: every section is there
    expect(await offered(e, loop, { line: 24, character: 3 })).toEqual([]);
    const without = BUILD_LOOP.replace('## Proof of Progress\n\nOne more AC is green.\n\n', '').replace('## Entry Conditions', '## Pr');
    expect(await offered(e, loop, { line: 0, character: 5 }, without)).toEqual([
      'Entry Conditions|9|required section|000|0:3-0:5=Entry Conditions||',
      'Proof of Progress|9|required section|001|0:3-0:5=Proof of Progress||',
    ]);
    const listed = `${BUILD_LOOP}- `;
    expect(await offered(e, loop, { line: 40, character: 2 }, listed)).toEqual(keywords('40:2-40:2'));
  });

  it('suppression comments: the verbs, then the rule codes; in any markdown file of the project', async () => {
    const root = mini();
    const e = await Editor.start([root]);
    const review = join(root, RL);
    // `<!-- loopkit-disable-next-line loop-nonstandard-verb -- a domain verb -->`
    const verbs = (range: string) =>
      ['loopkit-disable-next-line', 'loopkit-disable-line', 'loopkit-disable', 'loopkit-enable'].map(
        (v) => `${v}|14||${v}|${range}=${v}||`,
      );
    expect(await offered(e, review, { line: 12, character: 13 })).toEqual(verbs('12:5-12:13'));
    expect(await offered(e, review, { line: 12, character: 16 })).toEqual(verbs('12:5-12:16'));
    const codes = (await offered(e, review, { line: 12, character: 35 }))!;
    const all = [...ruleIndex().keys()].sort();
    expect(codes.map((c) => c.split('|')[0])).toEqual(all);
    expect(codes.find((c) => c.startsWith('graph-dead-end|'))).toBe(
      'graph-dead-end|12|Disallow states that no transition leaves unless they are terminal (done, halted-<reason>, or enforced with no agent)|graph-dead-end|12:31-12:35=graph-dead-end||',
    );
    // after a code and a comma; in the README; a YAML comment at the start of a line
    const more = `${MINI['README.md']}<!-- loopkit-enable graph-dead-end, `;
    expect(
      (await offered(e, join(root, 'README.md'), { line: 4, character: 36 }, more))!.map((c) => c.split('|').slice(0, 5).join('|'))[0],
    ).toBe(
      'agent-invalid-frontmatter|12|Require the frontmatter of an agent file to be valid YAML, as a strict loader reads it|agent-invalid-frontmatter|4:36-4:36=agent-invalid-frontmatter',
    );
    const yaml = BUILD_SKILL.replace('x-owner: me', 'x-owner: me\n  # loopkit-e');
    expect(await offered(e, join(root, BS), { line: 4, character: 13 }, yaml)).toEqual(verbs('4:4-4:13'));
    // not a suppression: `<!-- loopkit` without the dash, the README's prose
    expect(await offered(e, join(root, 'README.md'), { line: 2, character: 5 })).toEqual([]);
  });

  it('SKILL.md: frontmatter keys with their meaning, the folder name after `name:`, states in backticks, missing sections', async () => {
    const root = mini();
    const e = await Editor.start([root]);
    const skill = join(root, BS);
    const keys = (await offered(e, skill, { line: 3, character: 2 }))!;
    expect(keys.slice(0, 2)).toEqual([
      'name|10|Agent Skills|000|3:0-3:2=name: ||markdown:' + keys[0]!.split('|markdown:')[1],
      'description|10|Agent Skills|001|3:0-3:2=description: ||markdown:What the skill does and when to use it (third person, at most 1024 characters): agents read it to choose the skill.',
    ]);
    expect(keys.find((k) => k.startsWith('owner|'))).toBe(
      'owner|10|Loop Language|' +
        keys.find((k) => k.startsWith('owner|'))!.split('|')[3] +
        '|3:0-3:2=owner: ||markdown:Who maintains the skill.',
    );
    expect(await offered(e, skill, { line: 1, character: 8 })).toEqual([
      'building-things|12|the folder name|building-things|1:6-1:8=building-things||',
    ]);
    // in the frontmatter, not a key nor the name: nothing; its first line and after it: not the frontmatter
    expect(await offered(e, skill, { line: 2, character: 20 })).toEqual([]);
    expect(await offered(e, skill, { line: 0, character: 0 })).toEqual([]);
    expect(await offered(e, skill, { line: 4, character: 0 })).toEqual([]);
    // `Starts in \`in-dev\`, …`
    expect(await offered(e, skill, { line: 15, character: 14 })).toEqual([
      'in-dev|20|state · enforced|in-dev|15:11-15:14=in-dev||',
      'in-review|20|state · enforced|in-review|15:11-15:14=in-review||',
      'halted-stall|20|state · terminal|halted-stall|15:11-15:14=halted-stall||',
      'done|20|state · terminal · enforced|done|15:11-15:14=done||',
    ]);
    expect(await offered(e, skill, { line: 13, character: 3 })).toEqual([]);
    expect(await offered(e, skill, { line: 9, character: 5 }, BUILD_SKILL.replace('## Rules', '## Ru'))).toEqual([
      'Rules|9|required section|000|9:3-9:5=Rules||',
    ]);
  });

  it('the marks of a state: entry point, terminal, enforced, in no transition yet', async () => {
    const root = mini({
      '.loopkit.yaml': CONFIG.replace('rules:', '  - name: in-hold\n    agent: ""\nrules:'),
      [BL]: BUILD_LOOP.replace(
        'transition in-dev → halted-stall',
        'transition in-start → in-dev\n\ntransition in-dev → in-waiting\n\ntransition in-waiting → in-review\n\ntransition in-dev → halted-stall',
      ),
    });
    const e = await Editor.start([root]);
    expect(await offered(e, join(root, BS), { line: 15, character: 11 })).toEqual([
      'in-dev|20|state · enforced|in-dev|15:11-15:11=in-dev||',
      'in-review|20|state · enforced|in-review|15:11-15:11=in-review||',
      'in-start|20|state · entry point|in-start|15:11-15:11=in-start||',
      'in-waiting|20|state|in-waiting|15:11-15:11=in-waiting||',
      'halted-stall|20|state · terminal|halted-stall|15:11-15:11=halted-stall||',
      'done|20|state · terminal · enforced|done|15:11-15:11=done||',
      'in-hold|20|state · enforced · in no transition yet|in-hold|15:11-15:11=in-hold||',
    ]);
  });

  it('a legacy HANDOFFS.md is completed as a LOOP.md', async () => {
    const root = mini({
      'skills/legacy-thing/SKILL.md': '## Description\n\nOld.\n',
      'skills/legacy-thing/HANDOFFS.md': '# Handoffs\n\n  transition in-review → done\n',
    });
    const e = await Editor.start([root]);
    expect(await offered(e, join(root, 'skills/legacy-thing/HANDOFFS.md'), { line: 2, character: 25 })).toEqual([
      'in-dev|20|state · enforced|0in-dev|2:25-2:25=in-dev||',
      'in-review|20|state · enforced|1in-review|2:25-2:25=in-review||',
      'halted-stall|20|state · terminal|1halted-stall|2:25-2:25=halted-stall||',
      'done|20|state · terminal · enforced|0done|2:25-2:25=done||',
    ]);
  });

  it('a SKILL.md at the root: the project folder’s name; a frontmatter never closed', async () => {
    const root = temps.project({ 'SKILL.md': '---\nname: x\ndescription: A skill. Use when testing.\n---\n## Description\n\nOne.\n' });
    const e = await Editor.start([root]);
    const skill = join(root, 'SKILL.md');
    const folder = root.split('/').pop()!;
    expect(await offered(e, skill, { line: 1, character: 7 })).toEqual([`${folder}|12|the folder name|${folder}|1:6-1:7=${folder}||`]);
    const open = (await offered(e, skill, { line: 2, character: 1 }, '---\nname: x\nd'))!;
    expect(open.map((k) => k.split('|')[0]).slice(0, 3)).toEqual(['name', 'description', 'license']);
  });

  it('.loopkit.yaml: rule codes under rules:, then their severities; nothing elsewhere; nothing in a file of no kind', async () => {
    const root = mini({ 'skills/building-things/scripts/run.sh': '#!/bin/sh\n# loopkit-\n' });
    const e = await Editor.start([root]);
    const config = join(root, '.loopkit.yaml');
    // `  loop-nonstandard-verb: warning`
    const codes = (await offered(e, config, { line: 21, character: 2 }))!;
    expect(codes.map((c) => c.split('|')[0])).toEqual([...ruleIndex().keys()].sort());
    expect(codes.find((c) => c.startsWith('graph-dead-end|'))).toBe(
      'graph-dead-end|10|Disallow states that no transition leaves unless they are terminal (done, halted-<reason>, or enforced with no agent)||21:2-21:2=graph-dead-end: ||',
    );
    expect(await offered(e, config, { line: 21, character: 26 })).toEqual([
      'off|20||off|21:25-21:26=off||',
      'info|20||info|21:25-21:26=info||',
      'warning|20||warning|21:25-21:26=warning||',
      'error|20||error|21:25-21:26=error||',
    ]);
    expect(await offered(e, config, { line: 21, character: 24 })).toEqual([
      'off|20||off|21:24-21:24=off||',
      'info|20||info|21:24-21:24=info||',
      'warning|20||warning|21:24-21:24=warning||',
      'error|20||error|21:24-21:24=error||',
    ]);
    expect((await offered(e, config, { line: 21, character: 10 }))!.find((c) => c.startsWith('graph-dead-end|'))).toBe(
      'graph-dead-end|10|Disallow states that no transition leaves unless they are terminal (done, halted-<reason>, or enforced with no agent)||21:2-21:10=graph-dead-end: ||',
    );
    expect(await offered(e, config, { line: 3, character: 4 })).toEqual([]);
    // `    agent: dev-agent`, under enforced_states: no severities there
    expect(await offered(e, config, { line: 12, character: 12 })).toEqual([]);
    // under rules:, neither a code nor its severity
    const commented = CONFIG.replace('rules:\n', 'rules:\n  # a comment\n');
    expect(await offered(e, config, { line: 21, character: 5 }, commented)).toEqual([]);
    expect(await offered(e, config, { line: 0, character: 0 })).toEqual([]);
    expect(await offered(e, join(root, 'skills/building-things/scripts/run.sh'), { line: 1, character: 10 })).toEqual([]);
    expect(await offered(e, join(root, '.claude/agents/qa-agent.md'), { line: 1, character: 2 })).toEqual([]);
  });
});

/** A workspace edit as lines: `path@version r=text` for each text edit, `move old → new` for each file renamed. */
function editLines(root: string, edit: WorkspaceEdit | null | string): string[] | string | null {
  if (edit === null || typeof edit === 'string') return edit;
  const out: string[] = [];
  for (const [uri, edits] of Object.entries(edit.changes ?? {}))
    for (const t of edits) out.push(`${rel(root, uri)} ${r(t.range)}=${t.newText}`);
  for (const c of edit.documentChanges ?? []) {
    if ('textDocument' in c)
      for (const t of c.edits as TextEdit[])
        out.push(`${rel(root, c.textDocument.uri)}@${String(c.textDocument.version)} ${r(t.range)}=${t.newText}`);
    else if (c.kind === 'rename') out.push(`move ${rel(root, c.oldUri)} → ${rel(root, c.newUri)}`);
    else out.push(`other ${c.kind}`);
  }
  if (edit.changes && edit.documentChanges) out.push('both forms');
  return out;
}

describe('rename', () => {
  it('prepareRename: the name under the cursor; refused with why where nothing can be renamed', async () => {
    const loop = BUILD_LOOP.replace(
      'handoff reviewing-things to qa-agent\n\ntransition',
      'handoff reviewing-things to po-agent\n\ntransition',
    );
    const root = mini({ [BL]: loop });
    const e = await Editor.start([root]);
    const prepare = (path: string, p: Position) =>
      e.prepareRename(join(root, path), p).then(
        (x) => x,
        (err: Error & { code?: number }) => `${String(err.code)} ${err.message}`,
      );
    expect(await prepare(BL, at(loop, 'in-dev → in-review', 11))).toEqual({
      range: { start: { line: 26, character: 20 }, end: { line: 26, character: 29 } },
      placeholder: 'in-review',
    });
    expect(await prepare(BL, at(loop, 'handoff reviewing', 9))).toEqual({
      range: { start: { line: 28, character: 8 }, end: { line: 28, character: 24 } },
      placeholder: 'reviewing-things',
    });
    expect(await prepare(BL, at(loop, 'po-agent', 1))).toBe("-32600 'po-agent' is not an agent this project defines.");
    expect(await prepare(RL, at(REVIEW_LOOP, 'handoff done', 9))).toBe("-32600 'done' is not a skill of this project.");
    expect(await prepare(RL, at(REVIEW_LOOP, 'loop-nonstandard-verb', 1))).toBe(
      '-32600 Only a state, a skill, an agent or a halt reason can be renamed here.',
    );
    expect(await prepare(BL, at(loop, 'The story', 1))).toBe(
      '-32600 Only a state, a skill, an agent or a halt reason can be renamed here.',
    );
    expect(await prepare(RL, at(REVIEW_LOOP, 'dev-agent', 1))).toEqual({
      range: { start: { line: 23, character: 27 }, end: { line: 23, character: 36 } },
      placeholder: 'dev-agent',
    });
  });

  it('a state: every transition, state model, value row, backticked mention in a LOOP.md, setting and enforced state', async () => {
    const loop = BUILD_LOOP.replace('One more AC is green.', 'One more AC is green; the story stays `in-dev` (`in-dev`), see `in-dev-x`.');
    const root = mini({ [BL]: loop, '.loopkit.yaml': `${CONFIG}bug_feedback_enabled: false\nbug_feedback_return_to: in-dev\n` });
    const e = await Editor.start([root]);
    await e.open(join(root, BS));
    const edit = await e.rename(join(root, BL), at(loop, 'in-dev → in-review', 1), ' in-build ');
    // the new name trimmed; the open document's edits carry its version; `in-dev-x` is another name
    expect(editLines(root, edit)).toEqual([
      '.loopkit.yaml@null 11:10-11:16=in-build',
      '.loopkit.yaml@null 24:24-24:30=in-build',
      `${BL}@null 13:10-13:16=in-build`,
      `${BL}@null 26:11-26:17=in-build`,
      `${BL}@null 30:11-30:17=in-build`,
      `${BL}@null 22:39-22:45=in-build`,
      `${BL}@null 22:49-22:55=in-build`,
      `${BS}@1 15:11-15:17=in-build`,
      `${RL}@null 21:23-21:29=in-build`,
      `${RS}@null 14:30-14:36=in-build`,
    ]);
    // the same name: nothing to do
    expect(await e.rename(join(root, BL), at(loop, 'in-dev → in-review', 1), 'in-dev')).toEqual({});
  });

  it('a client that takes no documentChanges gets the changes form; the edits of each file once', async () => {
    const root = mini();
    const e = await Editor.start([root], { capabilities: { workspace: { workspaceEdit: {} } } });
    const edit = await e.rename(join(root, RL), at(REVIEW_LOOP, 'halt budget', 6), 'money');
    expect(editLines(root, edit)).toEqual(['.loopkit.yaml 9:4-9:10=money', `${RL} 30:23-30:29=money`]);
    expect(Object.keys(edit!.changes!)).toEqual([uriOf(join(root, '.loopkit.yaml')), uriOf(join(root, RL))]);
  });

  it('a state’s new name: refused when it is no state name, is taken, or breaks state-invalid-name (when it runs)', async () => {
    const root = mini();
    const e = await Editor.start([root]);
    const inReview = at(BUILD_LOOP, 'in-dev → in-review', 11);
    const why = (name: string, p = inReview) => e.renameOrWhy(join(root, BL), p, name);
    expect(await why('in review')).toBe("'in review' cannot be a state: a state name has no spaces, backticks, '→' or '>'.");
    expect(await why('in`x')).toBe("'in`x' cannot be a state: a state name has no spaces, backticks, '→' or '>'.");
    expect(await why('in>x')).toBe("'in>x' cannot be a state: a state name has no spaces, backticks, '→' or '>'.");
    expect(await why('in-dev')).toBe("'in-dev' is already a state of this project: renaming 'in-review' to it would merge two states.");
    expect(await why('In-Review')).toBe("State 'In-Review' has upper-case letters (use lower-case kebab-case) (state-invalid-name).");
    expect(await why('stopped', at(BUILD_LOOP, '→ halted-stall', 3))).toBe(
      "State 'stopped' has no hyphen (a one-word state is allowed only when it is listed in enforced_states) (state-invalid-name).",
    );
    // an enforced state may be one word, and keeps that right under its new name
    const done = at(REVIEW_LOOP, '→ done', 2);
    expect(editLines(root, await e.renameOrWhy(join(root, RL), done, 'finished'))).toEqual([
      '.loopkit.yaml@null 17:10-17:14=finished',
      `${RL}@null 25:23-25:27=finished`,
      `${RS}@null 14:48-14:52=finished`,
    ]);
    expect(editLines(root, await why('reviewing'))).toEqual([
      '.loopkit.yaml@null 14:10-14:19=reviewing',
      `${BL}@null 26:20-26:29=reviewing`,
      `${BS}@null 15:35-15:44=reviewing`,
      `${RL}@null 21:11-21:20=reviewing`,
      `${RL}@null 25:11-25:20=reviewing`,
      `${RS}@null 14:9-14:18=reviewing`,
    ]);
  });

  it('with state-invalid-name off, any state name without spaces is taken', async () => {
    const root = mini({ '.loopkit.yaml': CONFIG.replace('rules:\n', 'rules:\n  state-invalid-name: off\n') });
    const e = await Editor.start([root]);
    expect(editLines(root, await e.renameOrWhy(join(root, BL), at(BUILD_LOOP, '→ halted-stall', 3), 'Stopped'))).toEqual([
      `${BL}@null 30:20-30:32=Stopped`,
      `${BS}@null 15:60-15:72=Stopped`,
    ]);
  });

  it('a skill: its name, every handoff and README entry, and its folder; refused where a rule or a folder stands in the way', async () => {
    const root = mini();
    const e = await Editor.start([root]);
    const at0 = at(BUILD_LOOP, 'handoff reviewing', 9);
    const why = (name: string) => e.renameOrWhy(join(root, BL), at0, name);
    expect(editLines(root, await why('checking-things'))).toEqual([
      'README.md@null 3:3-3:19=checking-things',
      `${BL}@null 28:8-28:24=checking-things`,
      `${BL}@null 39:8-39:24=checking-things`,
      `${RS}@null 1:6-1:22=checking-things`,
      'move skills/reviewing-things → skills/checking-things',
    ]);
    expect(await why('checking things')).toBe(
      "'checking things' cannot be a skill name: a handoff names a skill with letters, digits, '_' and '-' only.",
    );
    expect(await why('building-things')).toBe("'building-things' is already a skill of this project.");
    expect(await why('Checking-Things')).toBe(
      "Skill name 'Checking-Things' is not lower-case kebab-case (a-z, 0-9 and hyphens) (skill-name-invalid-chars).",
    );
    expect(await why('-checking')).toBe("Skill name '-checking' starts with a hyphen (skill-name-leading-hyphen).");
    expect(await why('checking-')).toBe("Skill name 'checking-' ends with a hyphen (skill-name-trailing-hyphen).");
    expect(await why('checking--things')).toBe("Skill name 'checking--things' contains '--' (skill-name-consecutive-hyphens).");
    expect(await why(`checking-${'x'.repeat(56)}`)).toBe(
      `Skill name 'checking-${'x'.repeat(56)}' is longer than 64 characters (skill-name-too-long).`,
    );
    expect(editLines(root, await why(`checking-${'x'.repeat(55)}`))).toHaveLength(5);
    expect(await why('checking-claude')).toBe(
      "Skill name 'checking-claude' contains a reserved word ('anthropic', 'claude') (skill-name-reserved-word).",
    );
    expect(await why('thing-checker')).toBe(
      "Skill name 'thing-checker' is not gerund-first (its first word should end in -ing, as in 'writing-stories') (skill-name-not-gerund).",
    );
    mkdirSync(join(root, 'skills', 'checking-things'));
    expect(await why('checking-things')).toBe("A folder named 'checking-things' already exists next to 'skills/reviewing-things'.");
    expect(e.shown).toEqual([]);
  });

  it('a skill whose rules are off: a name they would report is taken', async () => {
    const root = mini({
      '.loopkit.yaml': CONFIG.replace('rules:\n', 'rules:\n  skill-name-not-gerund: off\n  skill-name-invalid-chars: off\n'),
    });
    const e = await Editor.start([root]);
    const at0 = at(BUILD_LOOP, 'handoff reviewing', 9);
    expect(editLines(root, await e.renameOrWhy(join(root, BL), at0, 'thing-checker'))).toHaveLength(5);
    expect(editLines(root, await e.renameOrWhy(join(root, BL), at0, 'Thing'))).toHaveLength(5);
  });

  it('a client that cannot rename folders: the name changes with a warning, or is refused when the folder is the name', async () => {
    const root = mini({
      'skills/legacy-thing/SKILL.md': '---\ndescription: Handles the old format. Use when testing.\n---\n## Description\n\nOld.\n',
      'README.md': `${MINI['README.md']}- \`legacy-thing\` is old\n`,
    });
    const e = await Editor.start([root], { capabilities: { workspace: { workspaceEdit: { documentChanges: true } } } });
    expect(editLines(root, await e.renameOrWhy(join(root, BL), at(BUILD_LOOP, 'handoff reviewing', 9), 'checking-things'))).toEqual([
      'README.md@null 3:3-3:19=checking-things',
      `${BL}@null 28:8-28:24=checking-things`,
      `${BL}@null 39:8-39:24=checking-things`,
      `${RS}@null 1:6-1:22=checking-things`,
    ]);
    expect(e.shown).toEqual([
      {
        type: 2,
        message:
          "loopkit: This editor cannot rename folders: rename 'skills/reviewing-things' to 'checking-things' to keep the folder named after the skill.",
      },
    ]);
    const readme = `${MINI['README.md']}- \`legacy-thing\` is old\n`;
    expect(await e.renameOrWhy(join(root, 'README.md'), at(readme, 'legacy-thing', 1), 'handling-legacy')).toBe(
      "The skill's name is its folder's, and this editor cannot rename folders: rename 'skills/legacy-thing' to 'handling-legacy'.",
    );
  });

  it('a skill whose name is not its folder’s, or a skill at the root: no folder moves', async () => {
    const root = mini({ [RS]: REVIEW_SKILL.replace('name: reviewing-things', 'name: reviewing-stuff') });
    const e = await Editor.start([root]);
    expect(editLines(root, await e.renameOrWhy(join(root, RS), { line: 1, character: 8 }, 'checking-stuff'))).toEqual([
      `${RS}@null 1:6-1:21=checking-stuff`,
    ]);
    const single = temps.project({
      'SKILL.md': '---\nname: filling-forms\ndescription: Fills forms. Use when testing.\n---\n## Description\n\nOne.\n',
    });
    const f = await Editor.start([single]);
    expect(editLines(single, await f.renameOrWhy(join(single, 'SKILL.md'), { line: 1, character: 8 }, 'filling-pdfs'))).toEqual([
      'SKILL.md@null 1:6-1:19=filling-pdfs',
    ]);
  });

  it('a halt reason: every halt and halt_reasons; refused when it is no name or taken', async () => {
    const root = mini();
    const e = await Editor.start([root]);
    const stall = at(BUILD_LOOP, 'halt stall', 6);
    expect(editLines(root, await e.renameOrWhy(join(root, BL), stall, 'stuck'))).toEqual([
      '.loopkit.yaml@null 8:4-8:9=stuck',
      `${BL}@null 31:5-31:10=stuck`,
      `${BL}@null 35:5-35:10=stuck`,
    ]);
    expect(await e.renameOrWhy(join(root, BL), stall, '-stuck')).toBe(
      "'-stuck' cannot be a halt reason: letters, digits, '_' and '-' only.",
    );
    expect(await e.renameOrWhy(join(root, BL), stall, 'st uck')).toBe(
      "'st uck' cannot be a halt reason: letters, digits, '_' and '-' only.",
    );
    expect(await e.renameOrWhy(join(root, BL), stall, 'budget')).toBe("'budget' is already a halt reason of this project.");
    expect(editLines(root, await e.renameOrWhy(join(root, BL), stall, '_stuck-1'))).toHaveLength(3);
  });

  it('an agent: every handoff and enforced state, and its file — a Claude Code subagent’s name, an OpenCode agent’s file name', async () => {
    const root = mini();
    const e = await Editor.start([root]);
    const qa = at(BUILD_LOOP, 'qa-agent', 1);
    expect(editLines(root, await e.renameOrWhy(join(root, BL), qa, 'review-agent'))).toEqual([
      '.claude/agents/qa-agent.md@null 1:6-1:14=review-agent',
      '.loopkit.yaml@null 15:11-15:19=review-agent',
      `${BL}@null 28:28-28:36=review-agent`,
      `${BL}@null 39:28-39:36=review-agent`,
    ]);
    const dev = at(REVIEW_LOOP, 'dev-agent', 1);
    expect(editLines(root, await e.renameOrWhy(join(root, RL), dev, 'build-agent'))).toEqual([
      '.loopkit.yaml@null 12:11-12:20=build-agent',
      `${RL}@null 23:27-23:36=build-agent`,
      `${RL}@null 34:27-34:36=build-agent`,
      'move .opencode/agent/dev-agent.md → .opencode/agent/build-agent.md',
    ]);
    expect(await e.renameOrWhy(join(root, RL), dev, 'build agent')).toBe(
      "'build agent' cannot be an agent name: a handoff names an agent with letters, digits, '_' and '-' only.",
    );
    expect(await e.renameOrWhy(join(root, RL), dev, 'all-agents')).toBe("'all-agents' is the handoff to every agent, not a name of one.");
    expect(await e.renameOrWhy(join(root, RL), dev, 'qa-agent')).toBe("'qa-agent' is already an agent of this project.");
    writeFileSync(join(root, '.opencode/agent/build-agent.md'), '---\ndescription: Another.\n---\n');
    expect(await e.renameOrWhy(join(root, RL), dev, 'build-agent')).toBe(
      "A file named 'build-agent.md' already exists next to '.opencode/agent/dev-agent.md'.",
    );
  });

  it('an OpenCode agent with a client that cannot rename files: refused', async () => {
    const root = mini();
    const e = await Editor.start([root], {
      capabilities: { workspace: { workspaceEdit: { documentChanges: true, resourceOperations: ['create'] } } },
    });
    expect(await e.renameOrWhy(join(root, RL), at(REVIEW_LOOP, 'dev-agent', 1), 'build-agent')).toBe(
      "An OpenCode agent is named by its file, and this editor cannot rename files: rename '.opencode/agent/dev-agent.md' to 'build-agent.md'.",
    );
    const f = await Editor.start([root], { capabilities: { workspace: { workspaceEdit: { resourceOperations: ['rename'] } } } });
    expect(await f.renameOrWhy(join(root, RL), at(REVIEW_LOOP, 'dev-agent', 1), 'build-agent')).toBe(
      "An OpenCode agent is named by its file, and this editor cannot rename files: rename '.opencode/agent/dev-agent.md' to 'build-agent.md'.",
    );
  });
});

/** A code action as `title [kind] preferred? {codes} range=newText ; …` (its edits all of the request's file). */
const act = (uri: string) => (a: CodeAction) => {
  const files = Object.keys(a.edit?.changes ?? {});
  expect(files).toEqual([uri]);
  const edits = a.edit!.changes![uri]!.map((t) => `${r(t.range)}=${JSON.stringify(t.newText)}`).join(' ; ');
  const preferred = a.isPreferred === undefined ? '' : a.isPreferred ? ' preferred' : ' not preferred';
  return `${a.title} [${String(a.kind)}]${preferred} {${(a.diagnostics ?? []).map((d) => `${String(d.code)}@${d.range.start.line}`).join(',')}} ${edits}`;
};

/** BUILD_LOOP with the titles of two sections swapped; FIXED: the sections (title and body) put back in their order. */
const SWAPPED = BUILD_LOOP.replace('## Proof of Progress', '## Proof-tmp')
  .replace('## Single Iteration Step', '## Proof of Progress')
  .replace('## Proof-tmp', '## Single Iteration Step');
const FIXED = BUILD_LOOP.replace('1. Implement the next AC.\n2. Commit.', 'STEPS')
  .replace('One more AC is green.', '1. Implement the next AC.\n2. Commit.')
  .replace('STEPS', 'One more AC is green.');

describe('code actions', () => {
  it('a problem in a list item: disable it on its line (inside the list) or in the file, the reason left to write', async () => {
    const loop = BUILD_LOOP.replace('2. Commit.', '2. Flurbish the widget.');
    const root = mini({ [BL]: loop });
    const e = await Editor.start([root]);
    await e.settled();
    const abs = join(root, BL);
    const [d] = e.of(abs)!;
    expect((await e.actions(abs, 18, 18, [d!]))!.map(act(uriOf(abs)))).toEqual([
      'Disable loop-nonstandard-verb for this line [quickfix] {loop-nonstandard-verb@18} 18:0-18:0="   <!-- loopkit-disable-next-line loop-nonstandard-verb -- <reason> -->\\n"',
      'Disable loop-nonstandard-verb for this file [quickfix] {loop-nonstandard-verb@18} 0:0-0:0="<!-- loopkit-disable loop-nonstandard-verb -- <reason> -->\\n"',
    ]);
    // the request's range must hold the problem's line; only the client's diagnostics of its code and line are linked
    expect(await e.actions(abs, 16, 17, [d!])).toEqual([]);
    expect(await e.actions(abs, 19, 25, [d!])).toEqual([]);
    expect((await e.actions(abs, 17, 19, [d!]))!).toHaveLength(2);
    const other = { ...d!, code: 'graph-dead-end' };
    const elsewhere = { ...d!, range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } } };
    expect((await e.actions(abs, 18, 18, [other, elsewhere]))!.map((a) => a.diagnostics)).toEqual([[], []]);
    // quick fixes not asked for: none
    expect(await e.actions(abs, 18, 18, [d!], ['refactor'])).toEqual([]);
    expect((await e.actions(abs, 18, 18, [d!], ['quickfix']))!).toHaveLength(2);
  });

  it('the first item of a list, an item after a continued one: the comment at the list’s own place', async () => {
    const first = BUILD_LOOP.replace('1. Implement the next AC.', '1. Flurbish the widget.');
    const continued = BUILD_LOOP.replace(
      '1. Implement the next AC.\n2. Commit.',
      '1. Implement the next AC,\n   all of it.\n2. Flurbish the widget.',
    );
    const root = mini({ [BL]: first });
    const e = await Editor.start([root]);
    await e.settled();
    const abs = join(root, BL);
    const [d] = e.of(abs)!;
    expect(d!.range.start.line).toBe(17);
    expect((await e.actions(abs, 17, 17, [d!]))![0]!.edit!.changes![uriOf(abs)]).toEqual([
      {
        range: { start: { line: 17, character: 0 }, end: { line: 17, character: 0 } },
        newText: '<!-- loopkit-disable-next-line loop-nonstandard-verb -- <reason> -->\n',
      },
    ]);
    await e.change(abs, continued);
    await e.settled();
    const [c] = e.of(abs)!;
    expect(c!.range.start.line).toBe(19);
    expect((await e.actions(abs, 19, 19, [c!]))![0]!.edit!.changes![uriOf(abs)]).toEqual([
      {
        range: { start: { line: 19, character: 0 }, end: { line: 19, character: 0 } },
        newText: '   <!-- loopkit-disable-next-line loop-nonstandard-verb -- <reason> -->\n',
      },
    ]);
  });

  it('a problem on the first line after the frontmatter: disabled on its line or in the file', async () => {
    const root = mini({
      'skills/legacy-thing/SKILL.md': '---\ndescription: Handles the old format. Use when testing.\n---\n## Description\n\nOld.\n',
    });
    const e = await Editor.start([root]);
    await e.settled();
    const abs = join(root, 'skills/legacy-thing/SKILL.md');
    const d = e.of(abs)!.find((x) => x.code === 'skill-missing-rules')!;
    expect(d.range.start.line).toBe(3);
    const todo = (section: string) => `\\n## ${section}\\n\\n<!-- TODO: write this section (added by loopkit --fix) -->\\n`;
    // two problems --fix repairs: each fixed, and both at once
    expect((await e.actions(abs, 3, 3, [d]))!.map(act(uriOf(abs)))).toEqual([
      `Fix: Skill \`legacy-thing\` is missing '## Rules' section [quickfix] preferred {skill-missing-rules@3} 6:0-6:0="${todo('Rules')}"`,
      'Disable skill-missing-rules for this line [quickfix] {skill-missing-rules@3} 3:0-3:0="<!-- loopkit-disable-next-line skill-missing-rules -- <reason> -->\\n"',
      'Disable skill-missing-rules for this file [quickfix] {skill-missing-rules@3} 3:0-3:0="<!-- loopkit-disable skill-missing-rules -- <reason> -->\\n"',
      `Fix: Skill \`legacy-thing\` is missing a state model section. Expected one of: State Model, The Loop, Loop States, States [quickfix] preferred {} 6:0-6:0="${todo('State Model')}"`,
      'Disable skill-missing-state-model for this line [quickfix] {} 3:0-3:0="<!-- loopkit-disable-next-line skill-missing-state-model -- <reason> -->\\n"',
      'Disable skill-missing-state-model for this file [quickfix] {} 3:0-3:0="<!-- loopkit-disable skill-missing-state-model -- <reason> -->\\n"',
      `Fix all loopkit problems that --fix repairs in this file [source.fixAll.loopkit] {} 6:0-6:0="${todo('Rules')}${todo('State Model')}"`,
    ]);
  });

  it('a suppression comment right above: the code is added to it', async () => {
    // after the codes, never in the reason or the comment's end
    const withCodes = BUILD_LOOP.replace('2. Commit.', '<!-- loopkit-disable-next-line graph-dead-end -- why -->\n2. Flurbish the widget.');
    const root = mini({ [BL]: withCodes });
    const e = await Editor.start([root]);
    const abs = join(root, BL);
    await e.settled();
    const d = e.of(abs)!.find((x) => x.code === 'loop-nonstandard-verb')!;
    expect(d.range.start.line).toBe(19);
    expect((await e.actions(abs, 19, 19, [d]))![0]!.edit!.changes![uriOf(abs)]).toEqual([
      { range: { start: { line: 18, character: 45 }, end: { line: 18, character: 45 } }, newText: ', loop-nonstandard-verb' },
    ]);
    // the comment the quick fix writes, with its reason: the code goes after the codes
    const ours = BUILD_LOOP.replace('2. Commit.', '<!-- loopkit-disable-next-line graph-dead-end -- <reason> -->\n2. Flurbish the widget.');
    await e.change(abs, ours);
    await e.settled();
    const again = e.of(abs)!.find((x) => x.code === 'loop-nonstandard-verb')!;
    const edits = (await e.actions(abs, 19, 19, [again]))![0]!.edit!.changes![uriOf(abs)]!;
    expect(applyEdits(ours, edits).split('\n')[18]).toBe(
      '<!-- loopkit-disable-next-line graph-dead-end, loop-nonstandard-verb -- <reason> -->',
    );
    // a plugin's code (`<plugin>/<rule>`) is one code; a comment closed right after its codes keeps its end
    for (const [line, after] of [
      [
        '<!-- loopkit-disable-next-line acme/no-bash graph-dead-end -- why -->',
        '<!-- loopkit-disable-next-line acme/no-bash graph-dead-end, loop-nonstandard-verb -- why -->',
      ],
      ['<!-- loopkit-disable-next-line acme/no-bash-->', '<!-- loopkit-disable-next-line acme/no-bash, loop-nonstandard-verb-->'],
      // a list that ends in a comma takes the code after it
      [
        '<!-- loopkit-disable-next-line graph-dead-end, -- why -->',
        '<!-- loopkit-disable-next-line graph-dead-end, loop-nonstandard-verb -- why -->',
      ],
    ] as const) {
      const text = BUILD_LOOP.replace('2. Commit.', `${line}\n2. Flurbish the widget.`);
      await e.change(abs, text);
      await e.settled();
      const d3 = e.of(abs)!.find((x) => x.code === 'loop-nonstandard-verb')!;
      const fix = (await e.actions(abs, 19, 19, [d3]))![0]!.edit!.changes![uriOf(abs)]!;
      expect(applyEdits(text, fix).split('\n')[18], line).toBe(after);
    }
  });

  it('a --fix repair: the preferred quick fix, and the fix of the whole file; applied, the problem is gone', async () => {
    const root = mini({ [BL]: SWAPPED });
    const e = await Editor.start([root]);
    await e.settled();
    const abs = join(root, BL);
    const uri = uriOf(abs);
    const [d] = e.of(abs)!;
    expect(diag(d!).split('\n')[0]).toBe(
      '20:0-20:0 1 loop-section-order LOOP.md for `building-things` has sections in non-canonical order',
    );
    const fix =
      '15:3-22:20="Single Iteration Step\\n\\nOne more AC is green.\\n\\n## Proof of Progress\\n\\n1. Implement the next AC.\\n2. Commit"';
    const actions = (await e.actions(abs, 20, 20, [d!]))!;
    expect(actions.map(act(uri))).toEqual([
      `Fix: LOOP.md for \`building-things\` has sections in non-canonical order [quickfix] preferred {loop-section-order@20} ${fix}`,
      'Disable loop-section-order for this line [quickfix] {loop-section-order@20} 20:0-20:0="<!-- loopkit-disable-next-line loop-section-order -- <reason> -->\\n"',
      'Disable loop-section-order for this file [quickfix] {loop-section-order@20} 0:0-0:0="<!-- loopkit-disable loop-section-order -- <reason> -->\\n"',
      `Fix all loopkit problems that --fix repairs in this file [source.fixAll.loopkit] {} ${fix}`,
    ]);
    expect(applyEdits(SWAPPED, actions[0]!.edit!.changes![uri]!)).toBe(FIXED);
    // only the fix of the whole file, when that is what the client asks for; not when it asks for quick fixes
    const only = async (kinds: string[]) => ((await e.actions(abs, 20, 20, [d!], kinds)) ?? []).map((a) => a.title);
    expect(await only(['source.fixAll'])).toEqual(['Fix all loopkit problems that --fix repairs in this file']);
    expect(await only(['source'])).toEqual(['Fix all loopkit problems that --fix repairs in this file']);
    expect(await only(['source.fixAll.loopkit'])).toEqual(['Fix all loopkit problems that --fix repairs in this file']);
    expect(await only(['source.fix'])).toEqual([]);
    expect(await only(['quickfix'])).toEqual([
      'Fix: LOOP.md for `building-things` has sections in non-canonical order',
      'Disable loop-section-order for this line',
      'Disable loop-section-order for this file',
    ]);
    // the fix of the whole file does not need the range
    expect(await e.actions(abs, 0, 0, [], ['source.fixAll'])).toHaveLength(1);
    await e.change(abs, applyEdits(SWAPPED, actions[0]!.edit!.changes![uri]!));
    await e.settled();
    expect(e.of(abs)).toEqual([]);
    expect(await e.actions(abs, 0, 0, [], ['source.fixAll'])).toEqual([]);
  });

  it('"did you mean": the name the message quotes replaced by the one it proposes, preferred when nothing repairs it', async () => {
    const loop = BUILD_LOOP.replace(
      'handoff reviewing-things to qa-agent\n\ntransition',
      'handoff reviewing-thing to qa-agent\n\ntransition',
    );
    const root = mini({ [BL]: loop, '.loopkit.yaml': CONFIG.replace('max_iterations', 'max_iteration') });
    const e = await Editor.start([root]);
    await e.settled();
    const abs = join(root, BL);
    const d = e.of(abs)!.find((x) => x.code === 'constraints-unknown-handoff-target')!;
    expect((await e.actions(abs, 28, 28, [d]))!.map(act(uriOf(abs)))).toEqual([
      'Change to \'reviewing-things\' [quickfix] preferred {constraints-unknown-handoff-target@28} 28:8-28:23="reviewing-things"',
      'Disable constraints-unknown-handoff-target for this line [quickfix] {constraints-unknown-handoff-target@28} 28:0-28:0="<!-- loopkit-disable-next-line constraints-unknown-handoff-target -- <reason> -->\\n"',
      'Disable constraints-unknown-handoff-target for this file [quickfix] {constraints-unknown-handoff-target@28} 0:0-0:0="<!-- loopkit-disable constraints-unknown-handoff-target -- <reason> -->\\n"',
    ]);
    // in .loopkit.yaml: the replacement, no suppression comment
    const config = join(root, '.loopkit.yaml');
    const [c] = e.of(config)!;
    expect((await e.actions(config, 1, 1, [c!]))!.map(act(uriOf(config)))).toEqual([
      'Change to \'max_iterations\' [quickfix] preferred {config-unknown-key@1} 1:0-1:13="max_iterations"',
    ]);
  });

  it('a table row: the table wrapped in a disable and an enable comment; a frontmatter line: a YAML comment', async () => {
    const loop = BUILD_LOOP.replace('| open | `in-dev` |', '| open | `in-dev` |\n| shut | `in-limbo` |');
    const skill = BUILD_SKILL.replace('name: building-things', 'name: building-stuff');
    const root = mini({ [BL]: loop, [BS]: skill });
    const e = await Editor.start([root]);
    await e.settled();
    const abs = join(root, BL);
    const d = e.of(abs)!.find((x) => x.code === 'loop-invalid-state-schema')!;
    expect((await e.actions(abs, 14, 14, [d]))!.map(act(uriOf(abs)))).toEqual([
      'Disable loop-invalid-state-schema for this line [quickfix] {loop-invalid-state-schema@14} 11:0-11:0="<!-- loopkit-disable loop-invalid-state-schema -- <reason> -->\\n" ; 14:21-14:21="\\n<!-- loopkit-enable loop-invalid-state-schema -->"',
      'Disable loop-invalid-state-schema for this file [quickfix] {loop-invalid-state-schema@14} 0:0-0:0="<!-- loopkit-disable loop-invalid-state-schema -- <reason> -->\\n"',
    ]);
    const sabs = join(root, BS);
    const [m] = e.of(sabs)!;
    // in the frontmatter: no comment for the whole file (it would go after it)
    expect((await e.actions(sabs, 1, 1, [m!]))!.map(act(uriOf(sabs)))).toEqual([
      'Disable skill-name-mismatch-dir for this line [quickfix] {skill-name-mismatch-dir@1} 1:0-1:0="# loopkit-disable-next-line skill-name-mismatch-dir -- <reason>\\n"',
    ]);
  });
});
