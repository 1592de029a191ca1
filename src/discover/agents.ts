/**
 * Where a project's agent files and plugin manifests are (model/agents.ts): the places the loaders
 * read agents from, the plugins' folders, and the folders `agents:` in `.loopkit.yaml` names —
 * every place not ignored (the root's ignore rules: defaults, `ignores:`, the root's `.gitignore`).
 */
import { join, posix } from 'node:path';
import type { AgentLoader } from '../model/agents.js';
import { ancestors, inFolder, type SkillTargets } from '../model/targets.js';
import { exists, insideRoot, isDirectory, listDir, readText } from '../parse/fs.js';
import type { IgnoreRules } from './ignore.js';

/** An agent file found, with the loader of its place (null: none; its format decides) and why. */
export interface AgentPlace {
  /** project-relative path of the file */
  path: string;
  loader: AgentLoader | null;
  /** the place, for messages: `.opencode/agent/` */
  why: string;
}

export interface AgentDiscovery {
  agents: AgentPlace[];
  /** project-relative paths of the plugin and marketplace manifests, sorted */
  manifests: string[];
}

/** The folders the loaders read agents from, relative to the project root. */
const LOADER_PLACES: readonly { folder: string; loader: AgentLoader | null }[] = [
  { folder: '.opencode/agent', loader: 'opencode' },
  { folder: '.opencode/agents', loader: 'opencode' },
  { folder: '.claude/agents', loader: 'claude-code' },
  // a collection's agents (as forge's): either loader's format
  { folder: 'agents', loader: null },
];

/**
 * The agent files and manifests of the project at `root`. `skillDirs`: the skills' folders (a
 * plugin manifest is looked for above each); `named`: the folders or files `agents:` names.
 */
export function discoverAgents(root: string, rules: IgnoreRules, skillDirs: readonly string[], named: readonly string[]): AgentDiscovery {
  const readme = readText(join(root, '.gitignore'), root);
  const here = 'text' in readme ? rules.withGitignore('', readme.text) : rules;
  const ignored = (path: string, isDir: boolean) => {
    const parts = path.split('/');
    return parts.some((_, i) => here.test(parts.slice(0, i + 1).join('/'), i < parts.length - 1 || isDir) !== null);
  };
  const inside = (path: string) => insideRoot(join(root, path), root) !== null;
  const manifests = new Set<string>();
  const folders = new Set<string>(['', ...skillDirs.flatMap(ancestors)]);
  const lookFor = (folder: string) => {
    for (const name of ['plugin.json', 'marketplace.json']) {
      const path = inFolder(folder, `.claude-plugin/${name}`);
      if (!ignored(path, false) && inside(path) && exists(join(root, path))) manifests.add(path);
    }
  };
  for (const folder of folders) lookFor(folder);
  const agents = new Map<string, AgentPlace>();
  const addFolder = (folder: string, loader: AgentLoader | null, why: string) => {
    if (ignored(folder, true) || !inside(folder) || !isDirectory(join(root, folder))) return;
    for (const e of listDir(join(root, folder), root)) {
      const path = inFolder(folder, e.name);
      if (e.kind !== 'file' || !/\.md$/iu.test(e.name) || /^readme\.md$/iu.test(e.name) || ignored(path, false)) continue;
      if (!agents.has(path)) agents.set(path, { path, loader, why });
    }
  };
  for (const { folder, loader } of LOADER_PLACES) addFolder(folder, loader, `${folder}/`);
  // a plugin's agents: its `agents/` folder (Claude Code installs plugins)
  for (const m of [...manifests].filter((p) => p.endsWith('plugin.json'))) {
    const pluginRoot = m === '.claude-plugin/plugin.json' ? '' : m.slice(0, -'/.claude-plugin/plugin.json'.length);
    if (pluginRoot !== '') addFolder(inFolder(pluginRoot, 'agents'), 'claude-code', `${inFolder(pluginRoot, 'agents')}/ of a plugin`);
  }
  for (const place of named) {
    // `./x`, `x//`, `x/./y`; `.` and `./` are the root
    const folder = posix.normalize(place).replace(/\/+$/u, '').replace(/^\.$/u, '');
    if (folder !== '' && !isDirectory(join(root, folder)) && /\.md$/iu.test(folder) && !ignored(folder, false) && inside(folder)) {
      if (!agents.has(folder)) agents.set(folder, { path: folder, loader: null, why: '.loopkit.yaml agents:' });
    } else addFolder(folder, null, '.loopkit.yaml agents:');
  }
  // a plugin found at the root's agents/ is Claude Code's
  if (manifests.has('.claude-plugin/plugin.json')) {
    for (const a of agents.values()) if (a.path.startsWith('agents/') && a.loader === null) a.loader = 'claude-code';
  }
  return {
    agents: [...agents.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    manifests: [...manifests].sort(),
  };
}

/**
 * The loaders an agent file is written for: its place's loader, or — in a folder no loader reads by
 * itself (a collection's `agents/`, a folder `agents:` names) — the loader whose format it is
 * written in, read by the other loader too when someone installs it there (a warning `not
 * portable` for what only that loader rejects).
 */
export function agentLoaders(place: AgentPlace, format: AgentLoader): SkillTargets {
  if (place.loader !== null) return { targets: [place.loader], alsoReadBy: [], why: `in ${place.why}`, named: false, always: true };
  const other: AgentLoader = format === 'opencode' ? 'claude-code' : 'opencode';
  return {
    targets: [format],
    alsoReadBy: [other],
    why: `in ${place.why}, written in ${format === 'opencode' ? 'OpenCode’s format (permission:, mode:)' : 'Claude Code’s format'}`,
    named: false,
    always: true,
  };
}
