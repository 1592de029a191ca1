import { defineRule } from '../engine/rule.js';
import { similarName } from '../util/closest.js';
import { EVERY } from './lib/loaders.js';

/** An agent allows (opencode, by name) or preloads (Claude Code `skills:`) a skill the project does not have. */
export default defineRule({
  meta: {
    code: 'agent-unknown-skill',
    defaultSeverity: 'warning',
    certainty: 'definite',
    loaders: EVERY,
    category: 'cross-references',
    reads: ['frontmatter', 'agents'],
    description: 'Check that the skills an agent allows by name or preloads exist in the project',
    scope: 'project',
    reference: 'new',
    messages: {
      unknown: {
        message: 'Agent `{agent}` {verb} skill `{skill}`, which the project does not have{suggestion}',
        help: 'A skill installed outside the project (a user-level folder) is not seen: if it is one, turn the rule off for this file (`overrides:` in .loopkit.yaml); else fix the name or add the skill.',
      },
    },
  },
  check({ project, report }) {
    if (project.agents.length === 0) return;
    const names = [...new Set(project.skills.map((s) => s.name))];
    const known = new Set(names);
    // a plugin's skill by its full name, `<plugin>:<skill>`: the plugin's manifest name, its
    // marketplace entry's name, or its folder's name (held-out round 65)
    const plugins = project.manifests.flatMap((m) => [
      ...(m.plugins ?? []),
      ...(m.kind === 'plugin' && m.root !== '' ? [{ name: m.root.slice(m.root.lastIndexOf('/') + 1), place: m.root }] : []),
    ]);
    for (const skill of project.skills) {
      for (const p of plugins) if (p.place === '' || skill.dir.startsWith(`${p.place}/`)) known.add(`${p.name}:${skill.name}`);
    }
    for (const agent of project.agents) {
      const named = [
        ...(agent.skillRules ?? [])
          .filter((r) => r.action !== 'deny' && !/[*?]/u.test(r.pattern))
          .map((r) => ({ name: r.pattern, line: r.line, column: r.column, verb: 'allows' })),
        ...(agent.preload ?? []).map((s) => ({ ...s, verb: 'preloads' })),
      ];
      for (const n of named) {
        if (known.has(n.name)) continue;
        const like = similarName(n.name, names);
        report({
          messageId: 'unknown',
          data: { agent: agent.name, verb: n.verb, skill: n.name, suggestion: like === undefined ? '' : `; did you mean \`${like}\`?` },
          at: { file: agent.file, line: n.line, column: n.column },
        });
      }
    }
  },
});
