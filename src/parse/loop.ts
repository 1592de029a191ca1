/** LOOP.md → LoopContract: H2 sections, DSL transitions, halt/handoff mentions, step verbs. */
import type { List, ListItem, Paragraph, PhrasingContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import type { LoopContract, Section, SourceFile, StepVerb } from '../model/types.js';
import { visit } from '../util/visit.js';
import { parseDsl } from './dsl.js';
import { sectionAtLine, sectionsAt } from './sections.js';

const WORD = /^[\p{L}\p{M}\p{Nd}_]+(?:-[\p{L}\p{M}\p{Nd}_]+)*/u;

function firstPhrasing(p: Paragraph): PhrasingContent | undefined {
  return p.children[0];
}

/** The first word of each ordered-list item (the step's verb), with its place. */
export function stepVerbs(file: SourceFile, sections: readonly Section[]): StepVerb[] {
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
      out.push({ word: m[0], line, column, section: sectionAtLine(sections, line)?.title ?? '' });
    }
  });
  out.sort((a, b) => a.line - b.line || a.column - b.column);
  return out;
}

export function parseLoop(file: SourceFile): LoopContract {
  const sections = sectionsAt(file, 2);
  const dsl = parseDsl(file, sections);
  return {
    file,
    sections,
    transitions: dsl.transitions,
    malformed: dsl.malformed,
    halts: dsl.halts,
    handoffs: dsl.handoffs,
    steps: stepVerbs(file, sections),
  };
}
