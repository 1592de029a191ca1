/**
 * The Loop State Schema of a skill, read from its LOOP.md tables (StateSchemaFacts): which fields a
 * runtime state file holds, their types, which are optional, and how the file writes the skill's
 * states. Used by the static rule that checks the table (loop-invalid-state-schema) and by the
 * state-file check (`loopkit state`).
 *
 * Field paths: `a` is a top-level key, `a.b` a key of the map `a`, `a.*` any key of it, `a[]` every
 * element of the list `a` (`a[].b` a key of each element). A trailing `?` makes a field optional:
 * it may be absent or null. Every other field is required whenever its parent is there.
 *
 * Types: `str`, `int`, `bool`, `float` (any number), `list`, `map`, `timestamp` (an ISO 8601 date
 * or date-time string), `state` (a state of the skill: a state name as the contract writes it, or,
 * when the section has a `| value | state |` table, one of its values) and `any`. `a | b | c` is an
 * enumeration of the strings a, b and c — unless every alternative is a type name, then it is a
 * union of those types (`bool | map`).
 */
import type { SchemaRow, Skill, StateSchemaFacts, TableCell } from './types.js';

export const BASE_TYPES = ['str', 'int', 'bool', 'float', 'list', 'map', 'timestamp', 'state', 'any'] as const;
export type BaseType = (typeof BASE_TYPES)[number];

const TYPE_NAMES: ReadonlySet<string> = new Set(BASE_TYPES);

export type TypeSpec = { kind: 'types'; types: readonly BaseType[] } | { kind: 'enum'; values: readonly string[] };

/** One step of a field path: a named key, any key (`*`), or the elements of a list (`[]`). */
export type PathStep = { kind: 'key'; name: string } | { kind: 'any' } | { kind: 'items' };

export interface SchemaField {
  /** the path as written, without the optional marker */
  path: string;
  steps: readonly PathStep[];
  optional: boolean;
  type: TypeSpec;
  /** the type as written */
  typeText: string;
  row: SchemaRow;
}

/** A node of the schema tree: the root, a declared field, or an element or any-key node its fields imply. */
export interface SchemaNode {
  /** null for the root and for implied nodes (`a[]` when only `a[].b` is declared) */
  field: SchemaField | null;
  /** the path of the node (`a[].b`), '' for the root */
  path: string;
  keys: Map<string, SchemaNode>;
  anyKey: SchemaNode | null;
  items: SchemaNode | null;
}

export type SchemaProblemId =
  | 'badPath'
  | 'optionalElement'
  | 'unknownType'
  | 'emptyMember'
  | 'duplicate'
  | 'noParent'
  | 'parentNotMap'
  | 'parentNotList'
  | 'unknownState'
  | 'valuesUnused';

export interface SchemaProblem {
  messageId: SchemaProblemId;
  data: Record<string, string | number>;
  line: number;
  column: number;
}

export interface CompiledSchema {
  root: SchemaNode;
  /** the fields that compiled, in table order */
  fields: readonly SchemaField[];
  /** state-value table: file value → the states it stands for (empty when the section has no such table) */
  values: ReadonlyMap<string, readonly string[]>;
  /** the states of the skill */
  states: ReadonlySet<string>;
  problems: readonly SchemaProblem[];
}

/** The states of a skill: those of its transitions and those its SKILL.md state model declares. */
export function skillStates(skill: Skill): Set<string> {
  const states = new Set<string>();
  for (const t of skill.loop?.transitions ?? skill.legacyHandoffs?.transitions ?? []) {
    states.add(t.from);
    states.add(t.to);
  }
  for (const d of skill.declaredStates) states.add(d.name);
  return states;
}

const SEGMENT = /^(\*|[^\s.[\]*?]+)((?:\[\])*)$/u;

/** A field path → its steps, or the reason it cannot be read. */
export function parsePath(path: string): PathStep[] | string {
  if (path === '') return 'the path is empty';
  const steps: PathStep[] = [];
  for (const segment of path.split('.')) {
    const m = SEGMENT.exec(segment);
    if (!m) {
      return segment === ''
        ? 'it has an empty segment (two dots, or a dot at an end)'
        : `'${segment}' is not a key, '*' or a key followed by []`;
    }
    steps.push(m[1] === '*' ? { kind: 'any' } : { kind: 'key', name: m[1]! });
    for (let i = 0; i < m[2]!.length / 2; i++) steps.push({ kind: 'items' });
  }
  return steps;
}

/** The path of steps, as written (`a[].b`, `a.*`). */
export function pathText(steps: readonly PathStep[]): string {
  let out = '';
  for (const s of steps) {
    if (s.kind === 'items') out += '[]';
    else out += (out === '' ? '' : '.') + (s.kind === 'any' ? '*' : s.name);
  }
  return out;
}

/** A type cell → its spec, or the unknown type name (a single word that is no type). */
export function parseType(text: string): TypeSpec | { unknown: string } | { empty: true } {
  const alternatives = text.split('|').map((a) => a.trim());
  if (alternatives.length === 1) {
    const t = alternatives[0]!.toLowerCase();
    return TYPE_NAMES.has(t) ? { kind: 'types', types: [t as BaseType] } : { unknown: alternatives[0]! };
  }
  if (alternatives.some((a) => a === '')) return { empty: true };
  if (alternatives.every((a) => TYPE_NAMES.has(a.toLowerCase()))) {
    return { kind: 'types', types: [...new Set(alternatives.map((a) => a.toLowerCase() as BaseType))] };
  }
  return { kind: 'enum', values: [...new Set(alternatives)] };
}

