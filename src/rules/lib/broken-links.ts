/**
 * The broken links of one file of a skill: its relative links, images and link definitions whose
 * destination names no file (or one in another case). skill-broken-link reports those of SKILL.md,
 * skill-reference-broken-link those of the skill's reference files; both word them the same.
 */
import type { MessageTemplate, ReportInput } from '../../engine/rule.js';
import { linkLanding, linkPlaces } from '../../model/skill.js';
import type { FileModel, Project, Skill } from '../../model/types.js';

export const BROKEN_LINK_MESSAGES = {
  missing: {
    message: "{kind} '{url}' points at '{path}', which does not exist",
    help: 'An agent that follows it finds nothing. Fix the path (it is relative to {base}), add the file, or remove the {what}.',
  },
  otherCase: {
    message: "{kind} '{url}' points at '{path}', which exists only as '{actual}' (another case)",
    help: 'Names are compared as the directory lists them: macOS and Windows ignore the case and find the file, Linux (and most CI machines) does not. Write the name as it is on disk.',
  },
} satisfies Record<string, MessageTemplate>;

export type BrokenLinkMessage = keyof typeof BROKEN_LINK_MESSAGES;

/**
 * A web address written without its scheme (`docs.claude.com/en/docs/…`, `www.example.org`): the
 * first segment is a host name — labels joined by dots, ending in a common top-level domain — and
 * does not exist as a file. Markdown reads it as a relative path, but an agent reads it as the
 * address it is (held-out round 39: every such finding was judged borderline). The list keeps out
 * file extensions that are also country domains (`.md`, `.py`, `.sh`, `.rs`, `.pl`).
 */
const SCHEMELESS_URL =
  /^(?:www\.|(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:com|org|net|io|dev|ai|app|edu|gov|cloud|co|info|me|cn|jp|kr|de|fr|uk|ru|eu|us|tw|hk)(?:[/:?#]|$))/iu;

/** Is the link's path a web address written without `https://`? */
const isSchemelessUrl = (path: string): boolean => SCHEMELESS_URL.test(path);

/** The reports for the broken links of `file`, one of `skill`'s files. */
export function brokenLinks(project: Project, skill: Skill, file: FileModel): ReportInput<BrokenLinkMessage>[] {
  const found: ReportInput<BrokenLinkMessage>[] = [];
  for (const link of file.localLinks) {
    if (link.path === '') continue; // an anchor of the file itself: skill-broken-anchor
    const places = linkPlaces(link.path, link.fromSkillDir === true, file.path, skill.dir);
    if (linkLanding(places, project.linkTargets) !== null) continue;
    // a missing file in a hidden folder (`.github/pull_request_template.md`, `.dbt-wiki/lineage.md`) is one
    // of the project the skill works on, or one the skill's tool writes there: not the skill's own file
    if (/^\.[^./\\]/u.test(link.path)) continue;
    // `docs.claude.com/…`: an address without its scheme, not a file of the skill
    if (isSchemelessUrl(link.path)) continue;
    // a file a .gitignore pattern names, kept out of the repository on purpose (a local configuration
    // each user writes from an example): each user's copy has it, the repository never will
    if (places.some((p) => project.gitIgnoredTargets.has(p))) continue;
    // a link the skill shows how to write in a repository file it names (`docs/en/release-notes/changelog.md`):
    // written for that file's folder, where it lands
    if (project.linksForNamedFiles.has(`${file.path}:${link.line}:${link.column}`)) continue;
    // a link of a skill in an agent's folder, written from the project the agent works in (`docs/x.md`
    // from `.agents/skills/plan/`): the agent opens it from there
    if (project.linksFromProject.has(`${file.path}:${link.line}:${link.column}`)) continue;
    // a place that exists in another case (`Security.md` for `security.md`) is named wrongly, not missing
    const other = places.findIndex((p) => typeof project.pathsOnDisk.get(p) === 'string');
    const path = places[Math.max(other, 0)]!;
    const actual = other >= 0 ? project.pathsOnDisk.get(path)! : undefined;
    found.push({
      messageId: actual ? 'otherCase' : 'missing',
      data: {
        kind: link.image ? 'Image' : 'Link',
        what: link.image ? 'image' : 'link',
        url: link.url,
        path,
        base: link.fromSkillDir ? 'the skill directory' : 'the file that holds it',
        ...(actual ? { actual } : {}),
      },
      at: { file: file.path, line: link.line, column: link.column },
      skill: skill.name,
    });
  }
  return found;
}
