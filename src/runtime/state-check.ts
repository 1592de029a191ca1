/**
 * A runtime state file against its skill's Loop State Schema (model/schema.ts): required fields,
 * types, enumerations, state names (through the state-value table), undescribed fields. Pure: the
 * file is parsed by the caller (parse/data.ts, parse/yaml-data.ts).
 */
import type { Diagnostic, Related } from '../engine/diagnostic.js';
import type { CompiledSchema, SchemaField, SchemaNode } from '../model/schema.js';
import type { Skill } from '../model/types.js';
import type { DataNode, DataResult } from '../parse/data.js';
import { describeValue, jsonPointer } from '../parse/data.js';
import { didYouMean } from '../util/closest.js';
import { DiagnosticSink, type RuntimeReport } from './codes.js';

export interface StateCheckInput {
  skill: Skill;
  schema: CompiledSchema;
  /** the state file: project-relative path (as reports show it) */
  file: string;
  format: 'JSON' | 'YAML';
  parsed: DataResult;
}

export interface StateCheckResult {
  diagnostics: Diagnostic[];
  /** values checked against a schema row */
  checked: number;
}

const ISO_8601 =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:[Tt ](?:[01]\d|2[0-3]):[0-5]\d(?::(?:[0-5]\d|60)(?:[.,]\d+)?)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?)?$/u;

/** Does a value fit a type, and if not, which code says why? */
type Verdict = 'ok' | { code: string; messageId: string };

