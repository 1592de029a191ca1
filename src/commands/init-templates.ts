/** What `loopkit init` writes: a commented .loopkit.yaml and, in a project without skills, one example skill. */

export interface ConfigTemplate {
  preset: 'loop-language' | 'agent-skills';
  /** the `$schema` of the yaml-language-server comment */
  schema: string;
  /** a line under the schema comment (how editors find it), or none */
  schemaNote?: string;
  /** project-relative skills directories to name ('.' = the root; empty: leave skills_dir to discovery) */
  skillsDirs: readonly string[];
  /** the example skill is written too (its settings go into the config) */
  example: boolean;
}

export function configTemplate(t: ConfigTemplate): string {
  const out: string[] = [`# yaml-language-server: $schema=${t.schema}`];
  if (t.schemaNote) out.push(`# ${t.schemaNote}`);
  out.push(
    '#',
    '# loopkit configuration. Every key is optional; the schema above lets editors complete and check',
    '# this file. `loopkit rules` lists the rules, `loopkit explain <code>` explains one.',
    '',
    '# The preset: loop-language checks Loop Language contracts (SKILL.md sections, LOOP.md, the state',
    '# machine of all skills) and the Agent Skills format; agent-skills checks plain Agent Skills',
    '# (agentskills.io) without the Loop Language conventions.',
    `extends: ${t.preset}`,
    '',
  );
  if (t.skillsDirs.length > 0) {
    out.push(
      '# Where skills live, relative to this file: a path, a glob, or a list of them (default: skills/).',
      '# A SKILL.md found anywhere else in the project is an error (skill-outside-skills-dir) unless it is',
      '# ignored (.gitignore, `ignores:` below, or the defaults: node_modules/, build output, tests).',
    );
    if (t.skillsDirs.length === 1) out.push(`skills_dir: ${t.skillsDirs[0]}/`);
    else out.push('skills_dir:', ...t.skillsDirs.map((d) => `  - ${d}/`));
    out.push('');
  } else if (t.preset === 'agent-skills') {
    out.push(
      '# Without skills_dir, every SKILL.md of the project is a skill, wherever it sits, except what',
      '# .gitignore, `ignores:` below and the defaults (node_modules/, build output, tests) leave out.',
    );
  }
  out.push('# Folders and files not to look for skills in (.gitignore syntax, relative to this file).', '# ignores:', '#   - drafts/', '');
  if (t.preset === 'loop-language') {
    out.push(
      '# Budget of the simulation: every entry state must reach a terminal state within this many',
      '# transitions.',
      'max_iterations: 20',
      '',
      '# The verbs numbered steps in LOOP.md may start with: the standard ones, plus your own.',
      'standard_verbs:',
      ...['trigger', 'handoff', 'halt', 'call', 'wait', 'route', 'escalate', 'resume', 'notify', 'complete'].map((v) => `  - ${v}`),
    );
    if (t.example) out.push("  # the example skill's domain verbs", '  - review', '  - fix', '  - record');
    out.push(
      '',
      '# The reasons a `halt <reason> after <N> iterations` line may give.',
      '# halt_reasons: [stall, ambiguous, human-gate, unsafe, budget]',
      '',
    );
    if (t.example) {
      out.push(
        '# States that must appear in the graph; one-word states such as `done` must be listed here.',
        'enforced_states:',
        '  - name: done',
        '    agent: ""',
        '    description: The change is reviewed and every problem found is fixed',
        '',
      );
    } else {
      out.push(
        '# States that must appear in the graph; one-word states such as `done` must be listed here.',
        '# enforced_states:',
        '#   - name: done',
        '#     description: The work is finished',
        '',
      );
    }
    out.push(
      '# Files the loops keep their state in, which must exist ({path, description}); none here.',
      'loop_state_files: []',
      '',
      '# The desk-check and bug-feedback patterns of a delivery team (off unless switched on):',
      '# deskcheck_enabled: true',
      '# deskcheck_state: in-deskcheck',
      '# deskcheck_entry_from: in-dev',
      '# deskcheck_feedback_to: in-dev',
      '# deskcheck_forward_to: in-qa',
      '',
    );
  }
  out.push(
    '# Severity per rule (by code or alias): off, info, warning or error.',
    '# rules:',
    '#   skill-magic-numbers: off',
    '#   skill-name-not-gerund: error',
    '',
    '# Severities for some files only (a later entry wins, and every entry over rules:).',
    '# overrides:',
    '#   - files: skills/legacy/**',
    '#     rules:',
    '#       skill-time-sensitive: off',
    '',
  );
  return out.join('\n');
}

/** The example skill: project-relative path → content. */
export function exampleSkill(preset: ConfigTemplate['preset'], skillsDir: string): Record<string, string> {
  if (preset === 'agent-skills') {
    return {
      [`${skillsDir}/summarizing-notes/SKILL.md`]: `---
name: summarizing-notes
description: Summarizes meeting notes into decisions, open questions and action items. Use when the user shares notes and asks for a summary.
---
# Summarizing notes

## Instructions

1. Read the notes once from start to end.
2. List every decision that was made, with who made it.
3. List the open questions.
4. List the action items, each with an owner and a due date when the notes give one.
5. Check the summary against the notes: every item must come from the notes.

If the notes have no decisions, say so instead of leaving the section out.

## Output format

\`\`\`markdown
## Decisions
- …

## Open questions
- …

## Action items
- [ ] owner: task (due date)
\`\`\`
`,
    };
  }
  return {
    [`${skillsDir}/reviewing-changes/SKILL.md`]: `---
name: reviewing-changes
description: Reviews a change and fixes what the review finds, until the review is clean. Use when a change is ready for review.
---
## Description

Reviews one change at a time and fixes every problem the review finds, then reviews again, until
a review finds nothing. The contract of the loop is [LOOP.md](LOOP.md).

## Rules

1. Review the whole change, not only the lines that changed last.
2. Fix one problem at a time and record what was fixed.
3. If the same problem comes back three times, stop and ask a human.

## State Model

A change starts \`in-review\`. When the review finds a problem it moves to \`in-fix\`, and back to
\`in-review\` once the fix is done. It ends in \`done\` when a review finds nothing, or in
\`halted-stall\` when fixing stops making progress.
`,
    [`${skillsDir}/reviewing-changes/LOOP.md`]: `## Entry Conditions

A change is ready for review.

## Loop State Schema

| field | type | description |
|-------|------|-------------|
| change | str | The change under review |
| problems | list | Problems the last review found |

## Single Iteration Step

1. Review the change and record every problem found.
2. Fix the first open problem.
3. Record the fix and review again.

## Proof of Progress

The list of open problems gets shorter with every iteration.

## State Transition Rule

transition in-review → in-fix
trigger the review found at least one problem

transition in-fix → in-review
trigger every problem found is fixed

transition in-review → done
trigger the review found no problem

transition in-fix → halted-stall
halt stall after 5 iterations

## Halt Conditions

halt stall after 5 iterations

## Handoff Target

handoff done to all-agents
`,
  };
}
