import { defineRule } from '../engine/rule.js';
import { DOCS } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'skill-missing-frontmatter',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: {
      spec: { does: 'rejects', source: DOCS.specFrontmatter, note: 'SKILL.md must contain YAML frontmatter' },
      'claude-code': {
        does: 'accepts',
        source: DOCS.claudeCode,
        note: 'all fields are optional: the folder names the skill, the first paragraph describes it',
      },
      copilot: { does: 'rejects', source: DOCS.copilot, note: 'name and description are required' },
      codex: { does: 'rejects', source: DOCS.codex, note: 'SKILL.md must include name and description' },
      'claude-api': { does: 'rejects', source: DOCS.claudeApi, note: 'name and description are required' },
      openclaw: { does: 'drops', source: DOCS.openclawLoader, note: 'a skill without a description is not loaded' },
    },
    category: 'frontmatter',
    reads: ['frontmatter'],
    local: true,
    description: 'Require SKILL.md to open with a closed `---` frontmatter block',
    scope: 'skill',
    reference: 'improved',
    messages: {
      missing: {
        message: 'SKILL.md must start with YAML frontmatter (---)',
        help: 'Start SKILL.md with a `---` line, then `name:` and `description:`, then a closing `---` line.',
      },
      unclosed: {
        message: 'SKILL.md frontmatter opened with --- on line 1 is never closed',
        help: 'Add a line containing only `---` after the last frontmatter key. Until then loopkit reads no frontmatter key and names the skill after its directory `{dir}`.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const fm = skill.frontmatter;
      if (fm !== null && fm.endLine !== null) continue;
      report({
        messageId: fm === null ? 'missing' : 'unclosed',
        data: { dir: skill.dirName },
        at: { file: skill.skillFile.path, line: 1, column: 1 },
        skill: skill.name,
      });
    }
  },
});