/** What children a type allows: keys (a map), elements (a list), or both (`any`). */
function allows(type: TypeSpec, kind: 'map' | 'list'): boolean {
  return type.kind === 'types' && (type.types.includes(kind) || type.types.includes('any'));
}

const at = (cell: TableCell) => ({ line: cell.line, column: cell.column });

/**
 * Read a skill's schema tables. Rows that do not compile are left out (and reported as problems);
 * the rest still describe the file.
 */
export function compileSchema(facts: StateSchemaFacts, states: ReadonlySet<string>): CompiledSchema {
  const problems: SchemaProblem[] = [];
  const fields: SchemaField[] = [];
  const byPath = new Map<string, SchemaField>();
  for (const row of facts.fields) {
    const written = row.field.text;
    const optional = written.endsWith('?');
    const path = optional ? written.slice(0, -1).trimEnd() : written;
    const steps = parsePath(path);
    if (typeof steps === 'string') {
      problems.push({ messageId: 'badPath', data: { field: written, reason: steps }, ...at(row.field) });
      continue;
    }
    if (optional && steps[steps.length - 1]!.kind !== 'key') {
      problems.push({ messageId: 'optionalElement', data: { field: written }, ...at(row.field) });
      continue;
    }
    const type = parseType(row.type.text);
    if ('unknown' in type) {
      problems.push({ messageId: 'unknownType', data: { field: path, type: type.unknown, types: BASE_TYPES.join(', ') }, ...at(row.type) });
      continue;
    }
    if ('empty' in type) {
      problems.push({ messageId: 'emptyMember', data: { field: path, type: row.type.text }, ...at(row.type) });
      continue;
    }
    const key = pathText(steps);
    const first = byPath.get(key);
    if (first) {
      problems.push({ messageId: 'duplicate', data: { field: key, line: first.row.field.line }, ...at(row.field) });
      continue;
    }
    const field: SchemaField = { path: key, steps, optional, type, typeText: row.type.text, row };
    byPath.set(key, field);
    fields.push(field);
  }

  // the tree, parents before children: every field under its parent node; element and any-key
  // nodes are implied when only their fields are declared
  const root: SchemaNode = { field: null, path: '', keys: new Map(), anyKey: null, items: null };
  const nodes = new Map<string, SchemaNode>([['', root]]);
  type Resolved = { node: SchemaNode } | { problem: SchemaProblemId; parent: string; type: string };
  const attach = (parent: SchemaNode, step: PathStep, node: SchemaNode): Resolved => {
    const kind = step.kind === 'items' ? 'list' : 'map';
    if (parent.field && !allows(parent.field.type, kind)) {
      return { problem: kind === 'list' ? 'parentNotList' : 'parentNotMap', parent: parent.path, type: parent.field.typeText };
    }
    if (step.kind === 'key') parent.keys.set(step.name, node);
    else if (step.kind === 'any') parent.anyKey = node;
    else parent.items = node;
    nodes.set(node.path, node);
    return { node };
  };
  const resolve = (steps: readonly PathStep[]): Resolved => {
    const key = pathText(steps);
    const known = nodes.get(key);
    if (known) return { node: known };
    const last = steps[steps.length - 1]!;
    // a named key must be declared (its type and whether it is required are the author's to say);
    // a declared parent that is not in the tree had a problem of its own
    if (last.kind === 'key' || byPath.has(key)) return { problem: 'noParent', parent: key, type: '' };
    const parent = resolve(steps.slice(0, -1));
    if ('problem' in parent) return parent;
    return attach(parent.node, last, { field: null, path: key, keys: new Map(), anyKey: null, items: null });
  };
  const accepted = new Set<SchemaField>();
  for (const field of [...fields].sort((a, b) => a.steps.length - b.steps.length)) {
    const parent = resolve(field.steps.slice(0, -1));
    const done =
      'problem' in parent
        ? parent
        : attach(parent.node, field.steps[field.steps.length - 1]!, {
            field,
            path: field.path,
            keys: new Map(),
            anyKey: null,
            items: null,
          });
    if ('problem' in done) {
      problems.push({ messageId: done.problem, data: { field: field.path, parent: done.parent, type: done.type }, ...at(field.row.field) });
      byPath.delete(field.path);
    } else accepted.add(field);
  }
  const compiled = fields.filter((f) => accepted.has(f));

  const values = new Map<string, string[]>();
  for (const row of facts.values) {
    if (!states.has(row.state.text)) {
      problems.push({ messageId: 'unknownState', data: { value: row.value.text, state: row.state.text }, ...at(row.state) });
      continue;
    }
    const list = values.get(row.value.text) ?? [];
    if (!list.includes(row.state.text)) list.push(row.state.text);
    values.set(row.value.text, list);
  }
  if (facts.values.length > 0 && !compiled.some((f) => f.type.kind === 'types' && f.type.types.includes('state'))) {
    const first = facts.values[0]!;
    problems.push({ messageId: 'valuesUnused', data: {}, ...at(first.value) });
  }
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  return { root, fields: compiled, values, states, problems };
}
