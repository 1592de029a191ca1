/**
 * Reads and validates `.loopkit.yaml`. Never prints and never falls back to defaults silently:
 * a broken file is a ConfigError (exit 2) that says where and what was expected.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import { closest } from '../util/closest.js';
import { CONFIG_FILE, ConfigError, type ConfigIssue } from './errors.js';
import { readConfigFile, type ConfigSource } from './read.js';

export { CONFIG_FILE, ConfigError, type ConfigIssue };
import { CONFIG_KEYS, configSchema, defaultConfig, OVERRIDE_KEYS, type Config, type ConfigPositions } from './schema.js';

const issue = (line: number | null, column: number | null, field: string | null, detail: string): ConfigIssue => ({
  line,
  column,
  field,
  detail,
});

/** A located problem in the config that does not stop the run. */
export interface ConfigWarning {
  code: 'config-unknown-key';
  message: string;
  help: string;
  line: number;
  column: number;
}

export interface LoadedConfig {
  config: Config;
  /** dotted path → where the key is written */
  positions: ConfigPositions;
  /** dotted path → where the value is written */
  valuePositions: ConfigPositions;
  /** project-relative file name, or null when the project has no config */
  file: string | null;
  warnings: ConfigWarning[];
}

type Pos = { line: number; column: number };

function collectPositions(
  node: YamlNode | null | undefined,
  path: string,
  lc: LineCounter,
  keys: Map<string, Pos>,
  values: Map<string, Pos>,
): void {
  if (!node) return;
  if (node.range) {
    const p = lc.linePos(node.range[0]);
    if (path !== '') values.set(path, { line: p.line, column: p.col });
  }
  if (isMap(node)) {
    for (const pair of node.items) {
      const keyNode = pair.key as YamlNode | null;
      const key = isScalar(keyNode) ? String(keyNode.value) : String(keyNode);
      const child = path === '' ? key : `${path}.${key}`;
      if (keyNode && keyNode.range) {
        const p = lc.linePos(keyNode.range[0]);
        keys.set(child, { line: p.line, column: p.col });
      }
      collectPositions(pair.value as YamlNode | null, child, lc, keys, values);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => {
      const child = `${path}.${i}`;
      const n = item as YamlNode;
      if (n && n.range) {
        const p = lc.linePos(n.range[0]);
        keys.set(child, { line: p.line, column: p.col });
      }
      collectPositions(n, child, lc, keys, values);
    });
  }
}

/** Load `<root>/.loopkit.yaml`. Throws ConfigError for anything the user must fix. */
export function loadConfig(root: string): LoadedConfig {
  return configFromSource(readConfigFile(root));
}

/** The configuration a config file (or its absence) gives. */
export function configFromSource(source: ConfigSource): LoadedConfig {
  if (source.text === null) return { config: defaultConfig(), positions: new Map(), valuePositions: new Map(), file: null, warnings: [] };
  return parseConfigText(source.text, source.file);
}

/** Parse and validate config text (exported for tests). */
export function parseConfigText(text: string, file: string): LoadedConfig {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const err = doc.errors[0]!;
    const p = lc.linePos(err.pos[0]);
    const msg = err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw new ConfigError(file, issue(p.line, p.col, null, `invalid YAML: ${msg}`));
  }
  const keys = new Map<string, Pos>();
  const values = new Map<string, Pos>();
  collectPositions(doc.contents as YamlNode | null, '', lc, keys, values);

  const raw = doc.toJS({ maxAliasCount: 100 }) as unknown;
  let data: Record<string, unknown>;
  if (raw === null || raw === undefined) {
    data = {};
  } else if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError(file, issue(1, 1, null, 'expected a mapping of settings at the top level'));
  } else {
    data = raw as Record<string, unknown>;
  }

  const warnings: ConfigWarning[] = [];
  const unknownKey = (key: string, path: string, where: string, known: readonly string[]) => {
    const pos = keys.get(path) ?? { line: 1, column: 1 };
    const suggestion = closest(key, known);
    warnings.push({
      code: 'config-unknown-key',
      message: `Unknown key '${key}' ${where}${suggestion ? `; did you mean '${suggestion}'?` : ''}`,
      help: suggestion
        ? `Rename '${key}' to '${suggestion}', or remove it. Unknown keys are ignored.`
        : `Remove '${key}'. Known keys: ${known.join(', ')}.`,
      line: pos.line,
      column: pos.column,
    });
  };
  for (const key of Object.keys(data)) {
    if (!CONFIG_KEYS.includes(key)) unknownKey(key, key, `in ${file}`, CONFIG_KEYS);
  }
  // the keys of each overrides: entry (a mistyped `file:` would otherwise be dropped unseen)
  const inEntries: ConfigWarning[] = [];
  if (Array.isArray(data.overrides)) {
    data.overrides.forEach((entry: unknown, i) => {
      if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return;
      for (const key of Object.keys(entry)) {
        if (!OVERRIDE_KEYS.includes(key)) {
          unknownKey(key, `overrides.${i}.${key}`, `in overrides entry ${i + 1}`, OVERRIDE_KEYS);
          inEntries.push(warnings[warnings.length - 1]!);
        }
      }
    });
  }
  warnings.sort((a, b) => a.line - b.line || a.column - b.column);

  const parsed = configSchema.safeParse(data);
  if (!parsed.success) {
    // report the first issue in document order
    const issues = parsed.error.issues.map((issue) => {
      const field = issue.path.map(String).join('.');
      let pos: Pos | undefined;
      for (let n = issue.path.length; n > 0 && !pos; n--) {
        const p = issue.path.slice(0, n).map(String).join('.');
        pos = values.get(p) ?? keys.get(p);
      }
      return { issue, field, pos: pos ?? { line: 1, column: 1 } };
    });
    // an unknown key in an overrides: entry explains a missing `files:` (`file: x`: did you mean 'files'?)
    const located = [
      ...issues.map((i) => issue(i.pos.line, i.pos.column, i.field || null, i.issue.message)),
      ...inEntries.map((w) => issue(w.line, w.column, null, w.message)),
    ];
    located.sort((a, b) => a.line! - b.line! || a.column! - b.column!);
    throw new ConfigError(file, located);
  }
  return { config: parsed.data, positions: keys, valuePositions: values, file, warnings };
}

/**
 * A problem with entry `i` of a list key (`plugins:`, `extends:`) of a loaded config, located at
 * that entry (at the key's value where the file writes one value rather than a list).
 */
export function entryError(loaded: LoadedConfig, key: string, i: number, detail: string): ConfigError {
  const field = loaded.valuePositions.has(`${key}.0`) ? `${key}.${i}` : key;
  const pos = loaded.valuePositions.get(field) ?? loaded.positions.get(field) ?? loaded.positions.get(key) ?? null;
  return new ConfigError(loaded.file ?? CONFIG_FILE, { line: pos?.line ?? null, column: pos?.column ?? null, field: null, detail });
}
