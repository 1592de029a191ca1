import { posix } from 'node:path';
import { defineRule } from '../engine/rule.js';
import { isContractFile, isMetaFile, mentionedSiblings, skillLinks, translationOf } from './lib/skill-files.js';

export default defineRule({
  meta: {
    code: 'skill-orphan-reference',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'progressive',
    reads: ['frontmatter', 'body', 'references', 'files'],
    local: true,
    description: 'Check that every markdown file in a skill directory is linked or named in SKILL.md',
    scope: 'skill',
    reference: 'improved',
    messages: {
      orphan: {
        message: "File '{file}' exists in skill directory but is not linked from SKILL.md",
        help: 'Agents only find files that SKILL.md points to: link it, e.g. [{file}]({file}), or remove it.',
      },
    },
  },
  file: {
    kinds: ['skill'],
    // which of the markdown files next to SKILL.md it names
    check: ({ file, siblings }) => mentionedSiblings(file, siblings),
  },
  check({ project, fileData, report }) {
    for (const skill of project.skills) {
      // a skill at the project root shares its folder with the repository, whose files for people
      // (ROADMAP.md, TODOS.md, ACCEPTANCE.md, …) sit beside the skill's: no telling them apart
      if (skill.dir === '') continue;
      const mentioned = new Set(fileData(skill.skillFile.path) ?? []);
      const linked = new Set(skillLinks(skill).map((l) => l.path.toLowerCase()));
      const names = skill.entries.filter((e) => e.kind === 'file').map((e) => e.name);
      // a skill folder that is a repository of its own: the documents its README.md links are for people
      const forPeople = new Set((skill.readmeLinks ?? []).map((l) => l.toLowerCase()));
      for (const entry of skill.entries) {
        // files only; the skill format's own files and repository files for people are not references
        if (entry.kind !== 'file' || !/\.md$/iu.test(entry.name) || isContractFile(entry.name) || isMetaFile(entry.name)) continue;
        // … nor a copy of a file in another language (SKILL_CN.md beside SKILL.md, guide.ja.md beside guide.md)
        if (translationOf(entry.name, names) !== null || forPeople.has(entry.name.toLowerCase())) continue;
        const path = posix.join(skill.dir, entry.name);
        if (linked.has(path.toLowerCase()) || mentioned.has(entry.name)) continue;
        report({ messageId: 'orphan', data: { file: entry.name }, at: { file: path, line: 1, column: 1 }, skill: skill.name });
      }
    }
  },
});
