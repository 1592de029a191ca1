import { defineRule } from '../engine/rule.js';
import { BROKEN_LINK_MESSAGES, brokenLinks } from './lib/broken-links.js';
import { isAssetFile, isSkeletonSkill, ownReferenceFiles } from './lib/skill-files.js';

export default defineRule({
  meta: {
    code: 'skill-reference-broken-link',
    defaultSeverity: 'warning',
    // the file's absence is certain; that a link in a reference document is meant to be followed is
    // not: such documents hold copied upstream docs, sketches of what another file might say, and
    // the outlines of what the skill writes
    certainty: 'heuristic',
    category: 'structure',
    reads: ['frontmatter', 'references', 'files'],
    local: true,
    description: "Check that every relative link and image in a skill's reference files points at a file that exists, named in its case",
    scope: 'skill',
    reference: 'new',
    references: true,
    messages: BROKEN_LINK_MESSAGES,
  },
  check({ project, report }) {
    // a skill's own reference files; another skill's files, contracts and the repository's README are theirs to check
    for (const { skill, file } of ownReferenceFiles(project.skills)) {
      // a skill that is a skeleton to copy (`template/SKILL.md`), a template (`references/TEMPLATE.md`) and a
      // file of `assets/` (what the skill hands out, such as the skeleton of a document it writes) link the
      // files of what they become, not this skill's
      if (isSkeletonSkill(skill) || isAssetFile(skill, file)) continue;
      for (const r of brokenLinks(project, skill, file)) report(r);
    }
  },
});
