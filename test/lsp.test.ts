/**
 * `loopkit lsp` through the protocol, as an editor drives it (test/helpers/lsp.ts): diagnostics
 * that follow buffers and the disk across files, navigation, hover, completion, code actions,
 * rename, broken buffers and a broken configuration. After every change, what the server publishes
 * equals a fresh check of the project with the editor's texts (lint() with an overlay).
 */
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CodeActionRequest,
  CompletionRequest,
  DefinitionRequest,
  DocumentSymbolRequest,
  FileChangeType,
  HoverRequest,
  PrepareRenameRequest,
  ReferencesRequest,
  RenameRequest,
  WorkspaceSymbolRequest,
  type CodeAction,
  type CompletionItem,
  type DocumentSymbol,
  type Location,
  type MarkupContent,
  type Position,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LOOP_SECTIONS } from '../src/config/schema.js';
import { lint } from '../src/api/engine.js';
import { filesOf, ROOT, run, Temps } from './helpers/cli.js';
import { comparable, fromEngine, LspClient, published, uriOf } from './helpers/lsp.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

/** loopkit's own example project (a TDD team of five skills), with a README that lists the skills. */
function team(): string {
  return temps.team(
    'loopkit-lsp-',
    '# The team\n\n- `writing-stories` writes the stories\n- `running-tdd-loops` builds them\n- `running-desk-checks` shows them\n- `verifying-stories` tests them\n- `accepting-stories` accepts them\n',
  );
}

/** The offset of a protocol position in a text. */
function offset(text: string, p: Position): number {
  let at = 0;
  for (let l = 0; l < p.line; l++) at = text.indexOf('\n', at) + 1;
  return at + p.character;
}

function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => offset(text, b.range.start) - offset(text, a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, offset(out, e.range.start)) + e.newText + out.slice(offset(out, e.range.end));
  return out;
}

/** Apply a workspace edit to the files on disk (text edits first, then renames); returns the files edited. */
function applyToDisk(edit: WorkspaceEdit): string[] {
  const files: string[] = [];
  const edited = (uri: string, edits: readonly TextEdit[]) => {
    const abs = fileURLToPath(uri);
    writeFileSync(abs, applyEdits(readFileSync(abs, 'utf8'), edits));
    files.push(abs);
  };
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) edited(uri, edits);
  const renames: [string, string][] = [];
  for (const c of edit.documentChanges ?? []) {
    if ('textDocument' in c) edited(c.textDocument.uri, c.edits as TextEdit[]);
    else if (c.kind === 'rename') renames.push([fileURLToPath(c.oldUri), fileURLToPath(c.newUri)]);
  }
  for (const [from, to] of renames) {
    mkdirSync(dirname(to), { recursive: true });
    renameSync(from, to);
  }
  return files;
}

const text = (h: { contents: unknown } | null) => (h === null ? '' : (h.contents as MarkupContent).value);

/** Where a string is written in a file: the protocol position of its first character (plus `within`). */
function find(abs: string, needle: string, within = 0): Position {
  const lines = readFileSync(abs, 'utf8').split('\n');
  const line = lines.findIndex((l) => l.includes(needle));
  if (line < 0) throw new Error(`${needle} not in ${abs}`);
  return { line, character: lines[line]!.indexOf(needle) + within };
}

