/**
 * Plugins: a team's own rules, named in `.loopkit.yaml` `plugins:`, run with the core rules.
 *
 * A plugin is a module whose default export is `{ name, version?, rules }` (definePlugin): `rules`
 * maps a rule's name to a rule written with defineRule, and the rule's code is `<name>/<rule>`. A
 * specifier is a path relative to the config file (`./loopkit-rules/acme.mjs`; the project root, where
 * `.loopkit.yaml` is) or a package name, resolved from the project root as Node's `require.resolve`
 * resolves it. Anything wrong with a plugin — not found, not loadable, a throw while it loads, an
 * export of the wrong shape — is a ConfigError located at its line of `.loopkit.yaml` that names the
 * plugin's file (exit 2); a throw inside a rule's check is the engine's `internal-error` finding.
 *
 * Loading a plugin runs its code: the MCP server, which an agent may point at anything, never does
 * (api/engine.ts `plugins: false`).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { entryError, type ConfigError, type LoadedConfig } from '../config/load.js';
import { isPathSpecifier, resolvePackage } from '../config/module-path.js';
import { importModule } from '../util/import-module.js';
import { climbsOut } from '../util/paths.js';
import type { Severity } from '../engine/diagnostic.js';
import { READS, type Read } from '../engine/reads.js';
import type { Certainty, FilePart, FixPart, MessageTemplate, Rule, RuleCategory, RuleContext, RuleMeta } from '../engine/rule.js';

/** What a plugin's rule says of itself; the rest of a core rule's meta has defaults. */
export interface PluginRuleMeta<M extends string = string> {
  /** one line: what the rule checks */
  description: string;
  /** the messages the rule reports, by id: `{placeholder}` templates of the message and its hint */
  messages: Record<M, MessageTemplate>;
  /** the severity when `.loopkit.yaml` sets none (default `warning`) */
  defaultSeverity?: Severity;
  /**
   * `definite` (default): what it reports is broken by the team's own policy; `heuristic`: a guess,
   * never an error where a preset forbids heuristic errors (docs/presets.md)
   */
  certainty?: Certainty;
  /** does the rule judge the whole project once, or each skill (default)? */
  scope?: 'project' | 'skill';
  category?: RuleCategory;
  /** the address of the rule's documentation: `loopkit explain` and the editors link it */
  docs?: string;
  /** the rule reads the markdown files SKILL.md links to (they are parsed only when a rule asks) */
  references?: boolean;
  /**
   * What its `check` reads (engine/reads.ts: frontmatter, body, loop, graph, references, files,
   * agents): an editor re-runs it only when one of these changed. Absent: everything.
   */
  reads?: readonly Read[];
}

/** A plugin's rule: the core rules' parts (engine/rule.ts) with a shorter meta. */
export interface PluginRule<M extends string = string, D = unknown> {
  meta: PluginRuleMeta<M>;
  file?: FilePart<M, D>;
  check?(ctx: RuleContext<M, D>): void;
  fix?: FixPart<M>;
}

/** What a plugin module exports by default. */
export interface Plugin {
  /** the prefix of its codes: lower-case letters, digits and hyphens (`acme` → `acme/<rule>`) */
  name: string;
  /** default: the version of the package.json nearest to the module */
  version?: string;
  /** rule name (lower-case letters, digits, hyphens) → rule */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  rules: Record<string, PluginRule<any, any>>;
}

/** A plugin's name, or a rule's name in it: lower-case letters, digits and hyphens. */
export const NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/u;

/** Identity at run time: types a plugin's rule (messageId and data checked against its messages). */
export function defineRule<M extends string, D = never>(rule: PluginRule<M, D>): PluginRule<M, D> {
  return rule;
}

/** Identity at run time: types a plugin module's default export. */
export function definePlugin<P extends Plugin>(plugin: P): P {
  return plugin;
}

/** A `plugins:` entry, found: where it is written and the module it names. */
export interface PluginModule {
  /** as written in `.loopkit.yaml` */
  specifier: string;
  /** the module's absolute path */
  file: string;
}

const SEVERITIES: readonly string[] = ['error', 'warning', 'info'];

