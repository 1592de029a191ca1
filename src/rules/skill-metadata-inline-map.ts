import { defineRule } from '../engine/rule.js';
import { entryPlace, frontmatterField } from './lib/frontmatter-fields.js';
import { DOCS, metadataNamespace } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'skill-metadata-inline-map',
    defaultSeverity: 'warning',
    certainty: 'definite',
    loaders: {
      spec: { does: 'rejects', source: DOCS.specMetadata, note: 'a map from string keys to string values' },
    },
    category: 'frontmatter',
    reads: ['frontmatter'],
    local: true,
    description: 'Require metadata to be a block map of indented sub-keys',
    scope: 'skill',
    reference: 'improved',
    fixable: true,
    messages: {
      inline: {
        message: 'metadata should use indented sub-keys, not inline maps. Use:\n  metadata:\n    category: my-category',
        help: 'Strict YAML readers such as the Agent Skills reference validator reject flow style (`{…}`, `[…]`).',
      },
      notMap: {
        message: 'metadata must be a map of string keys to string values, not a {kind}',
        help: 'Write each entry as an indented `key: value` line under `metadata:`.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const f = frontmatterField(skill, 'metadata');
      if (!f || f.kind === 'null') continue;
      const at = entryPlace(skill, f.entry);
      if ((f.kind === 'map' || f.kind === 'list') && /^[{[]/u.test(f.entry.source ?? '')) {
        // OpenClaw reads metadata only as one line of JSON: there the inline map is required
        if (f.kind === 'map' && Object.keys(f.entry.value as object).some((k) => metadataNamespace(k)?.oneLine === true)) continue;
        report({ messageId: 'inline', data: {}, at, skill: skill.name });
      } else if (f.kind !== 'map') {
        const kind = f.kind === 'list' ? 'list' : f.kind === 'string' ? 'string' : `${typeof f.entry.value} value`;
        report({ messageId: 'notMap', data: { kind }, at, skill: skill.name });
      }
    }
  },
  // --fix: a flow map (`metadata: {a: b}`) becomes a block map, each entry as written
  fix: {
    kinds: ['skill'],
    messages: ['inline'],
    async fix({ file, facts }) {
      const fm = facts.skill?.frontmatter;
      const entry = fm?.entries.find((e) => e.key === 'metadata');
      if (!fm || !entry || fm.endLine === null || fm.error) return [];
      const { flowMapToBlock } = await import('./lib/yaml-block.js');
      const edit = flowMapToBlock(file, fm.endLine, 'metadata', entry.column);
      return edit ? [edit] : [];
    },
  },
});
