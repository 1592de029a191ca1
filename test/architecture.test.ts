/**
 * The layers, as the source imports them: the engine is handed its rules and imports none; the
 * command line (commands/), the language server (lsp/) and the MCP server (mcp/) are front ends side
 * by side over the API layer (api/), and none reaches into another. Static and dynamic imports both.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every module a source file imports, as a path relative to src/ (`engine/run.ts`), relative imports only. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)['"](\.{1,2}\/[^'"]+)['"]/gmu)) {
    out.push(relative(SRC, resolve(dirname(file), m[1]!)).replace(/\.js$/u, '.ts'));
  }
  return out;
}

const graph = new Map(sources(SRC).map((f) => [relative(SRC, f), importsOf(f)]));
const layer = (path: string) => (path.includes('/') ? path.slice(0, path.indexOf('/')) : path);

/** The imports from files of layer `from` into files of the layers `into`, as `file → import`. */
function crossings(from: string, into: readonly string[]): string[] {
  const out: string[] = [];
  for (const [file, imports] of graph) {
    if (layer(file) !== from) continue;
    for (const i of imports) if (into.includes(layer(i))) out.push(`${file} → ${i}`);
  }
  return out;
}

describe('layers', () => {
  it('the scan sees the imports it judges (it can fail)', () => {
    expect(graph.get('api/engine.ts')).toContain('engine/run.ts');
    expect(graph.get('api/core-rules.ts')).toContain('rules/index.ts');
    expect(graph.get('cli.ts')).toEqual(expect.arrayContaining(['lsp/server.ts', 'mcp/run.ts']));
    expect(crossings('api', ['rules'])).toEqual(['api/core-rules.ts → rules/index.ts']);
  });

  it('the engine is handed its rules: it imports no rule, and nothing above it', () => {
    expect(crossings('engine', ['rules', 'api', 'commands', 'lsp', 'mcp', 'cli.ts'])).toEqual([]);
  });

  it('the command line, the language server and the MCP server do not import each other', () => {
    expect(crossings('commands', ['lsp', 'mcp'])).toEqual([]);
    expect(crossings('lsp', ['commands', 'mcp'])).toEqual([]);
    expect(crossings('mcp', ['commands', 'lsp'])).toEqual([]);
  });

  it('the API layer sits below the front ends', () => {
    expect(crossings('api', ['commands', 'lsp', 'mcp', 'cli.ts'])).toEqual([]);
  });

  it('only the API layer hands the engine the core rules', () => {
    const users = [...graph].filter(([, imports]) => imports.includes('rules/index.ts')).map(([file]) => file);
    expect(users.filter((f) => layer(f) !== 'rules')).toEqual(['api/core-rules.ts']);
  });
});