/** The plugins a loaded config names, found on disk (a located ConfigError for one that is not there). */
export function findPlugins(root: string, loaded: LoadedConfig): PluginModule[] {
  const out: PluginModule[] = [];
  loaded.config.plugins.forEach((specifier, i) => {
    const fail = (detail: string) => configProblem(loaded, i, detail);
    let file: string;
    if (isPathSpecifier(specifier)) {
      file = resolve(root, specifier);
      if (!existsSync(file) || !statSync(file).isFile()) throw fail(`plugin '${specifier}' not found: no file ${shown(root, file)}`);
    } else {
      const found = resolvePackage(root, specifier);
      if (found === null)
        throw fail(
          `plugin '${specifier}' not found: no package of that name is installed where the project can import it (npm install --save-dev ${specifier})`,
        );
      file = found;
    }
    if (out.some((p) => p.file === file)) throw fail(`plugin '${specifier}' is named twice`);
    out.push({ specifier, file });
  });
  return out;
}

/** Load the plugins a loaded config names: their modules, and their rules, each with its code `<plugin>/<rule>`. */
export async function loadPlugins(root: string, loaded: LoadedConfig): Promise<{ modules: PluginModule[]; rules: Rule[] }> {
  const modules = findPlugins(root, loaded);
  const rules: Rule[] = [];
  const names = new Map<string, string>();
  for (const [i, m] of modules.entries()) {
    const plugin = await importPlugin(root, m, (detail) => configProblem(loaded, i, detail));
    const other = names.get(plugin.name);
    if (other !== undefined)
      throw configProblem(
        loaded,
        i,
        `plugin '${m.specifier}' is named '${plugin.name}', as '${other}' is: two plugins cannot share a name (the prefix of their codes)`,
      );
    names.set(plugin.name, m.specifier);
    rules.push(...plugin.rules);
  }
  return { modules, rules };
}

/** A loaded plugin: its name and its rules, made whole. */
export interface LoadedPlugin {
  name: string;
  rules: Rule[];
}

/**
 * Import one plugin module and make its rules whole (code, defaults, origin). `fail` makes the error
 * of a problem with it (a located ConfigError; a plain Error on a worker thread).
 */
export async function importPlugin(root: string, m: PluginModule, fail: (detail: string) => Error): Promise<LoadedPlugin> {
  const where = shown(root, m.file);
  const hash = createHash('sha256').update(readFileSync(m.file)).digest('hex').slice(0, 16);
  // the module as it is now: a process that loaded it before (a server) loads an edited module again
  const url = `${pathToFileURL(m.file).href}?${hash}`;
  let mod: unknown;
  try {
    mod = await importModule(url);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ERR_UNKNOWN_FILE_EXTENSION')
      throw fail(
        `plugin '${m.specifier}' (${where}) cannot be loaded by Node ${process.versions.node} as it is: compile it to JavaScript (.mjs or .js); Node 22.18 and later load .ts files themselves`,
      );
    throw fail(`plugin '${m.specifier}' failed to load: ${firstLine(err)}${throwPlace(err, url, m.file, root)}`);
  }
  const exported = (mod as { default?: unknown }).default ?? mod;
  const bad = (detail: string) => fail(`plugin '${m.specifier}' (${where}): ${detail}`);
  if (exported === null || typeof exported !== 'object') throw bad('its default export must be { name, rules }');
  const plugin = exported as Partial<Plugin>;
  if (typeof plugin.name !== 'string' || !NAME.test(plugin.name))
    throw bad(`its name must be lower-case letters, digits and hyphens (the prefix of its codes), not ${JSON.stringify(plugin.name)}`);
  if (plugin.rules === null || typeof plugin.rules !== 'object' || Array.isArray(plugin.rules))
    throw bad('its rules must be an object: rule name → rule (defineRule)');
  const version = typeof plugin.version === 'string' ? plugin.version : packageVersion(m.file);
  const origin = `${plugin.name}@${version}#${hash}`;
  const rules: Rule[] = [];
  for (const key of Object.keys(plugin.rules).sort()) {
    const problem = ruleProblem(key, plugin.rules[key]);
    if (problem !== null) throw bad(`rule '${key}': ${problem}`);
    rules.push(wholeRule(plugin.name, key, plugin.rules[key]!, origin));
  }
  return { name: plugin.name, rules };
}

