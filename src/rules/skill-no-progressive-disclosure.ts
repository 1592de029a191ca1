import { posix } from 'node:path';
import { defineRule } from '../engine/rule.js';
import { inCollection, isInsideDir, mayBeSharedDocument, sharedPlaces } from '../model/skill-dir.js';
import { isContractFile, mentionedSiblings, skillLinks } from './lib/skill-files.js';

/**
 * The Agent Skills guidance: "Keep your main SKILL.md under 500 lines" (agentskills.io/specification,
 * Progressive disclosure; Anthropic's skill-authoring best practices say the same of the body).
 */
export const MAX_LINES = 500;
const SCRIPT_FOLDERS = new Set(['scripts', 'bin']);
/**
 * A file named by its path in a sub-folder of the skill (`references/brand.json`, also without an
 * extension: `references/sample-claude-md`), or the folder itself (`references/`): the folder's name.
 */
const FOLDER_MENTION = /(?<![\w./-])(?:\.\/)?([\w-]+)\/(?:[\w./-]*\w\.[a-z]{2,5}\b|[\w-]+(?=[`'"\s),]|$)|(?=[`'"\s)]|$))/gimu;
/** A markdown file named by a path that climbs out of the skill's folder (`../docs/x.md`, `../../shared/y.md`). */
const OUTSIDE_MENTION = /(?<![\w./-])(?:\.\.\/)+[\w.-]+(?:\/[\w.-]+)*\.md\b/giu;
/** … or from the plugin's folder (`${CLAUDE_PLUGIN_ROOT}/shared/readiness/gate.md`). */
const PLUGIN_MENTION = /\$\{?CLAUDE_PLUGIN_ROOT\}?\/[\w.-]+(?:\/[\w.*-]+)*\.md\b/gu;
/** A markdown file named from the collection's folder (`docs/framework.md` in `<pack>/skills/<skill>/`), or from the project's root into the folder that holds the skills: counted when it is there. */
const SHARED = '\0';

export default defineRule({
  meta: {
    code: 'skill-no-progressive-disclosure',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'progressive',
    reads: ['frontmatter', 'body', 'files'],
    local: true,
    description: 'Check that a SKILL.md longer than 500 lines points to separate reference files',
    scope: 'skill',
    reference: 'improved',
    messages: {
      monolithic: {
        message:
          'SKILL.md is {lines} lines with no separate reference files. Consider extracting content into linked reference files for progressive disclosure',
        help: 'Move detailed sections into files next to SKILL.md and link them, e.g. [reference.md](reference.md).',
      },
    },
  },
  file: {
    kinds: ['skill'],
    // which of the markdown files next to SKILL.md it names, and the shared ones outside its folder it
    // names by a relative path (`` `../docs/intent-compiler.md` ``)
    check: ({ file, siblings, facts }) => [
      ...mentionedSiblings(file, siblings),
      ...(file.text.match(OUTSIDE_MENTION) ?? []),
      ...(file.text.match(PLUGIN_MENTION) ?? []),
      ...(facts.skill?.namedPaths ?? []).filter((n) => mayBeSharedDocument(n.path)).map((n) => SHARED + n.path),
      // … and any file named by its path in a folder of the skill (`references/headline-patterns.json`)
      ...[...file.text.matchAll(FOLDER_MENTION)].map((m) => `${m[1]!}/`),
    ],
  },
  check({ project, fileData, report }) {
    for (const skill of project.skills) {
      const file = skill.skillFile;
      const lines = file.lineCount;
      if (lines <= MAX_LINES) continue;
      // a named folder counts when the skill has it (`references/` next to SKILL.md); scripts are run, not read
      const folders = new Set(skill.entries.filter((e) => e.kind === 'dir' && !SCRIPT_FOLDERS.has(e.name)).map((e) => `${e.name}/`));
      // a shared document: the collection's, or one in the folder that holds the skills (`.github/skills/shared/x.md`
      // named from the root); a project file named from the root (`design/gdd/concept.md`) is what the skill
      // works on, not a reference of it
      const skillsFolder = posix.dirname(skill.dir);
      const isShared = (path: string) => {
        const pack = inCollection(skill.dir, path);
        return sharedPlaces(skill.dir, path).some(
          (p) => typeof project.pathsOnDisk.get(p) === 'string' && (p === pack || isInsideDir(p, skillsFolder)),
        );
      };
      const mentioned = new Set(
        (fileData(file.path) ?? []).filter((m) =>
          m.startsWith(SHARED) ? isShared(m.slice(SHARED.length)) : !m.endsWith('/') || folders.has(m),
        ),
      );
      // LOOP.md / HANDOFFS.md are part of the skill format, not extracted reference material
      const linked = skillLinks(skill).some((l) => !isContractFile(posix.basename(l.path)));
      // a reference file next to SKILL.md or in a sub-folder, named in the text
      if (linked || mentioned.size > 0) continue;
      report({ messageId: 'monolithic', data: { lines }, at: { file: file.path, line: lines, column: 1 }, skill: skill.name });
    }
  },
});
