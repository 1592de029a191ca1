/**
 * Shareable configs: `extends:` entries that name a YAML or JSON file, or a package, instead of a
 * preset. A shareable config is data, never code: a `.loopkit.yaml`-shaped file whose settings apply
 * where the project's own file does not write the key (like a preset's, and before the presets'),
 * whose `rules:` the project's `rules:` override code by code, and whose `overrides:` come before the
 * project's. It may extend presets, not other shareable configs. A path is relative to the project
 * root; a package is resolved from it (its `main` or `exports` must be the YAML or JSON file); either
 * must be inside the project (nothing outside it is read as its configuration).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { insideRoot } from '../parse/fs.js';
import { ConfigError, entryError, parseConfigText, type LoadedConfig } from './load.js';
import { isPathSpecifier, resolvePackage } from './module-path.js';
import { isSharedConfig, PRESET_NAMES } from './presets.js';
import type { Config } from './schema.js';

export { isSharedConfig };

/** The project's config with its shareable configs merged in, and the keys they write. */
export interface WithShared {
  loaded: LoadedConfig;
  /** keys a shareable config writes (presets do not set them) */
  written: ReadonlySet<string>;
  /** the presets of `extends:` and of the shareable configs, in order */
  presets: string[];
}

export function withSharedConfigs(root: string, loaded: LoadedConfig): WithShared {
  const own = loaded.config.extends;
  const shared = own.filter(isSharedConfig);
  const presets = own.filter((n) => !isSharedConfig(n));
  if (shared.length === 0) return { loaded, written: new Set(), presets };
  const written = new Set<string>();
  let config: Config = { ...loaded.config };
  const ownRules = config.rules;
  let rules: Config['rules'] = {};
  const overrides: Config['overrides'] = [];
  // later entries win over earlier ones; the project's file over all of them
  for (const name of shared) {
    const i = own.indexOf(name);
    const other = readShared(root, name, loaded, i);
    for (const p of other.config.extends) if (!presets.includes(p) && PRESET_NAMES.includes(p)) presets.push(p);
    for (const key of other.positions.keys()) {
      if (key.includes('.') || key === 'extends' || key === 'plugins') continue;
      if (key === 'rules') rules = { ...rules, ...other.config.rules };
      else if (key === 'overrides') overrides.push(...other.config.overrides);
      else if (!loaded.positions.has(key)) {
        (config as Record<string, unknown>)[key] = structuredClone((other.config as Record<string, unknown>)[key]);
        written.add(key);
      }
    }
  }
  config = { ...config, rules: { ...rules, ...ownRules }, overrides: [...overrides, ...config.overrides] };
  return { loaded: { ...loaded, config }, written, presets };
}

/** One shareable config, read and validated (a located ConfigError at its `extends:` entry otherwise). */
function readShared(root: string, name: string, loaded: LoadedConfig, i: number): LoadedConfig {
  const fail = (detail: string) => entryError(loaded, 'extends', i, detail);
  const file = isPathSpecifier(name) ? resolve(root, name) : resolvePackage(root, name);
  if (file === null) throw fail(`shareable config '${name}' not found: no package of that name is installed in the project`);
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    throw fail(`shareable config '${name}' not found: no file ${name}`);
  }
  if (insideRoot(real, root) === null)
    throw fail(`shareable config '${name}' is outside the project: loopkit reads no configuration from outside it`);
  if (!/\.(?:ya?ml|json)$/u.test(real))
    throw fail(
      `shareable config '${name}' is not a YAML or JSON file (${real.slice(real.lastIndexOf('/') + 1)}): a shareable config is data, never code`,
    );
  const shown = real.slice(realpathSync(root).length + 1);
  let other: LoadedConfig;
  try {
    other = parseConfigText(readFileSync(real, 'utf8'), shown);
  } catch (e) {
    // its own problems are located in its own file
    if (e instanceof ConfigError) throw e;
    throw fail(`shareable config '${name}' cannot be read: ${(e as Error).message}`);
  }
  const nested = other.config.extends.filter(isSharedConfig);
  if (nested.length > 0) throw fail(`shareable config '${name}' extends '${nested[0]}': a shareable config may extend presets only`);
  return other;
}