/** What is wrong with a plugin's rule as exported, or null. */
export function ruleProblem(key: string, rule: unknown): string | null {
  if (!NAME.test(key)) return 'its name must be lower-case letters, digits and hyphens';
  if (rule === null || typeof rule !== 'object') return 'expected a rule (defineRule({ meta, check }))';
  const r = rule as Partial<PluginRule>;
  const meta = r.meta as Partial<PluginRuleMeta> | undefined;
  if (meta === null || typeof meta !== 'object') return 'has no meta';
  if (typeof meta.description !== 'string' || meta.description === '') return 'meta.description must be a line of text';
  if (meta.messages === null || typeof meta.messages !== 'object' || Object.keys(meta.messages).length === 0)
    return 'meta.messages must name at least one message: { id: { message } }';
  for (const [id, t] of Object.entries(meta.messages))
    if (t === null || typeof t !== 'object' || typeof (t as MessageTemplate).message !== 'string')
      return `meta.messages.${id} must be { message, help? }`;
  if (meta.defaultSeverity !== undefined && !SEVERITIES.includes(meta.defaultSeverity))
    return `meta.defaultSeverity must be one of ${SEVERITIES.join(', ')}`;
  if (meta.certainty !== undefined && meta.certainty !== 'definite' && meta.certainty !== 'heuristic')
    return 'meta.certainty must be definite or heuristic';
  if (meta.scope !== undefined && meta.scope !== 'project' && meta.scope !== 'skill') return 'meta.scope must be project or skill';
  if (meta.reads !== undefined && (!Array.isArray(meta.reads) || meta.reads.some((r) => !READS.includes(r))))
    return `meta.reads must be a list of ${READS.join(', ')}`;
  if (r.check !== undefined && typeof r.check !== 'function') return 'check must be a function';
  if (r.file !== undefined && (typeof r.file?.check !== 'function' || !Array.isArray(r.file.kinds))) return 'file must be { kinds, check }';
  if (r.fix !== undefined && (typeof r.fix?.fix !== 'function' || !Array.isArray(r.fix.kinds))) return 'fix must be { kinds, fix }';
  if (r.check === undefined && r.file === undefined) return 'needs a check (the project phase) or a file part';
  return null;
}

/** A plugin's rule with the meta of a core rule (`origin`: for the cache, see Rule.origin). */
export function wholeRule(plugin: string, key: string, rule: PluginRule, origin?: string): Rule {
  const m = rule.meta;
  const meta: RuleMeta = {
    code: `${plugin}/${key}`,
    defaultSeverity: m.defaultSeverity ?? 'warning',
    certainty: m.certainty ?? 'definite',
    category: m.category ?? 'plugin',
    description: m.description,
    scope: m.scope ?? 'skill',
    reference: 'new',
    messages: m.messages,
    plugin,
  };
  if (rule.fix) meta.fixable = true;
  if (m.references) meta.references = true;
  if (m.docs !== undefined) meta.docs = m.docs;
  if (m.reads !== undefined) meta.reads = [...m.reads];
  const out: Rule = { meta };
  if (origin !== undefined) out.origin = origin;
  if (rule.file) out.file = rule.file;
  if (rule.check) out.check = rule.check.bind(rule);
  if (rule.fix) out.fix = rule.fix;
  return out;
}

/** The version of the package.json nearest above a module ('0' when none says). */
function packageVersion(file: string): string {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        const v = (JSON.parse(readFileSync(pkg, 'utf8')) as { version?: unknown }).version;
        return typeof v === 'string' ? v : '0';
      } catch {
        return '0';
      }
    }
    if (dirname(dir) === dir) return '0';
  }
}

/** A path as the user reads it: relative to the project when inside it. */
function shown(root: string, file: string): string {
  const rel = relative(root, file);
  return rel !== '' && !climbsOut(rel) && !isAbsolute(rel) ? rel.replace(/\\/gu, '/') : file;
}

function firstLine(e: Error): string {
  return String(e?.message ?? e).split('\n')[0]!;
}

/** ` (at file:line:col)`: where in the plugin's own file the error was thrown, when its stack says. */
function throwPlace(e: Error, url: string, file: string, root: string): string {
  for (const line of String(e?.stack ?? '').split('\n')) {
    const i = line.indexOf(url);
    if (i < 0) continue;
    const m = /^:(\d+):(\d+)/u.exec(line.slice(i + url.length));
    if (m) return ` (at ${shown(root, file)}:${m[1]}:${m[2]})`;
  }
  return ` (in ${shown(root, file)})`;
}

/** A problem with the plugin written at `plugins:` entry i, located at that entry. */
function configProblem(loaded: LoadedConfig, i: number, detail: string): ConfigError {
  return entryError(loaded, 'plugins', i, detail);
}