describe('the language server, driven as an editor drives it', () => {
  let root: string;
  let client: LspClient;
  const overlay = new Map<string, string>();
  const tdd = () => join(root, 'skills', 'running-tdd-loops', 'LOOP.md');

  /** The server's diagnostics equal a fresh check with the editor's texts. */
  async function expectChecked(): Promise<void> {
    await client.settled();
    const want = await lint({ root, concurrency: 'off', overlay });
    expect(comparable(published(client, root))).toEqual(comparable(fromEngine(want.diagnostics)));
  }

  /** Write an unknown step verb into a LOOP.md on disk and tell the server; returns the text the file had. */
  async function unknownVerbOnDisk(abs: string): Promise<string> {
    const original = readFileSync(abs, 'utf8');
    writeFileSync(abs, original.replace(/^1\. /mu, '1. flurbish the widget, then '));
    await client.filesChanged([{ uri: uriOf(abs), type: FileChangeType.Changed }]);
    await expectChecked();
    expect(client.of(abs).length).toBeGreaterThan(0);
    return original;
  }

  /** The workspace edit the server proposes for a rename at a place of a file. */
  function renameAt(abs: string, position: Position, newName: string) {
    return client.connection.sendRequest(RenameRequest.type, { textDocument: { uri: uriOf(abs) }, position, newName });
  }

  async function edit(abs: string, next: string): Promise<void> {
    overlay.set(abs.slice(root.length + 1), next);
    await client.change(abs, next);
  }

  // a server of its own for each test, on a fresh copy of the project: one bug fails the tests of
  // what it breaks, not every test after it
  beforeEach(async () => {
    root = team();
    overlay.clear();
    client = await LspClient.start([root]);
  }, 120_000);
  afterEach(async () => {
    await client.stop();
  });

  it('the project the tests start from checks clean', async () => {
    expect((await run(['check', team()])).status).toBe(0);
  });

  it('registers for file watching and starts clean', async () => {
    await client.settled();
    expect(client.registrations).toContain('workspace/didChangeWatchedFiles');
    expect(published(client, root)).toEqual([]);
  });

  it('a change in one skill shows in the files it affects; undoing it clears them all', async () => {
    const loop = tdd();
    const original = readFileSync(loop, 'utf8');
    await client.open(loop);
    overlay.set('skills/running-tdd-loops/LOOP.md', original);
    // the developer hands the story to a state that nobody declares and nothing leaves
    await edit(loop, original.replace('transition in-dev → in-deskcheck', 'transition in-dev → in-limbo'));
    await expectChecked();
    const files = new Set(published(client, root).map((d) => d.path));
    expect(files.has('skills/running-tdd-loops/LOOP.md')).toBe(true);
    expect(files.size).toBeGreaterThan(1);
    await edit(loop, original);
    await expectChecked();
    expect(published(client, root)).toEqual([]);
  });

  it('diagnostics carry the rule page and the witness path', async () => {
    const loop = tdd();
    const original = readFileSync(loop, 'utf8');
    await edit(loop, original.replace('transition in-dev → in-deskcheck', 'transition in-dev → in-limbo'));
    await expectChecked();
    const all = [...client.diagnostics.values()].flat();
    expect(all.length).toBeGreaterThan(0);
    for (const d of all) expect(d.codeDescription?.href).toBe(uriOf(join(ROOT, 'docs', 'rules', `${String(d.code)}.md`)));
    // the dead end, with the run that reaches it: each step a place
    const dead = client.of(loop).find((d) => d.code === 'graph-dead-end')!;
    expect(dead.relatedInformation!.map((r) => r.message)).toEqual(['step 1: in-deskcheck → in-dev', 'step 2: in-dev → in-limbo']);
    expect(dead.relatedInformation![1]!.location).toEqual({
      uri: uriOf(loop),
      range: { start: { line: 27, character: 0 }, end: { line: 27, character: 0 } },
    });
    await edit(loop, original);
    await expectChecked();
  });

  it('follows the disk: a file changed, a skill folder renamed, then deleted, loses its diagnostics at once', async () => {
    const skill = join(root, 'skills', 'writing-stories', 'LOOP.md');
    const original = await unknownVerbOnDisk(skill);
    const moved = join(root, 'skills', 'writing-stories-old');
    renameSync(join(root, 'skills', 'writing-stories'), moved);
    await client.filesChanged([
      { uri: uriOf(join(root, 'skills', 'writing-stories')), type: FileChangeType.Deleted },
      { uri: uriOf(moved), type: FileChangeType.Created },
    ]);
    await expectChecked();
    expect(client.of(skill)).toEqual([]);
    renameSync(moved, join(root, 'skills', 'writing-stories'));
    writeFileSync(skill, original);
    await client.filesChanged([
      { uri: uriOf(moved), type: FileChangeType.Deleted },
      { uri: uriOf(join(root, 'skills', 'writing-stories')), type: FileChangeType.Created },
    ]);
    await expectChecked();
    expect(published(client, root)).toEqual([]);
  });

  it('applies .loopkit-baseline.json as check does, and follows it when it changes', async () => {
    const skill = join(root, 'skills', 'writing-stories', 'LOOP.md');
    const original = await unknownVerbOnDisk(skill);
    const baseline = join(root, '.loopkit-baseline.json');
    expect((await run(['check', root, '--update-baseline'])).status).toBe(0);
    await client.filesChanged([{ uri: uriOf(baseline), type: FileChangeType.Created }]);
    await client.settled();
    expect(client.of(skill)).toEqual([]);
    // rewritten in place (`check --update-baseline` while the server runs): no longer holding the problem
    const recorded = JSON.parse(readFileSync(baseline, 'utf8')) as { version: number; problems: unknown[] };
    writeFileSync(baseline, JSON.stringify({ ...recorded, problems: [] }));
    await client.filesChanged([{ uri: uriOf(baseline), type: FileChangeType.Changed }]);
    await expectChecked();
    expect(client.of(skill).length).toBeGreaterThan(0);
    writeFileSync(baseline, JSON.stringify(recorded));
    await client.filesChanged([{ uri: uriOf(baseline), type: FileChangeType.Changed }]);
    await client.settled();
    expect(client.of(skill)).toEqual([]);
    rmSync(baseline);
    await client.filesChanged([{ uri: uriOf(baseline), type: FileChangeType.Deleted }]);
    await expectChecked();
    expect(client.of(skill).length).toBeGreaterThan(0);
    writeFileSync(skill, original);
    await client.filesChanged([{ uri: uriOf(skill), type: FileChangeType.Changed }]);
    await expectChecked();
    expect(published(client, root)).toEqual([]);
  });

  it('goes to where a state is declared, a handoff skill, a link; finds every reference', async () => {
    const loop = tdd();
    const def = (abs: string, p: Position) =>
      client.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri: uriOf(abs) }, position: p }) as Promise<Location[]>;
    // the state: its row in the skill's own State Model
    const [state] = await def(loop, find(loop, 'in-dev → in-deskcheck', 10));
    const skillMd = join(root, 'skills', 'running-tdd-loops', 'SKILL.md');
    expect(state!.uri).toBe(uriOf(skillMd));
    const declared = readFileSync(skillMd, 'utf8').split('\n')[state!.range.start.line]!;
    expect(declared.slice(state!.range.start.character, state!.range.end.character)).toBe('in-deskcheck');
    // the skill a handoff names
    const [target] = await def(loop, find(loop, 'handoff running-desk-checks', 10));
    expect(target!.uri).toBe(uriOf(join(root, 'skills', 'running-desk-checks', 'SKILL.md')));
    // a link in SKILL.md
    const [linked] = await def(skillMd, find(skillMd, '(LOOP.md)', 1));
    expect(linked!.uri).toBe(uriOf(loop));
    // every place the contract names the state, in several files and .loopkit.yaml
    const refs = (await client.connection.sendRequest(ReferencesRequest.type, {
      textDocument: { uri: uriOf(loop) },
      position: find(loop, 'in-dev → in-deskcheck', 10),
      context: { includeDeclaration: true },
    })) as Location[];
    const files = new Set(refs.map((r) => r.uri));
    expect(files.has(uriOf(join(root, '.loopkit.yaml')))).toBe(true);
    expect(files.size).toBeGreaterThanOrEqual(4);
    for (const r of refs) {
      const line = readFileSync(fileURLToPath(r.uri), 'utf8').split('\n')[r.range.start.line]!;
      expect(line.slice(r.range.start.character, r.range.end.character)).toBe('in-deskcheck');
    }
  });

  it('lists sections and transitions of a LOOP.md, skills and states of the workspace', async () => {
    const symbols = (await client.connection.sendRequest(DocumentSymbolRequest.type, {
      textDocument: { uri: uriOf(tdd()) },
    })) as DocumentSymbol[];
    expect(symbols.map((s) => s.name)).toEqual(DEFAULT_LOOP_SECTIONS);
    const rule = symbols.find((s) => s.name === 'State Transition Rule')!;
    expect(rule.children!.map((c) => c.name)).toEqual(['in-dev → in-deskcheck', 'in-dev → halted-stall']);
    expect(rule.children![0]!.detail).toContain('handoff running-desk-checks to qa-agent');
    const found = (await client.connection.sendRequest(WorkspaceSymbolRequest.type, { query: 'deskcheck' })) as { name: string }[];
    expect(found.map((s) => s.name)).toEqual(expect.arrayContaining(['running-desk-checks', 'in-deskcheck']));
  });

  it('hovers: a state with its transitions in and out, a skill with its description, a rule code, a frontmatter key', async () => {
    const loop = tdd();
    const hover = (abs: string, p: Position) =>
      client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: uriOf(abs) }, position: p });
    const state = text(await hover(loop, find(loop, 'in-dev → in-deskcheck', 10)));
    expect(state).toContain('**state** `in-deskcheck`');
    expect(state).toContain('enforced, agent `qa-agent`');
    expect(state).toContain('**From here** a run may go:');
    expect(state).toContain('**Into here**');
    const skill = text(await hover(loop, find(loop, 'handoff running-desk-checks', 10)));
    expect(skill).toContain('**skill** `running-desk-checks`');
    const desk = join(root, 'skills', 'running-desk-checks', 'SKILL.md');
    expect(skill).toContain(/^description: (.*)$/mu.exec(readFileSync(desk, 'utf8'))![1]!.slice(0, 30));
    const key = text(await hover(desk, { line: 2, character: 3 }));
    expect(key).toContain('**description** (Agent Skills)');
    // a rule code in a suppression comment being written
    const withComment = `<!-- loopkit-disable-next-line loop-nonstandard-verb -- a domain verb -->\n${readFileSync(loop, 'utf8')}`;
    await edit(loop, withComment);
    const code = text(await hover(loop, { line: 0, character: 40 }));
    expect(code).toContain('**rule** `loop-nonstandard-verb`');
    expect(code).toContain('docs/rules/loop-nonstandard-verb.md');
    await edit(loop, withComment.slice(withComment.indexOf('\n') + 1));
    await expectChecked();
  });

  it('completes states and the arrow after transition, skills after handoff, agents, halt reasons, step verbs, frontmatter keys, rule codes', async () => {
    const loop = tdd();
    const original = readFileSync(loop, 'utf8');
    const complete = async (abs: string, lineText: string, character = lineText.length) => {
      const current = overlay.get(abs.slice(root.length + 1)) ?? readFileSync(abs, 'utf8');
      const next = `${current}\n${lineText}`;
      await edit(abs, next);
      const line = next.split('\n').length - 1;
      const r = (await client.connection.sendRequest(CompletionRequest.type, {
        textDocument: { uri: uriOf(abs) },
        position: { line, character },
      })) as CompletionItem[] | null;
      await edit(abs, current);
      return (r ?? []).map((i) => i.label);
    };
    expect(await complete(loop, 'transition ')).toEqual(expect.arrayContaining(['in-dev', 'in-deskcheck', 'done', 'halted-stall']));
    expect(await complete(loop, 'transition in-qa ')).toEqual(['→', '->']);
    expect(await complete(loop, 'transition in-qa → in-')).toEqual(expect.arrayContaining(['in-acceptance', 'in-dev']));
    expect(await complete(loop, 'handoff ')).toEqual(expect.arrayContaining(['running-desk-checks', 'accepting-stories', 'done']));
    expect(await complete(loop, 'handoff verifying-stories to ')).toEqual(
      expect.arrayContaining(['qa-agent', 'po-agent', 'developer-agent']),
    );
    expect(await complete(loop, 'halt ')).toEqual(expect.arrayContaining(['stall', 'ambiguous', 'human-gate']));
    expect(await complete(loop, '7. ')).toEqual(expect.arrayContaining(['trigger', 'refactor', 'commit']));
    expect(await complete(loop, 'tr')).toEqual(['transition', 'trigger']);
    expect(await complete(loop, '<!-- loopkit-disable-next-line loop-non')).toContain('loop-nonstandard-verb');
    const skillMd = join(root, 'skills', 'running-tdd-loops', 'SKILL.md');
    const fm = readFileSync(skillMd, 'utf8');
    overlay.set('skills/running-tdd-loops/SKILL.md', fm);
    await client.open(skillMd);
    await edit(skillMd, fm.replace('metadata:', 'lic\nmetadata:'));
    const keys = (await client.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: uriOf(skillMd) },
      position: { line: 3, character: 3 },
    })) as CompletionItem[];
    expect(keys.map((k) => k.label)).toEqual(expect.arrayContaining(['license', 'allowed-tools', 'compatibility']));
    expect((keys.find((k) => k.label === 'license')!.documentation as MarkupContent).value).toContain('license');
    await edit(skillMd, fm);
    await client.close(skillMd);
    overlay.delete('skills/running-tdd-loops/SKILL.md');
    await edit(loop, original);
    await expectChecked();
  });

  it('quick fixes: the --fix repair, "did you mean", and a suppression comment with a place for the reason', async () => {
    const loop = tdd();
    const original = readFileSync(loop, 'utf8');
    const actions = async (abs: string, line: number) => {
      await client.settled();
      const diagnostics = client.of(abs).filter((d) => d.range.start.line === line);
      return (await client.connection.sendRequest(CodeActionRequest.type, {
        textDocument: { uri: uriOf(abs) },
        range: { start: { line, character: 0 }, end: { line, character: 0 } },
        context: { diagnostics },
      })) as CodeAction[];
    };
    const take = async (abs: string, action: CodeAction) => {
      const edits = action.edit!.changes![uriOf(abs)]!;
      await edit(abs, applyEdits(overlay.get(abs.slice(root.length + 1))!, edits));
      await expectChecked();
    };

    // sections out of order: --fix moves them
    const swapped = original
      .replace('## Proof of Progress', '## Proof-of-Progress-tmp')
      .replace('## Single Iteration Step', '## Proof of Progress')
      .replace('## Proof-of-Progress-tmp', '## Single Iteration Step');
    await edit(loop, swapped);
    await expectChecked();
    const order = client.of(loop).find((d) => d.code === 'loop-section-order' || d.code === 'loop-missing-section');
    expect(order).toBeDefined();
    const fix = (await actions(loop, order!.range.start.line)).find((a) => a.title.startsWith('Fix:'));
    expect(fix?.isPreferred).toBe(true);
    await take(loop, fix!);
    expect(client.of(loop).filter((d) => d.code === 'loop-section-order')).toEqual([]);
    await edit(loop, original);

    // a misspelt handoff target: the message's suggestion replaces it
    await edit(
      loop,
      original.replace('handoff running-desk-checks to qa-agent\n\ntransition', 'handoff running-desk-check to qa-agent\n\ntransition'),
    );
    await expectChecked();
    const unknown = client.of(loop).find((d) => d.code === 'constraints-unknown-handoff-target')!;
    const change = (await actions(loop, unknown.range.start.line)).find((a) => a.title === "Change to 'running-desk-checks'");
    expect(change).toBeDefined();
    await take(loop, change!);
    expect(published(client, root)).toEqual([]);

    // an unknown step verb: silenced on its line, the reason left to write
    await edit(loop, original.replace('6. Commit.', '6. Flurbish the widget.'));
    await expectChecked();
    const verb = client.of(loop).find((d) => d.code === 'loop-nonstandard-verb')!;
    const disable = (await actions(loop, verb.range.start.line)).find((a) => a.title === 'Disable loop-nonstandard-verb for this line')!;
    await take(loop, disable);
    expect(overlay.get('skills/running-tdd-loops/LOOP.md')).toContain(
      '<!-- loopkit-disable-next-line loop-nonstandard-verb -- <reason> -->',
    );
    expect(client.of(loop)).toEqual([]);
    // … or in the whole file
    await edit(loop, original.replace('6. Commit.', '6. Flurbish the widget.'));
    await expectChecked();
    const again = client.of(loop).find((d) => d.code === 'loop-nonstandard-verb')!;
    const whole = (await actions(loop, again.range.start.line)).find((a) => a.title === 'Disable loop-nonstandard-verb for this file')!;
    await take(loop, whole);
    expect(overlay.get('skills/running-tdd-loops/LOOP.md')!.split('\n')[0]).toBe(
      '<!-- loopkit-disable loop-nonstandard-verb -- <reason> -->',
    );
    expect(client.of(loop)).toEqual([]);
    await edit(loop, original);
    await expectChecked();
  });

  it('refuses a rename that breaks a rule or takes a name in use, and says why', async () => {
    const loop = tdd();
    const position = find(loop, 'in-dev → in-deskcheck', 10);
    const prepared = await client.connection.sendRequest(PrepareRenameRequest.type, { textDocument: { uri: uriOf(loop) }, position });
    expect(prepared).toMatchObject({ placeholder: 'in-deskcheck' });
    const refused = (newName: string, at = position) =>
      client.connection.sendRequest(RenameRequest.type, { textDocument: { uri: uriOf(loop) }, position: at, newName }).then(
        () => 'accepted',
        (e: Error) => e.message,
      );
    expect(await refused('In-Desk')).toContain('upper-case');
    expect(await refused('in-qa')).toContain("'in-qa' is already a state");
    const skillAt = find(loop, 'handoff running-desk-checks', 10);
    expect(await refused('desk-checker', skillAt)).toContain('gerund');
    expect(await refused('writing-stories', skillAt)).toContain('already a skill');
    // a folder of that name next to the skill's, that is no skill: the folder cannot move there
    mkdirSync(join(root, 'skills', 'reviewing-desk-checks'));
    writeFileSync(join(root, 'skills', 'reviewing-desk-checks', 'notes.md'), '# Notes\n');
    expect(await refused('reviewing-desk-checks', skillAt)).toBe(
      "A folder named 'reviewing-desk-checks' already exists next to 'skills/running-desk-checks'.",
    );
  });

  it('renames a state across every LOOP.md, SKILL.md and .loopkit.yaml: the project checks as before', async () => {
    const loop = tdd();
    await client.close(loop);
    overlay.clear();
    const edit = await renameAt(loop, find(loop, 'in-dev → in-deskcheck', 10), 'in-desk-review');
    const before = filesOf(root).filter((f) => /\bin-deskcheck\b/u.test(readFileSync(join(root, f), 'utf8')));
    const files = applyToDisk(edit!);
    // every file that names the state, and only those
    expect(files.map((f) => f.slice(root.length + 1)).sort()).toEqual(before);
    expect(before).toEqual([
      '.loopkit.yaml',
      'skills/running-desk-checks/LOOP.md',
      'skills/running-desk-checks/SKILL.md',
      'skills/running-tdd-loops/LOOP.md',
      'skills/running-tdd-loops/SKILL.md',
    ]);
    // the old name is gone from every file of the project, not only from those edited
    expect(filesOf(root).filter((f) => /\bin-deskcheck\b/u.test(readFileSync(join(root, f), 'utf8')))).toEqual([]);
    const r = await run(['check', root]);
    expect(r.stdout).toMatch(/^PASS/mu);
    await client.filesChanged(files.map((f) => ({ uri: uriOf(f), type: FileChangeType.Changed })));
    await expectChecked();
  });

  it('renames a skill: its name, its folder, every handoff and README entry', async () => {
    const loop = tdd();
    const edit = await renameAt(loop, find(loop, 'handoff running-desk-checks', 10), 'reviewing-desk-checks');
    const moves = (edit!.documentChanges ?? []).filter((c) => 'kind' in c && c.kind === 'rename');
    expect(moves).toEqual([
      {
        kind: 'rename',
        oldUri: uriOf(join(root, 'skills', 'running-desk-checks')),
        newUri: uriOf(join(root, 'skills', 'reviewing-desk-checks')),
      },
    ]);
    const files = applyToDisk(edit!).map((f) => f.slice(root.length + 1));
    expect(files).toEqual(expect.arrayContaining(['README.md', 'skills/running-tdd-loops/LOOP.md', 'skills/running-desk-checks/SKILL.md']));
    expect(existsSync(join(root, 'skills', 'reviewing-desk-checks', 'SKILL.md'))).toBe(true);
    expect((await run(['check', root])).stdout).toMatch(/^PASS/mu);
    await client.filesChanged([
      { uri: uriOf(join(root, 'skills', 'running-desk-checks')), type: FileChangeType.Deleted },
      { uri: uriOf(join(root, 'skills', 'reviewing-desk-checks')), type: FileChangeType.Created },
      ...files.map((f) => ({ uri: uriOf(join(root, f)), type: FileChangeType.Changed as FileChangeType })),
    ]);
    await expectChecked();
  });

  it('renames a halt reason in every halt and in halt_reasons', async () => {
    const loop = tdd();
    const edit = await renameAt(loop, find(loop, 'halt stall', 6), 'no-progress');
    applyToDisk(edit!);
    expect(readFileSync(join(root, '.loopkit.yaml'), 'utf8')).toMatch(/^ {2}- no-progress$/mu);
    expect(readFileSync(loop, 'utf8')).toContain('halt no-progress after 10 iterations');
    expect((await run(['check', root])).stdout).toMatch(/^PASS/mu);
  });

  it('a broken .loopkit.yaml in the editor shows in that file; mending it brings the project back', async () => {
    const config = join(root, '.loopkit.yaml');
    const original = readFileSync(config, 'utf8');
    await client.filesChanged([{ uri: uriOf(config), type: FileChangeType.Changed }]);
    await client.open(config);
    await client.change(config, original.replace('max_iterations: 20', 'max_iterations: -3'));
    await client.settled();
    const shown = client.of(config);
    expect(shown).toHaveLength(1);
    expect(shown[0]!.message).toContain('max_iterations');
    expect(shown[0]!.range.start.line).toBe(original.split('\n').findIndex((l) => l.startsWith('max_iterations')));
    await client.change(config, original);
    await client.settled();
    expect(client.of(config)).toEqual([]);
    await client.close(config);
  });

  it('a broken buffer — half-typed frontmatter, an unclosed fence, a 5 MB paste — gets what check says, and the server keeps answering', async () => {
    overlay.clear();
    const skillMd = join(root, 'skills', 'writing-stories', 'SKILL.md');
    const loop = join(root, 'skills', 'writing-stories', 'LOOP.md');
    const skillText = readFileSync(skillMd, 'utf8');
    const loopText = readFileSync(loop, 'utf8');
    await client.open(skillMd);
    await client.open(loop);
    for (const [abs, next] of [
      [skillMd, '---\nname: writing-st'],
      [loop, `${loopText}\n\`\`\`yaml\ntransition in-dev → in-qa\n`],
      [loop, `${loopText}\n${'The agent reads the story, **checks** the `criteria` and [links](x.md) it.\n'.repeat(70_000)}`],
    ] as const) {
      await edit(abs, next);
      await expectChecked();
      // the server keeps answering: a hover on a state of another skill tells its transitions
      const hover = await client.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri: uriOf(tdd()) },
        position: find(tdd(), 'in-dev → in-deskcheck', 10),
      });
      expect(text(hover)).toContain('in-deskcheck');
    }
    await edit(skillMd, skillText);
    await edit(loop, loopText);
    await expectChecked();
    expect(client.process.exitCode).toBeNull();
  });
});

