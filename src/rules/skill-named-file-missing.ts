import type { Root } from 'mdast';
import { posix } from 'node:path';
import type { Node, Parent } from 'unist';
import { defineRule } from '../engine/rule.js';
import { namedPlace } from '../model/skill.js';
import { relativeToDir, sharedPlaces } from '../model/skill-dir.js';
import type { NamedPath } from '../model/types.js';
import { pathTokens } from '../util/paths.js';

/** A path SKILL.md names, kept by the file part. */
interface Named extends Pick<NamedPath, 'path' | 'line' | 'column'> {
  /** given as an example or as a file to make: it need not exist (a wrong case is still reported) */
  notExpected?: true;
  /** the text that leads to it (its sentence, list item or table row, up to the path), to tell another skill's file */
  lead: string;
}

/** What the file part found in one of the skill's scripts: the paths, folders and file names it writes to. */
interface Written {
  written: string[];
}

/**
 * A line of a script that writes a file or names where its output goes: a write call, a redirection,
 * an output folder or file (`open(p, "w")`, `.write_text(`, `to_csv(`, `savefig(`, `> out.txt`,
 * `tee`, `mkdir -p output`, `OUTPUT_DIR = "output"`, `--output report.md`, `writeFileSync(`).
 */
const WRITES =
  /\b(?:write|writes|write_text|write_bytes|writelines|writer|writeFile|writeFileSync|createWriteStream|save|savefig|dump|dumps|to_csv|to_json|to_excel|to_parquet|to_html|to_markdown|tee|touch|mkdir|makedirs)\b|\bout(?:put)?(?:_?(?:dir|path|file|folder|root|name))?s?\b|>>?\s*["']?[\w./{}$-]+\.[a-z]\w{0,7}\b|\bopen\([^)]*,\s*(?:mode\s*=\s*)?["'][wax]b?\+?["']/iu;
