/** LOOP.md → LoopFacts: H2 sections, DSL transitions, halt/handoff mentions, step verbs. */
import type { List, ListItem, Paragraph, PhrasingContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import type { LoopFacts, SourceFile, StepVerb } from '../model/types.js';
import { positionAt } from '../util/text.js';
import { visit } from '../util/visit.js';
import { parseDsl } from './dsl.js';
import { plainSection, sectionsAt, sectionsByLine, type ParsedSection } from './sections.js';

const WORD = /^[\p{L}\p{M}\p{Nd}_]+(?:-[\p{L}\p{M}\p{Nd}_]+)*/u;

function firstPhrasing(p: Paragraph): PhrasingContent | undefined {
  return p.children[0];
}

/** The word after the step verb in the raw text (emphasis markers around either word are skipped). */
function nextWord(file: SourceFile, line: number, column: number, word: string): string {
  const at = (file.lineStarts[line - 1] ?? 0) + column - 1 + word.length;
  const m = /^[*_~]*\s+[*_~]*([\p{L}\p{M}]+)/u.exec(file.text.slice(at, at + 200));
  return m ? m[1]!.toLowerCase() : '';
}

/** The first word of each ordered-list item (the step's verb), with its place. */
export function stepVerbs(file: SourceFile, sections: readonly ParsedSection[]): StepVerb[] {
  const out: StepVerb[] = [];
  if (!file.root) return out;
  visit(file.root, 'list', (node) => {
    const list = node as List;
    if (!list.ordered) return;
    for (const item of list.children as ListItem[]) {
      const para = item.children[0];
      if (!para || para.type !== 'paragraph') continue;
      const first = firstPhrasing(para);
      // a step that opens with code (`npm test`) or a link names a thing, not a verb
      if (!first || first.type === 'inlineCode' || first.type === 'link' || first.type === 'image') continue;
      const text = toString(first).trimStart();
      const m = WORD.exec(text);
      if (!m) continue;
      const pos = first.position ?? para.position;
      let line = pos?.start.line ?? 1;
      let column = pos?.start.column ?? 1;
      if (first.type === 'strong' || first.type === 'emphasis' || first.type === 'delete') {
        const inner = first.children[0];
        if (inner?.position) {
          line = inner.position.start.line;
          column = inner.position.start.column;
        }
      }
      const word = m[0];
      out.push({ word, line, column, section: '', next: nextWord(file, line, column, word) });
    }
  });
  out.sort((a, b) => a.line - b.line || a.column - b.column);
  const sectionAt = sectionsByLine(sections);
  for (const step of out) step.section = sectionAt(step.line)?.title ?? '';
  return out;
}

export function loopFacts(file: SourceFile): LoopFacts {
  const sections = sectionsAt(file, 2);
  const dsl = parseDsl(file, sections);
  return {
    sections: sections.map(plainSection),
    transitions: dsl.transitions,
    malformed: dsl.malformed,
    halts: dsl.halts,
    handoffs: dsl.handoffs,
    steps: stepVerbs(file, sections),
    lastTextLine: positionAt(file.lineStarts, file.text.trimEnd().length).line,
  };
}