describe('a client that does not watch files', () => {
  it('the server watches the project itself: a file changed, a skill added and removed on disk show at once', async () => {
    const root = team();
    const client = await LspClient.start([root], { watches: false });
    try {
      await client.settled();
      expect(client.registrations).not.toContain('workspace/didChangeWatchedFiles');
      const loop = join(root, 'skills', 'writing-stories', 'LOOP.md');
      writeFileSync(loop, readFileSync(loop, 'utf8').replace(/^1\. /mu, '1. flurbish the widget, then '));
      await client.until(() => client.of(loop).some((d) => d.code === 'loop-nonstandard-verb'), 'the problem of a file changed on disk');
      const extra = join(root, 'skills', 'writing-notes');
      mkdirSync(extra);
      writeFileSync(join(extra, 'SKILL.md'), '---\nname: writing-notes\ndescription: Writes notes.\n---\n');
      await client.until(() => client.of(join(extra, 'SKILL.md')).length > 0, 'the problems of a skill created on disk');
      rmSync(extra, { recursive: true });
      await client.until(() => client.of(join(extra, 'SKILL.md')).length === 0, 'no problems for a skill deleted on disk');
      // the project's root is watched too: its .loopkit.yaml broken and mended on disk
      const config = join(root, '.loopkit.yaml');
      const original = readFileSync(config, 'utf8');
      writeFileSync(config, original.replace('max_iterations: 20', 'max_iterations: -3'));
      await client.until(
        () => client.of(config).some((d) => typeof d.message === 'string' && d.message.includes('max_iterations')),
        'the problem of .loopkit.yaml changed on disk',
      );
      writeFileSync(config, original);
      await client.until(() => client.of(config).length === 0, 'no problem once .loopkit.yaml is mended');
    } finally {
      await client.stop();
    }
  });
});