export function checkStateFile(input: StateCheckInput): StateCheckResult {
  const { skill, schema, file } = input;
  const sink = new DiagnosticSink();
  let checked = 0;
  const loopFile = skill.loop!.file.path;
  const declared = (f: SchemaField): Related[] => [
    { message: `declared here: ${f.path} | ${f.typeText}`, file: loopFile, line: f.row.field.line, column: f.row.field.column },
  ];
  const report = (r: Omit<RuntimeReport, 'file' | 'skill'>) => sink.report(r.code, () => ({ ...r, file, skill: skill.name }));
  const parsed = input.parsed;
  if ('error' in parsed) {
    report({
      code: 'state-file-malformed',
      messageId: 'syntax',
      data: { format: input.format, reason: parsed.error.message },
      line: parsed.error.line,
      column: parsed.error.column,
    });
    return { diagnostics: sink.diagnostics(), checked };
  }
  for (const w of parsed.warnings) {
    report({
      code: 'state-file-malformed',
      messageId: 'duplicateKey',
      data: { key: w.key, line: w.first.line, column: w.first.column },
      line: w.line,
      column: w.column,
    });
  }
  if (parsed.root.kind !== 'object') {
    report({
      code: 'state-file-malformed',
      messageId: 'notObject',
      data: { got: describeValue(parsed.root), skill: skill.name },
      line: parsed.root.line,
      column: parsed.root.column,
      pointer: '',
    });
    return { diagnostics: sink.diagnostics(), checked };
  }
  const stateNames = schema.values.size > 0 ? [...schema.values.keys()] : [...schema.states].sort();

  const verdict = (node: DataNode, field: SchemaField): Verdict => {
    const type = field.type;
    if (type.kind === 'enum') {
      if (node.kind !== 'string') return { code: 'state-file-wrong-type', messageId: 'type' };
      return type.values.includes(node.value) ? 'ok' : { code: 'state-file-invalid-value', messageId: 'notMember' };
    }
    let failed: Verdict | null = null;
    for (const t of type.types) {
      switch (t) {
        case 'any':
          return 'ok';
        case 'str':
          if (node.kind === 'string') return 'ok';
          break;
        case 'int':
          if (node.kind === 'number' && Number.isInteger(node.value)) return 'ok';
          break;
        case 'float':
          if (node.kind === 'number') return 'ok';
          break;
        case 'bool':
          if (node.kind === 'boolean') return 'ok';
          break;
        case 'list':
          if (node.kind === 'array') return 'ok';
          break;
        case 'map':
          if (node.kind === 'object') return 'ok';
          break;
        case 'timestamp':
          if (node.kind === 'string') {
            if (ISO_8601.test(node.value)) return 'ok';
            failed ??= { code: 'state-file-wrong-type', messageId: 'timestamp' };
          }
          break;
        case 'state':
          if (node.kind === 'string') {
            if (stateNames.includes(node.value)) return 'ok';
            failed ??= { code: 'state-file-unknown-state', messageId: schema.values.size > 0 ? 'unmapped' : 'unknown' };
          }
          break;
      }
    }
    return failed ?? { code: 'state-file-wrong-type', messageId: 'type' };
  };

  const check = (node: DataNode, at: SchemaNode, path: (string | number)[]): void => {
    const field = at.field;
    const pointer = jsonPointer(path);
    if (field) {
      checked++;
      const data = { pointer, field: field.path, type: field.typeText, skill: skill.name, got: describeValue(node) };
      if (node.kind === 'null') {
        if (!field.optional)
          report({
            code: 'state-file-wrong-type',
            messageId: 'null',
            data,
            line: node.line,
            column: node.column,
            pointer,
            related: declared(field),
          });
        return;
      }
      const v = verdict(node, field);
      if (v !== 'ok') {
        const extra: Record<string, string> = {};
        if (v.messageId === 'notMember' && field.type.kind === 'enum') {
          extra.values = field.type.values.join(', ');
          extra.suggestion = suggestion(node, field.type.values);
        }
        if (v.code === 'state-file-unknown-state') {
          extra.states = stateNames.join(', ');
          extra.suggestion = suggestion(node, stateNames);
        }
        report({
          code: v.code,
          messageId: v.messageId,
          data: { ...data, ...extra },
          line: node.line,
          column: node.column,
          pointer,
          related: declared(field),
        });
        return;
      }
    }
    if (!field && at.path !== '') {
      // an element or any-key node that only its fields declare: a map (or a list of lists)
      const want = at.items ? 'array' : 'object';
      if (node.kind !== want) {
        const child = firstField(at)!;
        report({
          code: 'state-file-wrong-type',
          messageId: 'implied',
          data: { pointer, got: describeValue(node), type: want === 'array' ? 'list' : 'map', skill: skill.name, child: child.path },
          line: node.line,
          column: node.column,
          pointer,
          related: declared(child),
        });
        return;
      }
    }
    if (node.kind === 'object') {
      // the root and maps with named fields are described field by field; a map with neither named
      // fields nor `*` is free-form
      const closed = at.field === null || at.keys.size > 0;
      const present = new Set<string>();
      for (const entry of node.entries) {
        present.add(entry.key);
        const child = at.keys.get(entry.key) ?? at.anyKey;
        if (child) check(entry.value, child, [...path, entry.key]);
        else if (closed && at.anyKey === null) {
          const childPointer = jsonPointer([...path, entry.key]);
          report({
            code: 'state-file-unknown-field',
            messageId: 'unknown',
            data: {
              pointer: childPointer,
              skill: skill.name,
              field: fieldPath(at.path, entry.key),
              suggestion: didYouMean(
                entry.key,
                [...at.keys.keys()].filter((k) => !node.entries.some((e) => e.key === k)),
                (s) => `\`${s}\``,
              ),
            },
            line: entry.line,
            column: entry.column,
            pointer: childPointer,
          });
        }
      }
      for (const [key, child] of at.keys) {
        if (present.has(key) || child.field!.optional) continue;
        const childPointer = jsonPointer([...path, key]);
        report({
          code: 'state-file-missing-field',
          messageId: 'missing',
          data: { pointer: childPointer, field: child.path, type: child.field!.typeText, skill: skill.name },
          line: node.line,
          column: node.column,
          pointer: childPointer,
          related: declared(child.field!),
        });
      }
    } else if (node.kind === 'array' && at.items) {
      node.items.forEach((item, i) => check(item, at.items!, [...path, i]));
    }
  };
  check(parsed.root, schema.root, []);
  return { diagnostics: sink.diagnostics(), checked };
}

/** The schema path of a key of the map at `parent` (`a.b`, `a[].b`). */
function fieldPath(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

/** The first declared field at or under a schema node (an implied node always has one). */
function firstField(node: SchemaNode): SchemaField | null {
  if (node.field) return node.field;
  for (const child of [...node.keys.values(), node.anyKey, node.items]) {
    const f = child ? firstField(child) : null;
    if (f) return f;
  }
  return null;
}

/** `; did you mean 'X'?` for a likely typo, or the same word in another case (`verify` for `VERIFY`). */
function suggestion(node: DataNode, candidates: readonly string[]): string {
  if (node.kind !== 'string') return '';
  const sameWord = candidates.find((c) => c.toLowerCase() === node.value.toLowerCase());
  return sameWord !== undefined ? `; did you mean '${sameWord}'?` : didYouMean(node.value, candidates);
}
