/**
 * `loopkit lsp` attacked through the protocol (test/helpers/lsp.ts, the server in its own process):
 * every request that names a file, and every document opened, outside the workspace folder — by
 * path, `..`, a link that leads out, /proc/self/environ, another project beside it — or naming what
 * is no file to read (a FIFO, /dev/zero, a link loop, a 1 GiB sparse file, control characters) is
 * answered with nothing and checks nothing; no answer or publication carries the secret beside the
 * project or the server's environment; the project's own files are checked as `check` checks them.
 * Then a property test of random edits (half-written files) and random requests. And the VS Code
 * extension never runs a program an untrusted workspace ships.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CodeActionRequest,
  CompletionRequest,
  DefinitionRequest,
  DocumentHighlightRequest,
  DocumentSymbolRequest,
  HoverRequest,
  PrepareRenameRequest,
  ReferencesRequest,
  RenameRequest,
  WorkspaceSymbolRequest,
} from 'vscode-languageserver-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseServer } from '../editors/vscode/src/server.js';
import { lint } from '../src/api/engine.js';
import { attackLayout, ENV_NAME, ENV_SECRET, noLeak, SECRET, type Attack } from './helpers/attack.js';
import { Temps } from './helpers/cli.js';
import { comparable, fromEngine, LspClient, published, uriOf } from './helpers/lsp.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

/** Every request that names a document, asked about `uri` at `line`:`character`; the answers. */
async function askAll(client: LspClient, uri: string, line = 0, character = 0): Promise<unknown[]> {
  const textDocument = { uri };
  const position = { line, character };
  const c = client.connection;
  const swallow = (p: Promise<unknown>) => p.catch((e: Error) => ({ error: e.message }));
  return Promise.all([
    swallow(c.sendRequest(HoverRequest.type, { textDocument, position })),
    swallow(c.sendRequest(DefinitionRequest.type, { textDocument, position })),
    swallow(c.sendRequest(ReferencesRequest.type, { textDocument, position, context: { includeDeclaration: true } })),
    swallow(c.sendRequest(DocumentHighlightRequest.type, { textDocument, position })),
    swallow(c.sendRequest(DocumentSymbolRequest.type, { textDocument })),
    swallow(c.sendRequest(CompletionRequest.type, { textDocument, position })),
    swallow(
      c.sendRequest(CodeActionRequest.type, { textDocument, range: { start: position, end: position }, context: { diagnostics: [] } }),
    ),
    swallow(c.sendRequest(PrepareRenameRequest.type, { textDocument, position })),
    swallow(c.sendRequest(RenameRequest.type, { textDocument, position, newName: 'renamed-by-attacker' })),
  ]);
}

describe('the language server answers nothing about a file outside the workspace, and reads nothing of it', () => {
  let attack: Attack;
  let client: LspClient;
  const seen: string[] = [];

  beforeAll(async () => {
    attack = attackLayout(temps, { skillLink: true });
    client = await LspClient.start([attack.project], { env: { [ENV_NAME]: ENV_SECRET } });
    await client.settled();
    return () => client.stop();
  });

  it('every request about a path outside, `..`, a link out, /proc/self/environ, a FIFO, /dev/zero, a loop, 1 GiB, control characters: nothing', async () => {
    const uris: Record<string, string> = {};
    for (const [name, given] of Object.entries(attack.paths)) {
      if (name === 'NUL character' || name === 'directory') continue;
      uris[name] = given.startsWith('/') ? uriOf(given) : uriOf(join(attack.project, given));
    }
    // `..` written into the URI itself
    uris['dot-dot in the URI'] = `${pathToFileURL(attack.project).href}/../secret.json`;
    uris['the neighbour project'] = uriOf(join(attack.neighbour, 'skills', 'running-a', 'LOOP.md'));
    for (const [name, uri] of Object.entries(uris)) {
      const answers = await askAll(client, uri, 1, 3);
      seen.push(JSON.stringify(answers));
      // nothing but "no answer"; the 1 GiB file is the project's, never read: answered as an empty document (a rename there is refused)
      const none = (a: unknown) => a === null || (Array.isArray(a) && a.length === 0);
      const empty = (a: unknown) =>
        none(a) || (a as { error?: string }).error === 'Only a state, a skill, an agent or a halt reason can be renamed here.';
      for (const a of answers) expect((name === '1 GiB sparse file' ? empty : none)(a), `${name}: ${JSON.stringify(a)}`).toBe(true);
    }
    await client.settled();
    expect([...client.diagnostics.keys()].filter((u) => Object.values(uris).includes(u))).toEqual([]);
  });

  it('documents opened outside the workspace — the secret, a link out, another project — are not checked', async () => {
    const secretText = readFileSync(attack.secret, 'utf8');
    await client.open(attack.secret, secretText);
    await client.open(join(attack.project, 'leak.json'), secretText);
    const loop = join(attack.neighbour, 'skills', 'running-a', 'LOOP.md');
    await client.open(loop);
    await client.change(loop, `${readFileSync(loop, 'utf8')}\ntransition ${SECRET} → nowhere\n`);
    await client.open('/etc/passwd', `root:x:0:0:${SECRET}\n`);
    await client.settled();
    const outside = [...client.diagnostics.keys()].filter((u) => !u.startsWith(pathToFileURL(attack.project).href + '/'));
    expect(outside).toEqual([]);
    expect(client.publications.filter((p) => p.uri.includes('leak.json'))).toEqual([]);
  });

  it("the project's own files are checked as check checks them: the SKILL.md that leads out is a read error, nothing of it quoted", async () => {
    const want = await lint({ root: attack.project, concurrency: 'off' });
    expect(comparable(published(client, attack.project))).toEqual(comparable(fromEngine(want.diagnostics)));
    const skill = client.of(join(attack.project, 'skills', 'leaking-secrets', 'SKILL.md'));
    expect(skill.map((d) => [d.code, String(d.message).split('\n')[0]])).toEqual([
      [
        'skill-read-error',
        'Failed to read skills/leaking-secrets/SKILL.md: Is a symbolic link that leads outside the project (or nowhere)',
      ],
    ]);
    // its requests answer for the project's files only
    const answers = await askAll(client, uriOf(join(attack.project, 'skills', 'controlling-loops', 'LOOP.md')), 10, 3);
    seen.push(JSON.stringify(answers));
    const symbols = (await client.connection.sendRequest(WorkspaceSymbolRequest.type, { query: '' })) as { location: { uri: string } }[];
    expect(symbols.length).toBeGreaterThan(0);
    for (const s of symbols) expect(s.location.uri.startsWith(pathToFileURL(attack.project).href + '/')).toBe(true);
  });

  it('nothing the server sent carried the secret or the environment', () => {
    for (const s of seen) noLeak(s);
    for (const p of client.publications) noLeak(JSON.stringify(p), p.uri);
    for (const m of client.messages) noLeak(m);
    noLeak(client.stderr, 'stderr');
  });
});

