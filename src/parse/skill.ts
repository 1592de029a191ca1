/** A skill directory → Skill: SKILL.md (frontmatter, sections, declared states), LOOP.md, files. */
import { join, posix } from 'node:path';
import type { Definition, Heading, InlineCode, Link, Root } from 'mdast';
import type { DeclaredState, LinkTarget, LoadProblem, ReferencedFile, Skill, SourceFile } from '../model/types.js';
import { visit } from '../util/visit.js';
import { parseFrontmatter } from './frontmatter.js';
import { insideRoot, isDirectory, listDir, readText } from './fs.js';
import { parseHandoffsFile } from './handoffs.js';
import { parseLoop } from './loop.js';
import { sourceFile } from './markdown.js';
import { headingSections, headingTitle, sectionKey, sectionsAt } from './sections.js';

const MAX_SCRIPT_BYTES = 1024 * 1024;

/** Backticked tokens in the state-model sections (headings matching an alias, any depth). */
function declaredStates(file: SourceFile, aliases: readonly string[]): DeclaredState[] {
  const root = file.root as Root;
  const keys = new Set(aliases.map(sectionKey));
  const regions = headingSections(
    file,
    root.children,
    (h: Heading) => keys.has(sectionKey(headingTitle(h))),
    (h: Heading, opener: Heading) => h.depth <= opener.depth,
  );
  const seen = new Set<string>();
  const out: DeclaredState[] = [];
  for (const r of regions) {
    for (const node of root.children.slice(r.startIndex + 1, r.endIndex)) {
      visit(node, 'inlineCode', (n) => {
        const code = n as InlineCode;
        const name = code.value.trim();
        if (name === '' || /\s/u.test(name) || seen.has(name)) return;
        seen.add(name);
        out.push({ name, line: code.position?.start.line ?? r.line, column: code.position?.start.column ?? 1 });
      });
    }
  }
  return out;
}

/** Relative markdown link targets in SKILL.md (`[x](ref.md)`, definitions too), in document order. */
export function markdownLinkTargets(root: Root): LinkTarget[] {
  const out: LinkTarget[] = [];
  visit(root, null, (n) => {
    if (n.type !== 'link' && n.type !== 'definition') return;
    const url = (n as Link | Definition).url;
    if (/^[a-z][a-z0-9+.-]*:/iu.test(url) || url.startsWith('/') || url.startsWith('#')) return;
    const target = url.replace(/[?#].*$/u, '');
    if (!/\.md$/iu.test(target)) return;
    out.push({ target, line: n.position?.start.line ?? 1, column: n.position?.start.column ?? 1 });
  });
  return out;
}

function decodeTarget(t: string): string {
  try {
    return decodeURI(t);
  } catch {
    return t;
  }
}

export interface SkillLoad {
  skill: Skill | null;
  problems: LoadProblem[];
}

/** Read one skill directory. `dir` is project-relative (posix). */
export function loadSkill(root: string, dir: string, aliases: readonly string[]): SkillLoad {
  const absDir = join(root, dir);
  const problems: LoadProblem[] = [];
  const skillPath = `${dir}/SKILL.md`;
  const read = readText(join(absDir, 'SKILL.md'));
  if ('error' in read) {
    problems.push({ code: 'skill-read-error', file: skillPath, message: `Failed to read ${skillPath}: ${read.error}` });
    return { skill: null, problems };
  }
  const skillFile = sourceFile(skillPath, read.text, true);
  const frontmatter = parseFrontmatter(skillFile);
  const dirName = dir.split('/').pop()!;
  const fmName = frontmatter?.data.name;
  const name = typeof fmName === 'string' && fmName.trim() !== '' ? fmName.trim() : dirName;

  let loop = null;
  let loopReadError: string | undefined;
  const loopRead = readText(join(absDir, 'LOOP.md'));
  if ('text' in loopRead) {
    loop = parseLoop(sourceFile(`${dir}/LOOP.md`, loopRead.text, true));
  } else if (!loopRead.missing) {
    loopReadError = loopRead.error;
    problems.push({ code: 'skill-read-error', file: `${dir}/LOOP.md`, message: `Failed to read ${dir}/LOOP.md: ${loopRead.error}` });
  }

  let legacyHandoffs: Skill['legacyHandoffs'] = null;
  if (!loop && loopReadError === undefined) {
    const h = readText(join(absDir, 'HANDOFFS.md'));
    if ('text' in h) {
      const file = sourceFile(`${dir}/HANDOFFS.md`, h.text, true);
      const transitions = parseHandoffsFile(file);
      if (transitions.length > 0) legacyHandoffs = { file, transitions };
    }
  }

  const entries = listDir(absDir, root);
  let scripts: SourceFile[] | null = null;
  if (isDirectory(join(absDir, 'scripts'))) {
    scripts = [];
    for (const e of listDir(join(absDir, 'scripts'), root)) {
      if (e.kind !== 'file') continue;
      const r = readText(join(absDir, 'scripts', e.name));
      if ('text' in r && r.text.length <= MAX_SCRIPT_BYTES) scripts.push(sourceFile(`${dir}/scripts/${e.name}`, r.text, false));
    }
  }

  // every file is parsed once: a link to SKILL.md or LOOP.md reuses the parsed file
  const parsed = new Map<string, SourceFile>([[posix.normalize(skillPath), skillFile]]);
  if (loop) parsed.set(posix.normalize(loop.file.path), loop.file);
  const references = new Map<string, ReferencedFile>();
  const links = markdownLinkTargets(skillFile.root as Root);
  for (const { target } of links) {
    if (references.has(target)) continue;
    const rel = posix.normalize(`${dir}/${decodeTarget(target)}`);
    let file = parsed.get(rel) ?? null;
    if (!file) {
      const inside = insideRoot(join(root, rel), root);
      const r = inside === null ? null : readText(inside);
      if (r && 'text' in r) {
        file = sourceFile(rel, r.text, true);
        parsed.set(rel, file);
      }
    }
    references.set(target, { target, file });
  }

  const skill: Skill = {
    name,
    dirName,
    dir,
    skillFile,
    frontmatter,
    sections: sectionsAt(skillFile, 2),
    declaredStates: declaredStates(skillFile, aliases),
    loop,
    legacyHandoffs,
    entries,
    scripts,
    links,
    references,
  };
  if (loopReadError !== undefined) skill.loopReadError = loopReadError;
  return { skill, problems };
}
