/**
 * SKILL.md frontmatter: a real YAML parse of the `---` block, with the line and column of
 * every key (top-level and nested).
 */
import { isMap, isScalar, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import type { Frontmatter, FrontmatterEntry, SourceFile } from '../model/types.js';
import { splitLines } from '../util/text.js';

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
    data: {},
    raw,
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
  fm.data = (js ?? {}) as Record<string, unknown>;

  const entries: FrontmatterEntry[] = [];
  const nested: FrontmatterEntry[] = [];
  const walk = (map: YamlNode, prefix: string, out: FrontmatterEntry[], jsMap: Record<string, unknown>) => {
    if (!isMap(map)) return;
    for (const pair of map.items) {
      const k = pair.key as YamlNode | null;
      const key = isScalar(k) ? String(k.value) : String(k);
      const p = at(k?.range?.[0] ?? 0);
      const v = pair.value as YamlNode | null;
      const entry: FrontmatterEntry = { key: prefix + key, value: jsMap?.[key], ...p };
      if (isScalar(v) && typeof v.source === 'string') entry.raw = v.source;
      out.push(entry);
      if (v && isMap(v)) walk(v, `${prefix}${key}.`, nested, (jsMap?.[key] ?? {}) as Record<string, unknown>);
    }
  };
  walk(contents, '', entries, fm.data);
  fm.entries = entries;
  fm.nested = nested;
  return fm;
}

/** The entry for a top-level key, if present. */
export function frontmatterEntry(fm: Frontmatter | null, key: string): FrontmatterEntry | undefined {
  return fm?.entries.find((e) => e.key === key);
}