describe('random edits and random requests (property test)', () => {
  it('the server never crashes, never answers with the secret, and answers the next request; half-written files included', async () => {
    const attack = attackLayout(temps, { skillLink: true });
    const client = await LspClient.start([attack.project], { env: { [ENV_NAME]: ENV_SECRET } });
    try {
      await client.settled();
      const loop = join(attack.project, 'skills', 'controlling-loops', 'LOOP.md');
      const skillMd = join(attack.project, 'skills', 'controlling-loops', 'SKILL.md');
      const texts = new Map([loop, skillMd].map((f) => [f, readFileSync(f, 'utf8')]));
      const files = [...texts.keys()];
      const pool = [
        ...files.map(uriOf),
        uriOf(attack.secret),
        uriOf(join(attack.project, 'leak.json')),
        uriOf(join(attack.project, 'leak.md')),
        uriOf('/proc/self/environ'),
        uriOf(join(attack.project, 'fifo.json')),
        uriOf(join(attack.project, 'big.json')),
        uriOf(join(attack.neighbour, 'skills', 'running-a', 'LOOP.md')),
        'untitled:Untitled-1',
      ];
      const edit = fc.record({
        kind: fc.constant('edit' as const),
        file: fc.constantFrom(...files),
        at: fc.nat(),
        cut: fc.nat({ max: 400 }),
        insert: fc.oneof(
          fc.string({ maxLength: 30 }),
          fc.constantFrom(
            'transition a → ',
            '---\nname: ',
            '```',
            '| field |',
            `[x](../../../secret.json)`,
            `[y](${attack.secret})`,
            '\u0000',
          ),
        ),
      });
      const request = fc.record({
        kind: fc.constant('request' as const),
        uri: fc.constantFrom(...pool),
        line: fc.nat({ max: 200 }),
        character: fc.nat({ max: 80 }),
      });
      const seen: string[] = [];
      await fc.assert(
        fc.asyncProperty(fc.array(fc.oneof(edit, request), { minLength: 1, maxLength: 5 }), async (actions) => {
          for (const a of actions) {
            if (a.kind === 'edit') {
              const before = texts.get(a.file)!;
              const at = a.at % (before.length + 1);
              const next = before.slice(0, at) + a.insert + before.slice(at + a.cut);
              texts.set(a.file, next);
              await client.change(a.file, next);
            } else {
              seen.push(JSON.stringify(await askAll(client, a.uri, a.line, a.character)));
            }
          }
          // the server is alive and answers for the project's files
          await client.settled();
          const symbols = await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: uriOf(loop) } });
          expect(Array.isArray(symbols)).toBe(true);
          for (const s of seen.splice(0)) noLeak(s);
          for (const p of client.publications.splice(0)) noLeak(JSON.stringify(p), p.uri);
        }),
        { seed: 250_725, numRuns: 100, endOnFailure: true },
      );
      expect(client.process.exitCode).toBeNull();
      noLeak(client.stderr, 'stderr');
    } finally {
      await client.stop();
    }
  });
});

describe('the VS Code extension in a workspace that is not trusted', () => {
  it("runs the bundled server: never the workspace's node_modules/loopkit, never a loopkit.path", () => {
    const bundled = '/ext/server/bin/loopkit.js';
    const installed = join('/ws', 'node_modules', 'loopkit', 'bin', 'loopkit.js');
    expect(chooseServer(null, ['/ws'], bundled, (p) => p === installed, false)).toMatchObject({ kind: 'module', module: bundled });
    expect(chooseServer('tools/evil.js', ['/ws'], bundled, () => true, false)).toMatchObject({ kind: 'module', module: bundled });
    expect(chooseServer('/usr/bin/evil', ['/ws'], bundled, () => true, false)).toMatchObject({ kind: 'module', module: bundled });
    // trusted, the workspace's own loopkit runs (as before)
    expect(chooseServer(null, ['/ws'], bundled, (p) => p === installed, true)).toMatchObject({ module: installed });
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'editors', 'vscode', 'package.json'), 'utf8')) as {
      capabilities: { untrustedWorkspaces: { supported: string; restrictedConfigurations: string[] } };
    };
    expect(manifest.capabilities.untrustedWorkspaces).toMatchObject({ supported: 'limited', restrictedConfigurations: ['loopkit.path'] });
  });
});
