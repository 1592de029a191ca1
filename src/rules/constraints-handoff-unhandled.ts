import type { Related } from '../engine/diagnostic.js';
import { defineRule } from '../engine/rule.js';
import { handlersOf, handlesState } from '../graph/moves.js';
import { DONE_TARGET } from '../graph/terminal.js';
import type { Skill } from '../model/types.js';
import { someOf } from '../util/text.js';
import { EVERY } from './lib/loaders.js';

/** The section of LOOP.md that holds the transitions. */
const TRANSITION_SECTION = 'state transition rule';

/** The skills that handle a state, quoted: the first three and how many more (a state a hundred skills share). */
const quoteList = (names: readonly string[]) => someOf(names, (n) => `\`${n}\``);

/** Where the receiving skill's contract is: its transition section, else its first transition, else line 1; SKILL.md without one. */
function contractPlace(skill: Skill, state: string): Related {
  const loop = skill.loop;
  if (loop) {
    const section = loop.sections.find((s) => s.key === TRANSITION_SECTION);
    const first = loop.transitions[0];
    const at = section
      ? { line: section.line, column: section.column }
      : first
        ? { line: first.line, column: first.column }
        : { line: 1, column: 1 };
    return { message: `the contract of \`${skill.name}\`: no transition out of '${state}'`, file: loop.file.path, ...at };
  }
  const legacy = skill.legacyHandoffs;
  if (legacy) {
    const first = legacy.transitions[0]!;
    return {
      message: `the contract of \`${skill.name}\`: no transition out of '${state}'`,
      file: legacy.file.path,
      line: first.line,
      column: first.column,
    };
  }
  return { message: `\`${skill.name}\` has no LOOP.md`, file: skill.skillFile.path, line: 1, column: 1 };
}

/**
 * `handoff <skill> to <agent>` on a transition into state S hands S to that skill: its own contract
 * must have a transition out of S (it handles what it is handed), unless S is terminal.
 */
export default defineRule({
  meta: {
    code: 'constraints-handoff-unhandled',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'constraints',
    reads: ['frontmatter', 'loop', 'graph'],
    description: 'Require the skill a transition hands its target state to to have a transition out of that state in its own contract',
    scope: 'project',
    reference: 'new',
    messages: {
      unhandled: {
        message: "Skill `{skill}` hands '{state}' to `{target}`, but `{target}` has no transition out of '{state}'",
        help:
          "'{state}' is handled by {handlers}. Hand it to {handlerOne} instead, or add a transition out of '{state}' " +
          'to the LOOP.md of `{target}`.',
      },
      noContract: {
        message: "Skill `{skill}` hands '{state}' to `{target}`, which has no LOOP.md",
        help:
          "Nothing says what `{target}` does in '{state}' (it is handled by {handlers}). Write a LOOP.md for `{target}` " +
          "with a transition out of '{state}', or hand it to {handlerOne} instead.",
      },
    },
  },
  check({ project, graph, config, report }) {
    const byName = new Map<string, Skill[]>();
    for (const s of project.skills) byName.set(s.name, [...(byName.get(s.name) ?? []), s]);
    const skills = new Set(byName.keys());
    for (const edge of graph.edges) {
      const h = edge.handoff;
      if (!h || h.skill === DONE_TARGET) continue;
      const state = edge.to;
      // the answer a run's move gets too (graph/moves.ts); an unknown skill is
      // constraints-unknown-handoff-target's, a state no transition leaves graph-dead-end's
      if (handlesState({ graph, config, skills }, h.skill, state)) continue;
      const receivers = byName.get(h.skill)!;
      const handlers = handlersOf(graph, state);
      const withContract = receivers.find((r) => r.loop !== null || r.legacyHandoffs !== null);
      const receiver = withContract ?? receivers[0]!;
      const hasContract = withContract !== undefined;
      report({
        messageId: hasContract ? 'unhandled' : 'noContract',
        data: {
          skill: edge.skill,
          state,
          target: h.skill,
          handlers: quoteList(handlers),
          handlerOne: handlers.length === 1 ? `\`${handlers[0]}\`` : `one of them`,
        },
        at: { file: edge.file, line: h.line, column: h.skillColumn },
        skill: edge.skill,
        related: [contractPlace(receiver, state)],
        states: [state],
      });
    }
  },
});
