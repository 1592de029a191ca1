/**
 * The JSON Schema of .loopkit.yaml (schema/loopkit.schema.json): generated from the zod schema and
 * current; it accepts what loopkit accepts and rejects what loopkit rejects.
 */
import Ajv from 'ajv';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseConfigText } from '../src/config/load.js';
import { CONFIG_KEYS } from '../src/config/schema.js';
import { configJsonSchemaText, KEY_DESCRIPTIONS } from '../src/dev/json-schema.js';
import { ruleIndex } from '../src/api/engine.js';
import { rules } from '../src/rules/index.js';

const ROOT = join(import.meta.dirname, '..');
const SCHEMA_FILE = join(ROOT, 'schema', 'loopkit.schema.json');
const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as object;
const validate = new Ajv({ allErrors: true }).compile(schema);

/** Every .loopkit.yaml of the repository: dogfood, examples and fixtures. */
function configFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === '.git' || name === 'dist') continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name === '.loopkit.yaml') out.push(p);
    }
  };
  walk(ROOT);
  return out.sort();
}

/** What loopkit says about a config text: ok, ok with unknown-key warnings, or an error. */
function loopkitVerdict(text: string): 'ok' | 'unknown-key' | 'error' {
  try {
    const loaded = parseConfigText(text, '.loopkit.yaml');
    // unknown rule names under rules: are a configuration error of the engine (run.ts)
    const index = ruleIndex();
    const named = [loaded.config.rules, ...loaded.config.overrides.map((o) => o.rules)].flatMap((r) => Object.keys(r));
    if (named.some((r) => !index.has(r))) return 'error';
    return loaded.warnings.length > 0 ? 'unknown-key' : 'ok';
  } catch {
    return 'error';
  }
}

function schemaAccepts(text: string): boolean {
  let data: unknown;
  try {
    data = parse(text) ?? {};
  } catch {
    return false;
  }
  return validate(data) === true;
}

/** Cross-field checks JSON Schema does not express (a switch on with an empty field): loopkit rejects, the schema accepts. */
const CROSS_FIELD = /(deskcheck|bug_feedback)_enabled: true/u;

describe('schema/loopkit.schema.json', () => {
  it('is generated from the zod schema and up to date (run `npm run docs`)', () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(configJsonSchemaText(rules));
  });

  it('is shipped in the package and describes every key', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('schema');
    expect(Object.keys(KEY_DESCRIPTIONS).sort()).toEqual([...CONFIG_KEYS].sort());
    const props = (schema as { properties: Record<string, { description: string }> }).properties;
    expect(Object.keys(props)).toEqual([...CONFIG_KEYS]);
    for (const k of CONFIG_KEYS) expect(props[k]!.description.length, k).toBeGreaterThan(10);
  });

  it('accepts the dogfood and example configurations', () => {
    for (const f of ['.loopkit.yaml', 'examples/loop/.loopkit.yaml', 'examples/loop-controller/.loopkit.yaml']) {
      const ok = schemaAccepts(readFileSync(join(ROOT, f), 'utf8'));
      expect(ok, `${f}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('agrees with loopkit on every configuration in the repository', () => {
    const files = configFiles();
    expect(files.length).toBeGreaterThan(50);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      const verdict = loopkitVerdict(text);
      const accepted = schemaAccepts(text);
      const name = relative(ROOT, f);
      if (verdict === 'ok') expect(accepted, `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      else if (verdict === 'unknown-key') expect(accepted, `${name} has an unknown key`).toBe(false);
      else if (!CROSS_FIELD.test(text)) expect(accepted, `${name} is rejected by loopkit`).toBe(false);
    }
  });

  it('rejects a broken configuration, naming each problem', () => {
    const broken = [
      'max_iterations: -1',
      'deskcheck_enabled: yes',
      'extends: loop-langauge',
      'halt_reason: [stall]',
      'rules:',
      '  sim-eror: off',
      '  loop-unknown-halt: fatal',
      'enforced_states:',
      '  - agent: qa',
      'skills_dir: {a: b}',
    ].join('\n');
    expect(loopkitVerdict(broken)).toBe('error');
    expect(schemaAccepts(broken)).toBe(false);
    const paths = (validate.errors ?? []).map((e) => `${e.dataPath} ${e.message}`).join('\n');
    for (const where of ['.max_iterations', '.deskcheck_enabled', '.extends', '.rules', "['enforced_states']", '.skills_dir']) {
      expect(paths, where).toContain(where.startsWith('[') ? 'enforced_states' : where);
    }
    expect(paths).toContain('should NOT have additional properties');
  });

  it('rejects what loopkit rejects in overrides: no files, no glob, an unknown rule, an unknown key in an entry', () => {
    for (const text of [
      'overrides:\n  - rules:\n      skill-broken-link: off\n',
      'overrides:\n  - files: []\n',
      'overrides:\n  - files: ""\n',
      'overrides:\n  - files: skills/**\n    rules:\n      skill-broken-links: off\n',
      'overrides:\n  - files: skills/**\n    rules:\n      skill-broken-link: fatal\n',
      'overrides:\n  - files: skills/**\n    rule:\n      skill-broken-link: off\n',
      'overrides: skills/**\n',
    ]) {
      expect(loopkitVerdict(text), text).not.toBe('ok');
      expect(schemaAccepts(text), text).toBe(false);
    }
  });

  it('accepts the forms loopkit reads: empty values, a lone string for a list, numbers as text, aliases under rules', () => {
    for (const text of [
      '',
      'skills_dir:\nhalt_reasons:\nextends: agent-skills\n',
      'skills_dir: agents/skills\nextends: [loop-language]\n',
      'standard_verbs: [trigger, 2]\nrules:\n  loop-unknown-halt-reason: warn\n  sim-error: off\n',
      'enforced_states:\n  - name: done\n    agent:\n    x-note: kept\nloop_state_files: []\n',
      'overrides:\n  - files: skills/legacy/\n    rules:\n      skill-broken-link: warn\n  - files: ["*.md", "skills/**/SKILL.md"]\n',
      'overrides:\n',
    ]) {
      expect(loopkitVerdict(text), text).toBe('ok');
      expect(schemaAccepts(text), `${text}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });
});
