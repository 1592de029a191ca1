import { defineRule, forEachSkill } from '../engine/rule.js';
import { BASE_TYPES, compileSchema, skillStates, type SchemaProblemId } from '../model/schema.js';
import { closest } from '../util/closest.js';
import { EVERY } from './lib/loaders.js';

/** Words a type may be misspelt from, and the type they mean (other languages' names included). */
const TYPE_WORDS = new Map<string, string>([
  ...BASE_TYPES.map((t) => [t, t] as [string, string]),
  ['string', 'str'],
  ['integer', 'int'],
  ['boolean', 'bool'],
  ['number', 'float'],
  ['double', 'float'],
  ['array', 'list'],
  ['object', 'map'],
  ['dict', 'map'],
  ['date', 'timestamp'],
  ['datetime', 'timestamp'],
]);

export default defineRule({
  meta: {
    code: 'loop-invalid-state-schema',
    defaultSeverity: 'warning',
    certainty: 'definite',
    loaders: EVERY,
    category: 'language',
    reads: ['frontmatter', 'body', 'loop'],
    local: true,
    description: 'Require the Loop State Schema table of LOOP.md to be readable: field paths, types, parents, state values',
    scope: 'skill',
    reference: 'new',
    messages: {
      badPath: {
        message: "Field '{field}' in the Loop State Schema of `{skill}` cannot be read: {reason}",
        help: 'Write a key (`retries`), a nested key (`failures.count`), any key of a map (`stages.*`) or the elements of a list (`history[]`, `history[].stage`); a trailing ? makes it optional.',
      },
      optionalElement: {
        message: "Field '{field}' in the Loop State Schema of `{skill}` marks list elements or map values optional",
        help: 'Only a named field can be optional (`a.b?`); the elements of a list and the values of a map are there or not.',
      },
      unknownType: {
        message: "Unknown type '{type}' for field `{field}` in the Loop State Schema of `{skill}`{suggestion}",
        help: 'Types: {types}; an enumeration is written a | b | c.',
      },
      emptyMember: {
        message: "The type of field `{field}` in the Loop State Schema of `{skill}` has an empty alternative: '{type}'",
        help: 'Write an enumeration as a | b | c, each alternative a value.',
      },
      duplicate: {
        message: 'Field `{field}` is declared twice in the Loop State Schema of `{skill}` (first at line {line})',
        help: 'Keep one row per field.',
      },
      noParent: {
        message: 'Field `{field}` is declared in the Loop State Schema of `{skill}`, but not its parent `{parent}`',
        help: 'Declare `{parent}` in a row of its own (its type, and a ? if it is optional), and fix that row if it has a problem.',
      },
      parentNotMap: {
        message: 'Field `{field}` is a key of `{parent}`, whose type `{type}` is not a map (Loop State Schema of `{skill}`)',
        help: 'Give `{parent}` the type map, or remove the fields under it.',
      },
      parentNotList: {
        message: 'Field `{field}` is an element of `{parent}`, whose type `{type}` is not a list (Loop State Schema of `{skill}`)',
        help: 'Give `{parent}` the type list, or remove the rows for its elements.',
      },
      unknownState: {
        message: "The state-value table of `{skill}` maps '{value}' to '{state}', which is not a state of the skill",
        help: "Map the value to one of the skill's states (those of its transitions and its state model).",
      },
      valuesUnused: {
        message: 'The Loop State Schema of `{skill}` has a state-value table, but no field of type `state`',
        help: 'Give the field that holds the current state the type `state`; the table maps its values to states.',
      },
    } satisfies Record<SchemaProblemId, { message: string; help: string }>,
  },
  check({ project, report }) {
    forEachSkill(project, (skill) => {
      const facts = skill.loop?.stateSchema;
      if (!facts) return;
      const { problems } = compileSchema(facts, skillStates(skill));
      for (const p of problems) {
        const data: Record<string, string | number> = { ...p.data, skill: skill.name };
        if (p.messageId === 'unknownType') {
          const written = String(p.data.type);
          const word = TYPE_WORDS.has(written.toLowerCase()) ? written.toLowerCase() : closest(written, [...TYPE_WORDS.keys()]);
          data.suggestion = word ? `; did you mean '${TYPE_WORDS.get(word)}'?` : '';
        }
        report({ messageId: p.messageId, data, at: { file: skill.loop!.file.path, line: p.line, column: p.column }, skill: skill.name });
      }
    });
  },
});
