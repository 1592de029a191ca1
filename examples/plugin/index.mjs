// loopkit-plugin-example: the worked example of docs/api.md. A plugin is a module whose default export
// is { name, rules }; a rule's code in a project is `<name>/<rule>`: here `example/skill-owner-required`.
import { definePlugin, defineRule } from 'loopkit';

const skillOwnerRequired = defineRule({
  meta: {
    description: 'every skill names its owner in its frontmatter (metadata.owner)',
    defaultSeverity: 'warning',
    docs: 'https://github.com/loopkit/loopkit/blob/main/examples/plugin/README.md',
    messages: {
      missing: {
        message: "Skill '{skill}' names no owner (metadata.owner)",
        help: 'Add `metadata:` with `owner: <team or person>` to the frontmatter of SKILL.md.',
      },
    },
  },
  // the project phase: every skill's frontmatter, as loopkit parsed it
  check(ctx) {
    for (const skill of ctx.project.skills) {
      const fm = skill.frontmatter;
      // a frontmatter that does not parse is skill-invalid-frontmatter's: nothing to read here
      if (fm?.error) continue;
      const owner = fm?.nested.find((e) => e.key === 'metadata.owner');
      if (typeof owner?.value === 'string' && owner.value.trim() !== '') continue;
      ctx.report({
        messageId: 'missing',
        data: { skill: skill.name },
        // at the frontmatter: its opening line (line 1 of a SKILL.md without one)
        at: { file: skill.skillFile.path, line: fm?.line ?? 1, column: 1 },
        skill: skill.name,
      });
    }
  },
});

export default definePlugin({
  name: 'example',
  rules: { 'skill-owner-required': skillOwnerRequired },
});
