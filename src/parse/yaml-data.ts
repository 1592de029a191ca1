/**
 * A YAML file as a located data tree (see data.ts). Loaded on demand: only a YAML state file needs
 * the YAML parser.
 */
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import { MAX_DEPTH, type DataEntry, type DataNode, type DataResult } from './data.js';

/** Values aliases may expand to (an alias repeats what it names: a few lines can stand for billions of values). */
const MAX_ALIASED_VALUES = 100_000;

class YamlDataError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

export function parseYaml(text: string): DataResult {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false });
  const place = (offset: number) => {
    const p = lc.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const error = doc.errors[0];
  if (error) {
    const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/u, '');
    return { error: { message, ...place(error.pos[0]) } };
  }
  if (doc.contents === null) return { error: { message: 'the file is empty', line: 1, column: 1 } };
  try {
    const budget = { left: MAX_ALIASED_VALUES, aliased: false };
    return { root: convert(doc, doc.contents, 0, place, 0, budget), warnings: [] };
  } catch (e) {
    if (!(e instanceof YamlDataError)) throw e;
    return { error: { message: e.message, ...place(e.offset) } };
  }
}

function convert(
  doc: Document,
  node: YamlNode | null,
  fallback: number,
  place: (offset: number) => { line: number; column: number },
  depth: number,
  budget: { left: number; aliased: boolean },
): DataNode {
  const offset = node?.range?.[0] ?? fallback;
  if (depth > MAX_DEPTH) throw new YamlDataError(`values are nested deeper than ${MAX_DEPTH} levels`, offset);
  if (budget.aliased && --budget.left < 0) {
    throw new YamlDataError(`its aliases expand to more than ${MAX_ALIASED_VALUES} values`, offset);
  }
  const at = place(offset);
  if (node === null) return { kind: 'null', ...at };
  if (isAlias(node)) {
    const target = node.resolve(doc);
    if (!target) throw new YamlDataError(`alias *${node.source} names no anchor`, offset);
    const outer = budget.aliased;
    budget.aliased = true;
    const value = convert(doc, target as YamlNode, offset, place, depth + 1, budget);
    budget.aliased = outer;
    return { ...value, ...at };
  }
  if (isMap(node)) {
    const entries: DataEntry[] = [];
    for (const pair of node.items) {
      const keyNode = pair.key as YamlNode | null;
      const keyOffset = keyNode?.range?.[0] ?? offset;
      if (!isScalar(keyNode)) throw new YamlDataError('a key must be a plain value, not a list or map', keyOffset);
      entries.push({
        key: String(keyNode.value),
        value: convert(doc, pair.value as YamlNode | null, keyOffset, place, depth + 1, budget),
        ...place(keyOffset),
      });
    }
    return { kind: 'object', entries, ...at };
  }
  if (isSeq(node)) {
    return {
      kind: 'array',
      items: node.items.map((item) => convert(doc, item as YamlNode | null, offset, place, depth + 1, budget)),
      ...at,
    };
  }
  if (isScalar(node)) {
    const v = node.value;
    if (v === null || v === undefined) return { kind: 'null', ...at };
    if (typeof v === 'string') return { kind: 'string', value: v, ...at };
    if (typeof v === 'number') return { kind: 'number', value: v, ...at };
    if (typeof v === 'boolean') return { kind: 'boolean', value: v, ...at };
    if (typeof v === 'bigint') return { kind: 'number', value: Number(v), ...at };
    return { kind: 'string', value: String(v), ...at };
  }
  throw new YamlDataError('a value loopkit cannot read', offset);
}
