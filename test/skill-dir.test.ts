/** Paths inside a skill's folder, for a skill below the root and for the root skill (dir ''). */
import { describe, expect, it } from 'vitest';
import { linkPlaces, namedPlace } from '../src/model/skill.js';
import {
  holdsOneOf,
  inOneOf,
  inSkillDir,
  isInsideDir,
  isSkillReferencePath,
  relativeToDir,
  shownSkillDir,
  skillDirName,
  skillHolding,
  skillsFoldersOf,
  skillsInside,
} from '../src/model/skill-dir.js';

describe("a skill's reference files", () => {
  it("are inside its folder, or shared by its collection: never the repository's own documents", () => {
    const a = '.github/skills/reviewing';
    expect(isSkillReferencePath(a, '.github/skills/reviewing/references/x.md')).toBe(true);
    // the folder of the skills shares its files (and a sibling skill's are there)
    expect(isSkillReferencePath(a, '.github/skills/shared/checklist.md')).toBe(true);
    expect(isSkillReferencePath(a, '.github/skills/testing/references/y.md')).toBe(true);
    // the repository's documents a skill names
    expect(isSkillReferencePath(a, '.github/copilot-instructions.md')).toBe(false);
    expect(isSkillReferencePath(a, 'docs/CONTRIBUTING.md')).toBe(false);
    expect(isSkillReferencePath('skills/reviewing', 'docs/contributor-guide.md')).toBe(false);
    expect(isSkillReferencePath('skills/reviewing', 'skills/shared/x.md')).toBe(true);
    // a plugin's shared folder is its skills' (<plugin>/skills/<skill>), the repository's root is not
    expect(isSkillReferencePath('plugins/review/skills/style', 'plugins/review/shared/style.md')).toBe(true);
    expect(isSkillReferencePath('plugins/review/skills/style', 'plugins/other/shared/style.md')).toBe(false);
    expect(isSkillReferencePath('.claude/skills/style', '.claude/agents/reviewer.md')).toBe(false);
    // a skill at the top of the repository: its folder is its own, the repository beside it is not
    expect(isSkillReferencePath('style', 'style/guide.md')).toBe(true);
    expect(isSkillReferencePath('style', 'docs/guide.md')).toBe(false);
    // a repository that is one skill: everything but its hidden folders
    expect(isSkillReferencePath('', 'references/x.md')).toBe(true);
    expect(isSkillReferencePath('', '.github/instructions/review.md')).toBe(false);
    expect(isSkillReferencePath('skills/a', 'skills/a/.cache/x.md')).toBe(false);
  });
});

describe('a path inside a skill folder', () => {
  it('joins, tests and cuts the same way for the root skill and a skill below it', () => {
    expect(inSkillDir('skills/a', 'SKILL.md')).toBe('skills/a/SKILL.md');
    expect(inSkillDir('', 'SKILL.md')).toBe('SKILL.md');
    expect(inSkillDir('skills/a', '')).toBe('skills/a');
    expect(isInsideDir('skills/a/references/x.md', 'skills/a')).toBe(true);
    expect(isInsideDir('skills/ab/x.md', 'skills/a')).toBe(false);
    expect(isInsideDir('skills/a', 'skills/a')).toBe(false);
    // the root holds every path of the project, but not itself nor what lies outside it
    expect(isInsideDir('references/x.md', '')).toBe(true);
    expect(isInsideDir('', '')).toBe(false);
    expect(isInsideDir('../x.md', '')).toBe(false);
    expect(relativeToDir('skills/a/references/x.md', 'skills/a')).toBe('references/x.md');
    expect(relativeToDir('references/x.md', '')).toBe('references/x.md');
    expect(shownSkillDir('')).toBe('./');
    expect(shownSkillDir('skills/a')).toBe('skills/a');
  });

  it("names the root skill's folder by its frontmatter name, else by the folder it was checked in", () => {
    expect(skillDirName('skills/running-a', '/x/repo')).toBe('running-a');
    expect(skillDirName('skills/running-a', '/x/repo', 'other')).toBe('running-a');
    expect(skillDirName('', '/x/pdf-skill-main', 'filling-forms')).toBe('filling-forms');
    expect(skillDirName('', '/x/pdf-skill-main')).toBe('pdf-skill-main');
  });

  it('the skills below the root skill are none of its files', () => {
    const dirs = ['', 'skills/a', 'skills/b'];
    expect(skillsInside(dirs)).toEqual(new Map([['', ['skills/a', 'skills/b']]]));
    // every folder above, not only the nearest; a folder whose name merely starts like another's is not inside it
    expect(skillsInside(['', 'a', 'a/b', 'a/b/c', 'ab'])).toEqual(
      new Map([
        ['', ['a', 'a/b', 'a/b/c', 'ab']],
        ['a', ['b', 'b/c']],
        ['a/b', ['c']],
      ]),
    );
    expect(inOneOf('skills/a/notes.md', ['skills/a'])).toBe(true);
    expect(inOneOf('skills/ab/notes.md', ['skills/a'])).toBe(false);
    expect(holdsOneOf('skills', ['skills/a'])).toBe(true);
    expect(holdsOneOf('references', ['skills/a'])).toBe(false);
    const skills = dirs.map((dir) => ({ dir }));
    expect(skillHolding(skills, 'skills/a/references/x.md')).toBe(skills[1]);
    expect(skillHolding(skills, 'references/x.md')).toBe(skills[0]);
    expect(skillHolding(skills, 'skills/c/x.md')).toBe(skills[0]);
    expect(skillHolding(skills.slice(1), 'docs/x.md')).toBeNull();
  });

  it("a reference file's link lands beside it, then in the skill's folder: the root's too", () => {
    expect(linkPlaces('references/b.md', false, 'references/a.md', '')).toEqual(['references/references/b.md', 'references/b.md']);
    expect(linkPlaces('references/b.md', false, 'skills/x/references/a.md', 'skills/x')).toEqual([
      'skills/x/references/references/b.md',
      'skills/x/references/b.md',
    ]);
    expect(linkPlaces('b.md', false, 'SKILL.md', '')).toEqual(['b.md']);
    expect(linkPlaces('references/b.md', true, 'references/a.md', '')).toEqual(['references/b.md']);
    expect(namedPlace('references/forms.md', '', [{ name: 'references', kind: 'dir' }])).toBe('references/forms.md');
    expect(namedPlace('FORMS.md', '', [{ name: 'forms.md', kind: 'file' }])).toBe('FORMS.md');
  });

  it('the skills/ folders that hold a folder, nearest first: the folder itself when it is one', () => {
    expect(skillsFoldersOf('.agents/skills/x/.claude/skills/y')).toEqual([
      { place: '.claude', at: '.agents/skills/x/.claude/skills/' },
      { place: '.agents', at: '.agents/skills/' },
    ]);
    expect(skillsFoldersOf('skills/a')).toEqual([{ place: '', at: 'skills/' }]);
    expect(skillsFoldersOf('.claude/skills')).toEqual([{ place: '.claude', at: '.claude/skills/' }]);
    expect(skillsFoldersOf('plugins/p/skills/a/b')).toEqual([{ place: 'p', at: 'plugins/p/skills/' }]);
    expect(skillsFoldersOf('agents/cli')).toEqual([]);
    expect(skillsFoldersOf('')).toEqual([]);
  });
});
