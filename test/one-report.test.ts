/**
 * One mistake, one report, one good hint: every rule runs on a skill with one mistake in its
 * name; exactly one error points at the name, and doing what its hint says leaves no error about
 * the name at all (a hint never proposes a value another rule rejects).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lint } from '../src/api/engine.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const BODY = 'description: Writes the docs of a project. Use when the docs are out of date.\n---\n# Docs\n\nWrites docs.\n';

/** A project of skills: folder → the `name:` line's value (undefined: the same as the folder). */
function project(skills: Record<string, string | undefined>): string {
  const root = mkdtempSync(join(tmpdir(), 'loopkit-one-report-'));
  dirs.push(root);
  for (const [folder, name] of Object.entries(skills)) {
    const file = join(root, 'skills', folder, 'SKILL.md');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `---\nname: ${name ?? folder}\n${BODY}`);
  }
  return root;
}

/** The codes about a skill's name. */
const NAME_CODE = /^skill-(name-(?!not-gerund|vague)|missing-name|duplicate-name)/u;

interface Case {
  folder: string;
  name: string;
  /** other skills of the project */
  others?: Record<string, string | undefined>;
  code: string;
}

const CASES: Case[] = [
  { folder: 'writing-docs', name: 'docs-plugin:writing-docs', code: 'skill-name-invalid-chars' },
  { folder: 'writing-docs', name: 'Writing Docs', code: 'skill-name-invalid-chars' },
  { folder: 'Writing_Docs', name: 'Writing_Docs', code: 'skill-name-invalid-chars' },
  { folder: 'writing-docs', name: '-writing-docs', code: 'skill-name-leading-hyphen' },
  { folder: 'writing-docs', name: 'writing-docs-', code: 'skill-name-trailing-hyphen' },
  { folder: 'writing-docs', name: 'writing--docs', code: 'skill-name-consecutive-hyphens' },
  { folder: 'writing-docs', name: `writing-docs-${'x'.repeat(60)}`, code: 'skill-name-too-long' },
  { folder: 'writing-docs', name: 'writing-claude-docs', code: 'skill-name-reserved-word' },
  { folder: 'claude-docs', name: 'claude-docs', code: 'skill-name-reserved-word' },
  { folder: 'writing-docs', name: 'formatting-logs', code: 'skill-name-mismatch-dir' },
  { folder: 'Writing_Docs', name: 'writing-docs', code: 'skill-name-mismatch-dir' },
  { folder: 'writing-docs-v2', name: 'writing-docs', others: { 'writing-docs': undefined }, code: 'skill-name-mismatch-dir' },
  { folder: 'writing-docs', name: '1.10', code: 'skill-missing-name' },
  { folder: 'writing-docs', name: '[writing, docs]', code: 'skill-missing-name' },
];

/**
 * What a hint asks for: `name: x` (with the folder renamed when it says so), or renaming the folder;
 * each alternative of an "… or …" hint on its own.
 */
function followHint(help: string, c: Case): { folder: string; name: string }[] {
  return help.split(/ or (?=set|write|rename)/iu).flatMap((part) => {
    const name = /`name: ([^`]+)`/u.exec(part)?.[1];
    const folder = /rename the (?:folder|directory) to `([^`]+)`/iu.exec(part)?.[1];
    return name === undefined && folder === undefined ? [] : [{ folder: folder ?? c.folder, name: name ?? c.name }];
  });
}

describe('one mistake in a name: one report, and a hint that ends it', () => {
  for (const c of CASES) {
    it(`${c.folder}/ with name: ${c.name}`, async () => {
      const root = project({ ...c.others, [c.folder]: c.name });
      // every rule, as a new user runs loopkit
      const result = await lint({ root });
      const file = `skills/${c.folder}/SKILL.md`;
      // every error at the name, and the name's warnings (a reserved word is not portable to the upload path: a warning in a portable collection)
      const atName = result.diagnostics.filter(
        (d) => d.file === file && d.line === 2 && (d.severity === 'error' || (d.severity === 'warning' && NAME_CODE.test(d.code))),
      );
      expect(atName.map((d) => d.code)).toEqual([c.code]);
      expect(result.diagnostics.filter((d) => d.code === 'skill-duplicate-name')).toEqual([]);
      const fixes = followHint(atName[0]!.help, c);
      expect(fixes.length, atName[0]!.help).toBeGreaterThan(0);
      for (const fix of fixes) {
        const after = await lint({ root: project({ ...c.others, [fix.folder]: fix.name }) });
        expect(
          after.diagnostics.filter((d) => NAME_CODE.test(d.code)).map((d) => `${d.file}: ${d.message}`),
          `${fix.folder}/ with name: ${fix.name}, after: ${atName[0]!.help}`,
        ).toEqual([]);
      }
    });
  }

  it('two mistakes in one name are two reports: upper case and a reserved word', async () => {
    const root = project({ 'Claude-Notes': 'Claude-Notes' });
    const result = await lint({ root });
    // only the upload path of the Claude API rejects the reserved word: not portable to it, a warning in a portable collection
    expect(result.diagnostics.filter((d) => d.severity !== 'info').map((d) => `${d.code} ${d.severity}`)).toEqual([
      'skill-name-invalid-chars error',
      'skill-name-reserved-word warning',
    ]);
    const upload = await lint({ root, targets: ['claude-api'] });
    expect(upload.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code)).toEqual([
      'skill-name-invalid-chars',
      'skill-name-reserved-word',
    ]);
  });
});