/** The quoted strings of a line (`"output/report.md"`, `f'{out}/report.md'`). */
const QUOTED = /["'`]([^"'`\s]+)["'`]/gu;
/** Template syntax in a string: what follows the last placeholder is a file name joined to a folder made at run time. */
const PLACEHOLDER = /\{[^{}]*\}|\$\{?\w+\}?|%[sd]/gu;

/**
 * What follows the last placeholder of a string (and its `/`), or the whole string without one. One
 * scan from the left: a search that tries every start (`.*(?:…)`) is quadratic, and a script's
 * minified line of a megabyte took minutes.
 */
function afterLastPlaceholder(text: string): string {
  let end = -1;
  for (const m of text.matchAll(PLACEHOLDER)) end = m.index + m[0].length;
  if (end < 0) return text;
  return text.slice(text[end] === '/' ? end + 1 : end);
}

/**
 * The paths a script writes, as far as its text says: every quoted string or path on a line that
 * writes or names an output, relative (`./` dropped); a string with template syntax gives the file
 * name after its last placeholder (`f"{out_dir}/report.md"` → `report.md`).
 */
function writtenPaths(text: string): string[] {
  const out = new Set<string>();
  const add = (raw: string) => {
    let p = afterLastPlaceholder(raw)
      .replace(/^(?:\.\/)+/u, '')
      .replace(/\/+$/u, '');
    p = p.replace(/[.,;:)]+$/u, '');
    if (p !== '' && p !== '.' && !p.startsWith('/') && !p.startsWith('..') && !/[\s<>|*?]/u.test(p)) out.add(p.toLowerCase());
  };
  for (const line of text.split('\n')) {
    if (!WRITES.test(line)) continue;
    for (const m of line.matchAll(QUOTED)) add(m[1]!);
    for (const t of pathTokens(line)) if (t.text.includes('/') || /\.[a-z]\w{0,7}$/iu.test(t.text)) add(t.text);
  }
  return [...out];
}

/**
 * Is `path` (named by SKILL.md, relative to the skill) a file one of the skill's scripts writes? The
 * script names it, its folder (`output`, for `output/report.md`), or — after a folder made at run
 * time — its file name, on a line that writes or names an output.
 */
function generated(path: string, written: readonly string[]): boolean {
  const p = path.toLowerCase();
  const name = posix.basename(p);
  return written.some((w) => w === p || p.startsWith(`${w}/`) || (!w.includes('/') && w === name && w.includes('.')));
}

/** A file name that stands for any (`scripts/script_name.py`, `references/your-topic.md`, `errors/Sxxxxx.md` for `S00001.md` …). */
const PLACEHOLDER_NAME =
  /^(?:(?:script|file|module|page|doc)[-_]?name|your[-_].*|my[-_].*|some[-_].*|foo|bar|baz|x{2,}|placeholder|topic|something)$|x{4,}/iu;

/** Offsets of a node in the file text. */
const span = (n: Node) => [n.position?.start.offset ?? 0, n.position?.end.offset ?? 0] as const;

/**
 * The text that leads to `offset`: from the start of the innermost paragraph, heading or table row
 * that holds it; for a list item, with the paragraph that introduces its list when that ends in a
 * colon ("Create a references/ folder and move there:").
 */
function leadIn(text: string, root: Root, offset: number): string {
  let from = -1;
  let intro = '';
  const walk = (node: Parent) => {
    let prev: Node | undefined;
    for (const child of node.children as Node[]) {
      const [start, end] = span(child);
      if (offset >= start && offset < end) {
        if (child.type === 'paragraph' || child.type === 'heading' || child.type === 'tableRow') from = start;
        if (child.type === 'list' && prev?.type === 'paragraph') {
          const p = text.slice(...span(prev)).trimEnd();
          intro = /[:：]$/u.test(p) ? `${p}\n` : '';
        }
        if ('children' in child) walk(child as Parent);
        return;
      }
      prev = child;
    }
  };
  walk(root);
  return intro + (from >= 0 ? text.slice(from, offset) : '');
}

/** A line that gives an example (`e.g. scripts/rotate.py`, `例: …`, `比如 …`): what it names need not exist. */
const EXAMPLE =
  /\b(?:e\.\s?g\.|eg\.|for (?:example|instance)|such as|an? example|examples?\**\s*[:：)]|hypothetical|imagine)(?![\w-])|例えば|たとえば|例\**[:：）)]|【例】|例如|比如|譬如|举例|示例|範例|예를 들어|예시|예:/iu;
/** Before the path: the agent is to make the file (`Create references/api.md`, `保存到 …`), so it need not exist yet. */
const MAKES =
  /\b(?:create[sd]?|creating|generate[sd]?|generating|(?:save[sd]?|write|writes|written|writing) (?:it |them |(?:the|its|their|your) \w+ )?(?:as|to|in|into)|produce[sd]?|touch|mkdir|scaffold(?:s|ed)?|initiali[sz]e[sd]?)(?![\w-])|作成|生成|保存|新建|创建|新增|写入|寫入|存入|書き込/iu;

/**
 * A file name that is a range of numbered files (`references/research/01-06.md`: 01 to 06), two
 * numbers of one width, the first the smaller.
 */
function isRange(stem: string): boolean {
  const m = /^(\d+)-(\d+)$/u.exec(stem);
  return m !== null && m[1]!.length === m[2]!.length && Number(m[1]) < Number(m[2]);
}

/** After a path, the same path in another form as the wrong side of a contrast (`a/b.md`, not `a\b.md`): it shows how to write a path. */
function contrastedForm(after: string, path: string): boolean {
  const other = path.replace(/\//gu, '\\');
  const m = /^[`'"]?\s*[,;]?\s*(?:not|rather than|instead of)\s+[`'"]?([^\s`'"),;]+)/iu.exec(after);
  return m !== null && m[1] === other;
}

