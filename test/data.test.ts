/** The located data parsers (parse/data.ts, parse/yaml-data.ts): places, pointers, syntax errors, hostile input. */
import { describe, expect, it } from 'vitest';
import { jsonPointer, parseJson, type DataNode } from '../src/parse/data.js';
import { parseYaml } from '../src/parse/yaml-data.js';

describe('located JSON', () => {
  it('places every value and key, and names values by JSON pointer', () => {
    const r = parseJson('{\n  "a": [1, {"b~/c": null}],\n  "d": "x"\n}\n');
    if ('error' in r) throw new Error(r.error.message);
    const root = r.root as Extract<DataNode, { kind: 'object' }>;
    expect(root.entries.map((e) => [e.key, e.line, e.column, e.value.line, e.value.column])).toEqual([
      ['a', 2, 3, 2, 8],
      ['d', 3, 3, 3, 8],
    ]);
    expect(jsonPointer(['a', 1, 'b~/c'])).toBe('/a/1/b~0~1c');
  });

  it('reports syntax errors where the parser stopped, with a reason', () => {
    const cases: [string, number, number, string][] = [
      ['', 1, 1, 'the file is empty'],
      ['{"a": 1,}', 1, 9, "a comma before '}' (a trailing comma) is not allowed"],
      ['[1, 2,]', 1, 7, "a comma before ']' (a trailing comma) is not allowed"],
      ['{"a" 1}', 1, 6, "expected ':' after the key, found '1'"],
      ['{\n  a: 1\n}', 2, 3, "expected a key in double quotes, found 'a'"],
      ['{"a": "x\ny"}', 1, 9, 'a control character (a line break or tab) inside a string must be escaped'],
      ['{"a": tru}', 1, 7, "expected a value, found 't'"],
      ['{"a": 1} x', 1, 10, "unexpected 'x' after the value"],
      ['{"a": "\\q"}', 1, 8, "'\\q' is not a JSON escape"],
      ['{"a": 1', 1, 8, "expected ',' or '}' after a value, found the end of the file"],
      ['[' + '['.repeat(600), 1, 514, 'values are nested deeper than 512 levels'],
    ];
    for (const [text, line, column, message] of cases) expect(parseJson(text), text).toEqual({ error: { message, line, column } });
  });

  it('reads what JSON.parse reads (escapes, numbers, a byte order mark)', () => {
    const text = '\uFEFF{"s": "a\\u00e9\\n\\"", "n": -1.5e3, "t": true, "f": false, "z": null, "e": [], "o": {}}';
    const r = parseJson(text);
    if ('error' in r) throw new Error(r.error.message);
    const plain = (n: DataNode): unknown =>
      n.kind === 'object'
        ? Object.fromEntries(n.entries.map((e) => [e.key, plain(e.value)]))
        : n.kind === 'array'
          ? n.items.map(plain)
          : n.kind === 'null'
            ? null
            : n.value;
    expect(plain(r.root)).toEqual(JSON.parse(text.slice(1)));
  });
});

describe('located YAML', () => {
  it('places keys and values of block and flow collections; errors are located', () => {
    const r = parseYaml('a: 1\nb:\n  - x\n  - { c: true }\nd:\n');
    if ('error' in r) throw new Error(r.error.message);
    const root = r.root as Extract<DataNode, { kind: 'object' }>;
    expect(root.entries.map((e) => [e.key, e.line, e.column, e.value.kind, e.value.line, e.value.column])).toEqual([
      ['a', 1, 1, 'number', 1, 4],
      ['b', 2, 1, 'array', 3, 3],
      ['d', 5, 1, 'null', 5, 3],
    ]);
    const bad = parseYaml('a: [1\nb: 2\n');
    expect('error' in bad && bad.error.line).toBe(2);
    expect(parseYaml('a: 1\na: 2\n')).toMatchObject({ error: { line: 2, column: 1 } });
  });

  it('refuses an alias bomb instead of expanding it', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 8; i++)
      lines.push(
        `${'abcdefgh'[i]}: &${'abcdefgh'[i]} [${Array(10)
          .fill(`*${'abcdefgh'[i - 1]}`)
          .join(', ')}]`,
      );
    const r = parseYaml(lines.join('\n'));
    expect('error' in r && r.error.message).toMatch(/its aliases expand to more than 100000 values/u);
  });
});
