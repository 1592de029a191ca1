/**
 * SKILL.md frontmatter: a real YAML parse of the `---` block, with the line and column of
 * every key (top-level and nested).
 */
import { isMap, isScalar, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import type { Frontmatter, FrontmatterEntry, SourceFile } from '../model/types.js';
import { splitLines } from '../util/text.js';

/** A plain value Claude Code's second reading quotes: it holds `: ` or a YAML indicator. */
const CLAUDE_CODE_SPECIAL = /[{}[\]*&#!|>%@`]|: /u;

/**
 * Claude Code's second reading of frontmatter that does not parse (its frontmatter parser, since
 * 2.1.69: "Fixed skill descriptions with colons … failing to load"): every top-level `key: value`
 * line whose value is not quoted and holds `: ` or a YAML indicator is written `key: "value"`, and
 * the block is parsed again. The keys it quoted when that reading gives a mapping; null when it
 * does not (Claude Code then reads no frontmatter at all).
 */
export function claudeCodeQuotes(raw: string): string[] | null {
  const keys: string[] = [];
  const text = raw
    .split('\n')
    .map((line) => {
      const m = /^([a-zA-Z_-]+):\s+(.+)$/u.exec(line);
      if (!m) return line;
      const [, key, value] = m as unknown as [string, string, string];
      if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) return line;
      if (!CLAUDE_CODE_SPECIAL.test(value)) return line;
      keys.push(key);
      return `${key}: "${value.replace(/\\/gu, '\\\\').replace(/"/gu, '\\"')}"`;
    })
    .join('\n');
  if (keys.length === 0) return null;
  const again = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  if (again.errors.length > 0 || !isMap(again.contents)) return null;
  return [...new Set(keys)];
}

/** Returns null when the file does not open with a `---` line. */
export function parseFrontmatter(file: SourceFile): Frontmatter | null {
  const lines = splitLines(file.text);
  if (lines.length === 0 || lines[0]!.trimEnd() !== '---') return null;
  let close = -1;
  for (let i = 1; i < lines.length; i++) {
    const t = lines[i]!.trimEnd();
    if (t === '---' || t === '...') {
      close = i;
      break;
    }
  }
  const bodyLines = close === -1 ? [] : lines.slice(1, close);
  const raw = bodyLines.join('\n');
  const fm: Frontmatter = {
    line: 1,
    endLine: close === -1 ? null : close + 1,
    entries: [],
    nested: [],
  };
  if (close === -1) return fm;

  const lc = new LineCounter();
  const doc = parseDocument(raw, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  // line 1 of `raw` is line 2 of the file
  const at = (offset: number) => {
    const p = lc.linePos(offset);
    return { line: p.line + 1, column: p.col };
  };
  if (doc.errors.length > 0) {
    const err = doc.errors[0]!;
    const p = at(err.pos[0]);
    fm.error = { message: err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''), ...p };
    const quoted = claudeCodeQuotes(raw);
    if (quoted !== null) fm.error.claudeCodeQuotes = quoted;
    return fm;
  }
  const contents = doc.contents as YamlNode | null;
  if (contents === null) return fm;
  if (!isMap(contents)) {
    const p = at(contents.range?.[0] ?? 0);
    fm.error = { message: 'frontmatter must be a mapping of keys to values', ...p };
    return fm;
  }
  let js: unknown;
  try {
    js = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    fm.error = { message: (e as Error).message, line: 2, column: 1 };
    return fm;
  }
  const data = (js ?? {}) as Record<string, unknown>;

  const entries: FrontmatterEntry[] = [];
  const nested: FrontmatterEntry[] = [];
  const walk = (map: YamlNode, parents: readonly string[], out: FrontmatterEntry[], jsMap: Record<string, unknown>) => {
    const prefix = parents.map((k) => `${k}.`).join('');
    if (!isMap(map)) return;
    for (const pair of map.items) {
      const k = pair.key as YamlNode | null;
      const key = isScalar(k) ? String(k.value) : String(k);
      const p = at(k?.range?.[0] ?? 0);
      const v = pair.value as YamlNode | null;
      const entry: FrontmatterEntry = { key: prefix + key, path: [...parents, key], value: jsMap?.[key], ...p };
      if (isScalar(v) && typeof v.source === 'string') entry.raw = v.source;
      out.push(entry);
      if (v && isMap(v)) walk(v, [...parents, key], nested, (jsMap?.[key] ?? {}) as Record<string, unknown>);
    }
  };
  walk(contents, [], entries, data);
  for (const e of entries) e.source = valueSource(lines, close + 1, e);
  fm.entries = entries;
  fm.nested = nested;
  return fm;
}

/** The entry for a top-level key, if present. */
export function frontmatterEntry(fm: Frontmatter | null, key: string): FrontmatterEntry | undefined {
  return fm?.entries.find((e) => e.key === key);
}

/**
 * The source text of an entry's value where it starts: what follows `key:` on the key's line
 * (a trailing ` # comment` dropped), or, when that is empty, the first non-blank, non-comment line
 * below it inside the frontmatter. `fence` is the 1-based line of the closing `---`.
 */
function valueSource(lines: readonly string[], fence: number, entry: FrontmatterEntry): string {
  const line = lines[entry.line - 1] ?? '';
  const afterKey = line.slice(entry.column - 1).match(/^(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^:]*?)\s*:(.*)$/u);
  const rest = stripComment(afterKey?.[1] ?? '').trim();
  if (rest !== '') return rest;
  for (let i = entry.line; i < fence - 1 && i < lines.length; i++) {
    const t = stripComment(lines[i]!).trim();
    if (t !== '') return t;
  }
  return '';
}

function stripComment(s: string): string {
  return s.trimStart().startsWith('#') ? '' : s.replace(/\s+#.*$/u, '');
}