describe('a project inside the workspace folder', () => {
  it('a file opened in it brings in its project (the nearest .loopkit.yaml above it, as check <file> finds it)', async () => {
    const root = team();
    const sub = join(root, 'tools', 'agent');
    cpSync(join(ROOT, 'fixtures', 'projects', 'with-errors'), sub, { recursive: true });
    const client = await LspClient.start([root]);
    try {
      await client.settled();
      expect(published(client, sub)).toEqual([]);
      const loop = join(sub, 'skills', 'running-a', 'LOOP.md');
      await client.open(loop);
      await client.settled();
      const want = await lint({ root: sub, concurrency: 'off' });
      expect(comparable(published(client, sub))).toEqual(comparable(fromEngine(want.diagnostics)));
      expect(client.of(loop).length).toBeGreaterThan(0);
    } finally {
      await client.stop();
    }
  });
});

describe('a repository that is one skill (SKILL.md at the root)', () => {
  it('shows its problems, goes to its links (from the skill folder too), and renames it without moving a folder', async () => {
    const root = temps.dir('loopkit-lsp-one-');
    cpSync(join(ROOT, 'fixtures', 'projects', 'single-skill-errors'), root, { recursive: true });
    // a reference file that writes its link from the skill's folder (the root), as the specification does
    writeFileSync(join(root, 'references', 'steps.md'), '# Steps\n\nThe kinds are in [references/fields.md](references/fields.md).\n');
    writeFileSync(join(root, 'SKILL.md'), `${readFileSync(join(root, 'SKILL.md'), 'utf8')}4. Follow [the steps](references/steps.md).\n`);
    const client = await LspClient.start([root]);
    try {
      await client.settled();
      const want = await lint({ root, concurrency: 'off' });
      expect(comparable(published(client, root))).toEqual(comparable(fromEngine(want.diagnostics)));
      const skillMd = join(root, 'SKILL.md');
      expect(client.of(skillMd).map((d) => d.code)).toEqual(expect.arrayContaining(['skill-name-invalid-chars', 'skill-broken-link']));
      const def = (abs: string, p: Position) =>
        client.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri: uriOf(abs) }, position: p }) as Promise<Location[]>;
      const fields = uriOf(join(root, 'references', 'fields.md'));
      expect((await def(skillMd, find(skillMd, '(references/fields.md)', 1))).map((l) => l.uri)).toEqual([fields]);
      const steps = join(root, 'references', 'steps.md');
      expect((await def(steps, find(steps, '(references/fields.md)', 1))).map((l) => l.uri)).toEqual([fields]);
      // the name is the skill's own: renaming it edits SKILL.md and moves no folder (the root is the checkout's)
      const edit = await client.connection.sendRequest(RenameRequest.type, {
        textDocument: { uri: uriOf(skillMd) },
        position: find(skillMd, 'Filling PDF Forms', 1),
        newName: 'filling-pdf-forms',
      });
      // the client takes documentChanges (with folder renames): the answer is in that form, edits of SKILL.md only
      expect(edit!.changes).toBeUndefined();
      const changes = edit!.documentChanges!;
      expect(changes.filter((c) => 'kind' in c)).toEqual([]);
      expect(changes.map((c) => ('textDocument' in c ? c.textDocument.uri : c.kind))).toEqual([uriOf(skillMd)]);
      expect(applyToDisk(edit!)).toEqual([skillMd]);
      expect(readFileSync(skillMd, 'utf8')).toMatch(/^name: filling-pdf-forms$/mu);
    } finally {
      await client.stop();
    }
  });
});
