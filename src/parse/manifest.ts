/**
 * Claude Code plugin manifests (https://code.claude.com/docs/en/plugins-reference): a plugin's
 * `.claude-plugin/plugin.json`, whose `skills`, `agents` and `commands` name paths (a string or a
 * list, relative to the plugin's root, starting with `./`), and a marketplace's
 * `.claude-plugin/marketplace.json`, whose `plugins[].source` names a plugin's folder when it is a
 * relative path: from the marketplace's root when it starts with `./` or `../`, and a bare name
 * (`formatter`) under `metadata.pluginRoot` when that is set (Claude Code 2.1.239: "bare plugin source
 * names now resolve under it"; sources that start with `./` are unaffected). Other sources (GitHub,
 * git, npm) are not looked up.
 */
import { posix } from 'node:path';
import type { ManifestPath, PluginManifest } from '../model/agents.js';
import { nodeAt, parseJson, type DataNode } from './data.js';

/** The fields of plugin.json that name paths of the plugin's components. */
export const PLUGIN_PATH_FIELDS = ['skills', 'agents', 'commands'] as const;

/** The project-relative place a relative path names from a folder; null when it leaves the project or is absolute or a URL. */
export function placeOf(folder: string, path: string): string | null {
  if (path === '' || path.startsWith('/') || /^[a-z][\w+.-]*:/iu.test(path) || path.includes('\\')) return null;
  const joined = posix.normalize(folder === '' ? path : `${folder}/${path}`).replace(/\/+$/u, '');
  if (joined === '..' || joined.startsWith('../')) return null;
  return joined === '.' ? '' : joined;
}

/** Read a manifest at `file` (project-relative). `exists` says whether a project-relative place exists. */
export function parseManifest(file: string, text: string, exists: (place: string) => boolean): PluginManifest {
  const kind = file.endsWith('marketplace.json') ? 'marketplace' : 'plugin';
  const dir = posix.dirname(file);
  const root = dir === '.claude-plugin' ? '' : dir.slice(0, -'/.claude-plugin'.length);
  const manifest: PluginManifest = { file, kind, root, paths: [] };
  const parsed = parseJson(text);
  if ('error' in parsed) {
    manifest.error = parsed.error;
    return manifest;
  }
  const paths: ManifestPath[] = [];
  const named: { name: string; place: string }[] = [];
  const add = (field: string, node: DataNode, base: string) => {
    if (node.kind !== 'string') return;
    const place = placeOf(base, node.value);
    paths.push({ field, path: node.value, place, exists: place !== null && exists(place), line: node.line, column: node.column });
  };
  if (kind === 'plugin') {
    const name = nodeAt(parsed.root, ['name']);
    if (name?.kind === 'string' && name.value !== '') named.push({ name: name.value, place: root });
    for (const field of PLUGIN_PATH_FIELDS) {
      const node = nodeAt(parsed.root, [field]);
      if (node?.kind === 'string') add(field, node, root);
      else if (node?.kind === 'array') node.items.forEach((item) => add(field, item, root));
    }
  } else {
    const pluginRoot = nodeAt(parsed.root, ['metadata', 'pluginRoot']);
    const bareBase = pluginRoot?.kind === 'string' ? (placeOf(root, pluginRoot.value) ?? root) : root;
    const plugins = nodeAt(parsed.root, ['plugins']);
    if (plugins?.kind === 'array') {
      plugins.items.forEach((_, i) => {
        const source = nodeAt(parsed.root, ['plugins', i, 'source']);
        if (source?.kind !== 'string') return;
        const bare = !/^\.\.?(?:\/|$)/u.test(source.value);
        add(`plugins.${i}.source`, source, bare ? bareBase : root);
        const name = nodeAt(parsed.root, ['plugins', i, 'name']);
        const place = paths[paths.length - 1]!.place;
        if (name?.kind === 'string' && name.value !== '' && place !== null) named.push({ name: name.value, place });
      });
    }
  }
  manifest.paths = paths;
  if (named.length > 0) manifest.plugins = named;
  return manifest;
}
