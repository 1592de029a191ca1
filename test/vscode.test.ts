/**
 * The VS Code extension (editors/vscode): `npm run package:vscode` builds a .vsix with @vscode/vsce;
 * the package holds the bundled extension, its manifest and loopkit's server with the rule pages,
 * and that server, unpacked, answers an editor. Which loopkit the extension runs is chosen by
 * editors/vscode/src/server.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseServer } from '../editors/vscode/src/server.js';
import { rules } from '../src/rules/index.js';
import { VERSION } from '../src/version.js';
import { PROJECTS, ROOT, Temps } from './helpers/cli.js';
import { LspClient, uriOf } from './helpers/lsp.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

/** The entries of a zip file (a .vsix is one): name → content. */
function unzip(file: string): Map<string, Buffer> {
  const zip = readFileSync(file);
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const data = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(data, data + size);
    out.set(name, method === 8 ? inflateRawSync(raw) : Buffer.from(raw));
    at += 46 + nameLength + skip;
  }
  return out;
}

describe('which loopkit the extension runs', () => {
  const bundled = '/ext/server/bin/loopkit.js';
  it('the setting first: a script as a module, a program as a command', () => {
    expect(chooseServer('tools/loopkit.js', ['/ws'], bundled, (p) => p === '/ws/tools/loopkit.js')).toMatchObject({
      kind: 'module',
      module: '/ws/tools/loopkit.js',
    });
    expect(chooseServer('loopkit', ['/ws'], bundled, () => true)).toMatchObject({ kind: 'command', command: 'loopkit' });
  });
  it("then the workspace's own installation, then the bundled server", () => {
    const installed = join('/ws', 'node_modules', 'loopkit', 'bin', 'loopkit.js');
    expect(chooseServer(null, ['/other', '/ws'], bundled, (p) => p === installed)).toMatchObject({ kind: 'module', module: installed });
    expect(chooseServer('  ', ['/ws'], bundled, () => false)).toMatchObject({ kind: 'module', module: bundled });
  });
});

describe('the .vsix', () => {
  let entries: Map<string, Buffer>;
  let unpacked: string;

  beforeAll(() => {
    const out = temps.dir('loopkit-vsix-');
    const r = spawnSync('npm', ['run', '--silent', 'package:vscode', '--', '--out', out], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const vsix = r.stdout.trim().split('\n').pop()!;
    expect(vsix).toBe(join(out, `loopkit-vscode-${VERSION}.vsix`));
    entries = unzip(vsix);
    unpacked = temps.dir('loopkit-vsix-unpacked-');
    for (const [name, data] of entries) {
      if (!name.startsWith('extension/')) continue;
      const abs = join(unpacked, name);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, data);
    }
  }, 300_000);

  it('holds the bundled extension, its manifest, and the server with every rule page', () => {
    const manifest = JSON.parse(entries.get('extension/package.json')!.toString()) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: 'loopkit-vscode',
      version: VERSION,
      main: './dist/extension.js',
      engines: { vscode: expect.any(String) },
    });
    expect(entries.get('extension.vsixmanifest')!.toString()).toContain(`Version="${VERSION}"`);
    const extension = entries.get('extension/dist/extension.js')!.toString();
    // vscode-languageclient is inside; only the editor's own `vscode` module is left to require
    expect(extension).toContain('require("vscode")');
    expect(extension).not.toMatch(/require\("vscode-languageclient/u);
    for (const f of [
      'server/bin/loopkit.js',
      'server/dist/cli.js',
      'server/dist/worker.js',
      'server/dist/version.js',
      'server/package.json',
      'server/schema/loopkit.schema.json',
    ]) {
      expect(entries.has(`extension/${f}`), f).toBe(true);
    }
    for (const r of rules) expect(entries.has(`extension/server/docs/rules/${r.meta.code}.md`), r.meta.code).toBe(true);
    // not the sources, the tests, maps or the library bundle
    const names = [...entries.keys()];
    expect(names.filter((n) => /(?:^|\/)(?:src|test|node_modules)\/|\.map$|\.ts$/u.test(n))).toEqual([]);
  });

  it('its server, unpacked, answers an editor: diagnostics with rule pages from the package', async () => {
    const project = join(PROJECTS, 'with-errors');
    const client = await LspClient.start([project], { bin: join(unpacked, 'extension', 'server', 'bin', 'loopkit.js') });
    try {
      await client.settled();
      const loop = client.of(join(project, 'skills', 'running-a', 'LOOP.md'));
      expect(loop.length).toBeGreaterThan(0);
      for (const d of loop) {
        const page = fileURLToPath(d.codeDescription!.href);
        expect(page).toBe(join(unpacked, 'extension', 'server', 'docs', 'rules', `${String(d.code)}.md`));
        expect(readFileSync(page, 'utf8')).toContain(String(d.code));
      }
      expect(uriOf(project)).toMatch(/^file:/u);
    } finally {
      await client.stop();
    }
  });
});