export default defineRule<'missing' | 'otherCase', Named[] | Written>({
  meta: {
    code: 'skill-named-file-missing',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'structure',
    reads: ['frontmatter', 'files'],
    description: "Check that the skill's own files SKILL.md names in prose or inline code exist, named in their case",
    scope: 'skill',
    reference: 'new',
    messages: {
      missing: {
        message: "SKILL.md names '{path}', which does not exist in the skill",
        help: 'An agent told to read or run it finds nothing. Fix the name, add the file, or drop the mention; a file the skill has the agent create is not reported when the text says so.',
      },
      otherCase: {
        message: "SKILL.md names '{path}', which exists only as '{actual}' (another case)",
        help: 'macOS and Windows ignore the case and find the file; Linux (and most CI machines) does not. Write the name as it is on disk.',
      },
    },
  },
  file: {
    // SKILL.md's named paths, and what the skill's scripts write (a file they make is not missing)
    kinds: ['skill', 'script'],
    check({ file, facts, kind }) {
      if (kind === 'script') {
        const written = writtenPaths(file.text);
        return written.length > 0 ? { written } : undefined;
      }
      const named = facts.skill?.namedPaths ?? [];
      if (named.length === 0 || !file.root) return undefined;
      const found = named.map(({ path, line, column }): Named => {
        const offset = (file.lineStarts[line - 1] ?? 0) + column - 1;
        const start = file.lineStarts[line - 1] ?? 0;
        const next = file.lineStarts[line];
        const lineText = file.text.slice(start, next === undefined ? file.text.length : next);
        const lead = leadIn(file.text, file.root as Root, offset);
        const stem = posix.basename(path).replace(/\.[^.]+$/u, '');
        const after = lineText.slice(column - 1 + path.length);
        const given =
          EXAMPLE.test(lineText) ||
          EXAMPLE.test(lead) ||
          MAKES.test(lead) ||
          PLACEHOLDER_NAME.test(stem) ||
          isRange(stem) ||
          contrastedForm(after, path);
        return given ? { path, line, column, lead, notExpected: true } : { path, line, column, lead };
      });
      // a path given as an example, or as a file to make, anywhere in SKILL.md is not one the skill must have
      const notExpected = new Set(found.filter((n) => n.notExpected).map((n) => n.path.toLowerCase()));
      for (const n of found) if (notExpected.has(n.path.toLowerCase())) n.notExpected = true;
      return found;
    },
  },
  check({ project, fileData, report }) {
    // every skill's names (name and folder, lower case, 4 characters and more), to tell another skill's file
    const skillNames = project.skills.flatMap((s) =>
      [...new Set([s.name, s.dirName].map((n) => n.toLowerCase()))].filter((n) => n.length >= 4).map((name) => ({ skill: s, name })),
    );
    for (const skill of project.skills) {
      const seen = new Set<string>();
      const names = fileData(skill.skillFile.path);
      if (names === undefined || !Array.isArray(names)) continue;
      // what the skill's own scripts write: `output/report.md`, made when the script runs
      const written = (skill.scripts ?? []).flatMap((s) => {
        const d = fileData(s.path);
        return d !== undefined && !Array.isArray(d) ? d.written : [];
      });
      for (const named of names) {
        // one of the skill's own files: into one of its folders, or a name one of its files has in some case
        const place = namedPlace(named.path, skill.dir, skill.entries);
        const found = place === null ? undefined : project.pathsOnDisk.get(place);
        if (place === null || found === undefined || found === place) continue;
        // "Skill.md" names the format's file, which the agent has already read: not a file to open
        if (found !== null && named.path.toLowerCase() === 'skill.md') continue;
        if (found === null) {
          if (named.notExpected || generated(named.path, written)) continue;
          // `lora-recipes`'s `references/mapping.md`: another skill's file, named with that skill
          const lead = named.lead.toLowerCase();
          if (skillNames.some((n) => n.skill !== skill && lead.includes(n.name))) continue;
          // `scripts/guard.py` of a plugin's hook, beside the plugin's skills/: the collection's file
          // (`<plugin>/scripts/guard.py`); `.github/skills/shared/x.md`: the project's file, named from its root
          if (sharedPlaces(skill.dir, named.path).some((p) => typeof project.pathsOnDisk.get(p) === 'string')) continue;
        }
        // each path once, at its first mention
        if (seen.has(place)) continue;
        seen.add(place);
        const at = { file: skill.skillFile.path, line: named.line, column: named.column };
        if (found === null) report({ messageId: 'missing', data: { path: named.path }, at, skill: skill.name });
        else report({ messageId: 'otherCase', data: { path: named.path, actual: relativeToDir(found, skill.dir) }, at, skill: skill.name });
      }
    }
  },
});
