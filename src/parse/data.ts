/**
 * Data files (a runtime state file, a line of a trace) as a tree of values that knows where each
 * value and each key is written, so a problem can be reported at its line and column and named by
 * its JSON pointer. JSON is read by the strict RFC 8259 parser below; YAML is converted from the
 * `yaml` package's document (parse/yaml-data.ts, loaded only for YAML files).
 */
import { lineStarts, positionAt } from '../util/text.js';

interface Place {
  line: number;
  column: number;
}

export type DataNode = Place &
  (
    | { kind: 'object'; entries: DataEntry[] }
    | { kind: 'array'; items: DataNode[] }
    | { kind: 'string'; value: string }
    | { kind: 'number'; value: number }
    | { kind: 'boolean'; value: boolean }
    | { kind: 'null' }
  );

export interface DataEntry extends Place {
  key: string;
  value: DataNode;
}

/** A problem that does not stop the file from being read (a key written twice in one object). */
export interface DataWarning extends Place {
  kind: 'duplicateKey';
  key: string;
  /** where the key was first written */
  first: Place;
}

export type DataResult = { root: DataNode; warnings: DataWarning[] } | { error: Place & { message: string } };

/** Values nested deeper than this are refused (a parser must not overflow its stack on hostile input). */
export const MAX_DEPTH = 512;

/** RFC 6901: `/failures/history/0/stage`, with `~` and `/` in keys escaped. */
export function jsonPointer(path: readonly (string | number)[]): string {
  return path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** What a value is, in words (`a string "x"`, `a list`), for messages. */
export function describeValue(node: DataNode): string {
  switch (node.kind) {
    case 'object':
      return 'a map';
    case 'array':
      return 'a list';
    case 'string': {
      const v = node.value.length > 40 ? `${node.value.slice(0, 39)}…` : node.value;
      return `the string ${JSON.stringify(v)}`;
    }
    case 'number':
      return `the number ${node.value}`;
    case 'boolean':
      return String(node.value);
    case 'null':
      return 'null';
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WS = /[ \t\n\r]*/y;

class JsonError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/**
 * Parse JSON text into a located tree. Never throws: a syntax error is returned with its place.
 * `unit` names the text in messages (`the end of the line` for a line of JSON Lines).
 */
export function parseJson(text: string, unit: 'file' | 'line' = 'file'): DataResult {
  const starts = lineStarts(text);
  const place = (offset: number): Place => positionAt(starts, offset);
  const warnings: DataWarning[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  const skip = () => {
    WS.lastIndex = i;
    WS.exec(text);
    i = WS.lastIndex;
  };
  const shown = (offset: number) => {
    if (offset >= text.length) return `the end of the ${unit}`;
    const c = String.fromCodePoint(text.codePointAt(offset)!);
    return /\s/u.test(c) ? JSON.stringify(c) : `'${c}'`;
  };
  const stringAt = (): string => {
    const start = i;
    i++;
    for (;;) {
      if (i >= text.length) throw new JsonError('the string is never closed', start);
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) throw new JsonError('a control character (a line break or tab) inside a string must be escaped', i);
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/u.test(text.slice(i + 2, i + 6))) throw new JsonError('\\u must be followed by four hex digits', i);
          i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) throw new JsonError(`'\\${e ?? ''}' is not a JSON escape`, i);
        i += 2;
        continue;
      }
      i++;
    }
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (depth: number): DataNode => {
    if (depth > MAX_DEPTH) throw new JsonError(`values are nested deeper than ${MAX_DEPTH} levels`, i);
    skip();
    const at = place(i);
    const c = text[i];
    if (c === '{') {
      i++;
      const entries: DataEntry[] = [];
      const seen = new Map<string, Place>();
      skip();
      if (text[i] === '}') {
        i++;
        return { kind: 'object', entries, ...at };
      }
      for (;;) {
        skip();
        if (text[i] !== '"') {
          throw new JsonError(
            text[i] === '}' ? "a comma before '}' (a trailing comma) is not allowed" : `expected a key in double quotes, found ${shown(i)}`,
            i,
          );
        }
        const keyAt = place(i);
        const key = stringAt();
        skip();
        if (text[i] !== ':') throw new JsonError(`expected ':' after the key, found ${shown(i)}`, i);
        i++;
        const v = value(depth + 1);
        const first = seen.get(key);
        if (first) {
          warnings.push({ kind: 'duplicateKey', key, first, ...keyAt });
          const k = entries.findIndex((e) => e.key === key);
          entries.splice(k, 1);
        }
        seen.set(key, keyAt);
        entries.push({ key, value: v, ...keyAt });
        skip();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return { kind: 'object', entries, ...at };
        }
        throw new JsonError(`expected ',' or '}' after a value, found ${shown(i)}`, i);
      }
    }
    if (c === '[') {
      i++;
      const items: DataNode[] = [];
      skip();
      if (text[i] === ']') {
        i++;
        return { kind: 'array', items, ...at };
      }
      for (;;) {
        skip();
        if (text[i] === ']') throw new JsonError("a comma before ']' (a trailing comma) is not allowed", i);
        items.push(value(depth + 1));
        skip();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return { kind: 'array', items, ...at };
        }
        throw new JsonError(`expected ',' or ']' after a value, found ${shown(i)}`, i);
      }
    }
    if (c === '"') return { kind: 'string', value: stringAt(), ...at };
    for (const [word, node] of [
      ['true', { kind: 'boolean', value: true }],
      ['false', { kind: 'boolean', value: false }],
      ['null', { kind: 'null' }],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return { ...node, ...at };
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m) {
      i += m[0].length;
      return { kind: 'number', value: Number(m[0]), ...at };
    }
    throw new JsonError(i >= text.length ? `unexpected end of the ${unit}: a value is missing` : `expected a value, found ${shown(i)}`, i);
  };

  try {
    skip();
    if (i >= text.length) return { error: { message: `the ${unit} is empty`, ...place(i) } };
    const root = value(0);
    skip();
    if (i < text.length) throw new JsonError(`unexpected ${shown(i)} after the value`, i);
    return { root, warnings };
  } catch (e) {
    if (!(e instanceof JsonError)) throw e;
    return { error: { message: e.message, ...place(Math.min(e.offset, text.length)) } };
  }
}

/** The node at a path of keys and indices, or undefined. */
export function nodeAt(root: DataNode, path: readonly (string | number)[]): DataNode | undefined {
  let node: DataNode | undefined = root;
  for (const p of path) {
    if (!node) return undefined;
    if (node.kind === 'object') node = node.entries.find((e) => e.key === p)?.value;
    else if (node.kind === 'array' && typeof p === 'number') node = node.items[p];
    else return undefined;
  }
  return node;
}
