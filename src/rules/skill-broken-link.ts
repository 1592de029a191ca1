import { defineRule } from '../engine/rule.js';
import { BROKEN_LINK_MESSAGES, brokenLinks } from './lib/broken-links.js';
import { isSkeletonSkill } from './lib/skill-files.js';
import { EVERY } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'skill-broken-link',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'structure',
    reads: ['frontmatter', 'body', 'files'],
    local: true,
    description: 'Require every relative link and image in SKILL.md to point at a file that exists, named in its case',
    scope: 'skill',
    reference: 'new',
    messages: BROKEN_LINK_MESSAGES,
  },
  check({ project, report }) {
    // a skill that is a skeleton to copy (`template/SKILL.md`) links the files its copies will have
    for (const skill of project.skills)
      if (!isSkeletonSkill(skill)) for (const r of brokenLinks(project, skill, skill.skillFile)) report(r);
  },
});
