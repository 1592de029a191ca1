/**
 * The per-file phase's parse and extraction: one file's text → its SourceFile (text, line table,
 * mdast tree for markdown) and its facts (FileFacts), which depend on nothing but the path, the
 * kind and the text.
 */
import type { FileFacts, FileKind, FileModel, SourceFile } from '../model/types.js';
import { lineCount } from '../util/text.js';
import { tooComplex } from './complexity.js';
import { parseHandoffsFile } from './handoffs.js';
import { anchors, importsPartials, localLinks } from './links.js';
import { loopFacts } from './loop.js';
import { sourceFile } from './markdown.js';
import { markdownLinkTargets, skillFacts } from './skill.js';
import { collectSuppressions } from './suppressions.js';

export interface Extracted {
  source: SourceFile;
  facts: FileFacts;
  /** milliseconds spent parsing (markdown → mdast) and extracting the facts */
  parseMs: number;
  extractMs: number;
}

export function extractFile(path: string, kind: FileKind, text: string): Extracted {
  const t0 = performance.now();
  // markdown whose shape would make the parser's time explode is not parsed (parse/complexity.ts)
  const complexity = kind === 'script' ? null : tooComplex(text);
  const markdown = kind !== 'script' && complexity === null;
  const source = sourceFile(path, text, markdown);
  const t1 = performance.now();
  const file: FileModel = {
    path,
    lines: source.lineStarts.length,
    lineCount: lineCount(text),
    suppressions: kind !== 'script' ? collectSuppressions(text, source.root) : [],
    links: markdown ? markdownLinkTargets(source) : [],
    localLinks: markdown ? localLinks(source) : [],
    anchors: markdown ? anchors(source) : [],
  };
  if (complexity) file.tooComplex = complexity;
  if (markdown && importsPartials(text)) file.importsPartials = true;
  const facts: FileFacts = { file };
  if (kind === 'skill') facts.skill = skillFacts(source);
  else if (kind === 'loop') facts.loop = loopFacts(source);
  else if (kind === 'handoffs') facts.handoffs = parseHandoffsFile(source);
  return { source, facts, parseMs: t1 - t0, extractMs: performance.now() - t1 };
}
