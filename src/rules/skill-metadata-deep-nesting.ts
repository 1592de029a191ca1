import { defineRule } from '../engine/rule.js';
import { entryPlace, frontmatterField, usableFrontmatter, valueKind } from './lib/frontmatter-fields.js';
import { DOCS, metadataNamespace } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'skill-metadata-deep-nesting',
    defaultSeverity: 'warning',
    // heuristic: the specification types metadata as strings, but neither its own validator (skills-ref
    // turns every value into text) nor any loader enforces it, so a skill that breaks it works everywhere;
    // whether the default set keeps it is a measured question, as for guidance
    certainty: 'heuristic',
    loaders: {
      spec: { does: 'rejects', source: DOCS.specMetadata, note: 'a map from string keys to string values' },
    },
    category: 'frontmatter',
    reads: ['frontmatter'],
    local: true,
    description: 'Require every metadata value to be a plain value, not a nested map or list',
    scope: 'skill',
    reference: 'improved',
    messages: {
      nested: {
        message: "metadata key '{key}' is nested more than one level deep. metadata supports only string-to-string maps",
        help: 'Agent Skills metadata maps string keys to string values: turn the {kind} under `{child}` into flat keys such as `{child}-<name>: value`, or into one string.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const meta = frontmatterField(skill, 'metadata');
      if (!meta || meta.kind !== 'map') continue;
      // direct children of `metadata`, in document order
      for (const e of usableFrontmatter(skill)?.nested ?? []) {
        if (e.path.length !== 2 || e.path[0] !== 'metadata') continue;
        const child = e.path[1]!;
        // a loader's own namespace (metadata.openclaw, metadata.hermes) holds maps and lists by its design
        if (metadataNamespace(child)) continue;
        const kind = valueKind(e.value);
        if (kind !== 'map' && kind !== 'list') continue;
        report({
          messageId: 'nested',
          data: { key: e.key, child, kind },
          at: entryPlace(skill, e),
          skill: skill.name,
        });
      }
    }
  },
});
