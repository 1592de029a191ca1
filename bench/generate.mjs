// Generates a realistic Loop Language project of n skills for the benchmark, in one of two shapes:
//
//   real   (the default) the shape of the real 24-skill project the speed issue measured the Rust
//          reference on: 67 markdown files, ~300 KB per 24 skills — per skill a SKILL.md of about
//          6.5 KB and a LOOP.md of about 3.5 KB, and 19 skills in 24 with a reference document
//   light  the shape of the first benchmark (docs/performance.md before issue 17): per skill a
//          SKILL.md of about 4.5 KB and a LOOP.md of about 3 KB, every fourth skill with a reference
//          (48 + 6 files, ~180 KB per 24 skills)
//
// Calibrated on real skills (the superpowers collection and the seed loops), with the mix of
// markdown real skills use, per KB: ~7 paragraphs, ~4 list items, ~2.7 strong spans, ~1.5 headings,
// ~1.4 inline code spans, ~1.8 table cells, ~0.7 code blocks, some links and HTML. The skills form
// one pipeline (each hands the work to the next; some send it back), so the graph, simulation and
// cross-skill rules do real work. Content is varied by a seeded generator: the same n and shape
// give the same bytes on every machine.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SENTENCES = [
  'Read the current state file before you change anything, and write it back when the step ends.',
  'Each iteration does one logical unit of work and proves it with a test run or a command output.',
  'If the same criterion stays unmet for several iterations, stop and report what blocks it.',
  'Keep the change small enough that a reviewer can read it in one sitting.',
  'The **proof of progress** is evidence, not a claim: paste the output that shows it.',
  'Run `npm test` after every change and compare the result with the previous iteration.',
  'When the acceptance criteria are ambiguous, ask the product owner instead of guessing.',
  'Never skip the failing test: if you did not watch it fail, you do not know it tests the right thing.',
  'Record every decision in the story file with the reason, so the next agent can follow it.',
  'A handoff names the receiving skill and the agent that runs it; nothing is handed to nobody.',
  'Use `git diff --stat` to check that the change touches only the files the story names.',
  'Prefer the existing helpers of the codebase over new abstractions.',
  'The budget is counted in iterations; the halt condition says how many are allowed.',
  'Write the summary for a reader who was not here: what changed, why, and how it was verified.',
  'If a tool call fails twice in the same way, change the approach instead of retrying it.',
  'Check the **edge cases** the story lists, then the ones it forgot.',
  'The reviewer reads the diff, the tests and the notes, in that order.',
  'Do not mark a criterion as met until the verification command has passed on a clean checkout.',
];
const WORDS = ['story', 'criterion', 'review', 'test', 'build', 'release', 'draft', 'plan', 'report', 'patch', 'spec', 'ticket'];
const VERBS = ['Read', 'Write', 'Run', 'Call', 'Wait', 'Record', 'Compare', 'Review', 'Confirm', 'Notify', 'Complete', 'Commit'];

function paragraph(rnd, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(SENTENCES[Math.floor(rnd() * SENTENCES.length)]);
  return out.join(' ');
}

function pick(rnd, list) {
  return list[Math.floor(rnd() * list.length)];
}

/** More of a SKILL.md, as longer real skills have: a section of examples and one of notes. */
function moreSkill(rnd, w) {
  return `
## Examples

${paragraph(rnd, 4)} ${paragraph(rnd, 2)}

1. ${paragraph(rnd, 2)}
2. ${paragraph(rnd, 1)}
3. ${paragraph(rnd, 2)}

\`\`\`text
${w}: verified
evidence: npm test -- --run ${w} (42 passed)
\`\`\`

${paragraph(rnd, 4)}

## Notes

${paragraph(rnd, 3)}

- **${pick(rnd, WORDS)}**: ${paragraph(rnd, 1)}
- **${pick(rnd, WORDS)}**: ${paragraph(rnd, 1)}

${paragraph(rnd, 3)}

${paragraph(rnd, 4)}
`;
}

function skillMd(i, n, rnd, states, withRef, real) {
  const name = `running-step-${i}`;
  const w = pick(rnd, WORDS);
  const next = i === n - 1 ? 'done' : states[i + 1];
  return `---
name: ${name}
description: Moves the ${w} through step ${i} of the delivery pipeline and hands it on when it is verified. Use when a ${w} is in ${states[i]}.
metadata:
  category: pipeline
---
# Running step ${i}

${paragraph(rnd, 4)}

${paragraph(rnd, 4)}

**Core principle:** ${paragraph(rnd, 1)}

## Description

${paragraph(rnd, 3)} The full state machine contract is in [LOOP.md](LOOP.md).${withRef ? ' Details of the checks are in [the reference](references/checks.md).' : ''}

## Rules

1. **Evidence first.** ${paragraph(rnd, 1)}
2. **One unit per iteration.** ${paragraph(rnd, 1)}
3. **Ask, do not guess.** ${paragraph(rnd, 1)}
4. ${paragraph(rnd, 2)}

## State Model

This skill operates in \`${states[i]}\`. It hands the ${w} to \`${next}\` when it is verified and stops
in \`halted-stall\` when it makes no progress.

| state | meaning |
|-------|---------|
| \`${states[i]}\` | the ${w} is being worked on |
| \`${next}\` | the next step owns it |
| \`halted-stall\` | no progress for ten iterations |

## Workflow

${paragraph(rnd, 4)}

- ${paragraph(rnd, 1)}
- ${paragraph(rnd, 2)}
- ${paragraph(rnd, 1)}
- ${paragraph(rnd, 1)}
  - ${paragraph(rnd, 1)}

\`\`\`bash
npm test -- --run ${w}
git diff --stat
\`\`\`

${paragraph(rnd, 4)}

${paragraph(rnd, 3)}

## Checklist

- [ ] ${paragraph(rnd, 1)}
- [ ] ${paragraph(rnd, 1)}
- [ ] The state file names \`${states[i]}\` or the state it moved to.

## Common mistakes

| mistake | fix |
|---------|-----|
| skipping the proof | paste the \`npm test\` output |
| retrying the same call | change the approach after two failures |

<!-- the reviewer checks this section first -->
${paragraph(rnd, 2)}
${real ? moreSkill(rnd, w) : ''}`;
}

function loopMd(i, n, rnd, states, real) {
  const next = i === n - 1 ? 'done' : states[i + 1];
  const nextSkill = i === n - 1 ? 'done' : `running-step-${i + 1}`;
  const back = i > 0 && i % 5 === 0 ? states[i - 1] : null;
  const steps = [];
  for (let s = 0; s < 5; s++) steps.push(`${s + 1}. ${pick(rnd, VERBS)} ${paragraph(rnd, 1).replace(/^\S+\s/u, '')}`);
  return `## Entry Conditions

${paragraph(rnd, 2)}
${real ? `\n- ${paragraph(rnd, 2)}\n- ${paragraph(rnd, 2)}\n- ${paragraph(rnd, 1)}\n\n${paragraph(rnd, 3)}\n` : ''}
## Loop State Schema

| field | type | description |
|-------|------|-------------|
| story | str | Story identifier |
| iteration | int | Iterations spent in this step |
| verified | bool | Whether the last check passed |
| notes | list | Decisions recorded so far |

## Single Iteration Step

${steps.join('\n')}

## Proof of Progress

${paragraph(rnd, 3)}
${real ? `\n${paragraph(rnd, 3)}\n\n${paragraph(rnd, 3)}\n` : ''}
- ${paragraph(rnd, 1)}
- ${paragraph(rnd, 1)}

## State Transition Rule

transition ${states[i]} → ${next}
trigger the step is verified and the evidence is recorded
handoff ${nextSkill} to agent-${i + 1}

transition ${states[i]} → halted-stall
trigger the same check failed ten times
halt stall after 10 iterations
${back ? `\ntransition ${states[i]} → ${back}\ntrigger the previous step left a defect\n` : ''}
## Halt Conditions

halt stall after 10 iterations

${paragraph(rnd, 1)}

## Handoff Target

handoff ${nextSkill} to agent-${i + 1}
`;
}

function referenceMd(i, rnd, real) {
  const heads = real ? ['Before', 'During', 'After', 'Failures', 'Evidence'] : ['Before', 'During', 'After'];
  const parts = [`# Checks of step ${i}\n\n## Contents\n\n${heads.map((h) => `- [${h}](#${h.toLowerCase()})`).join('\n')}\n`];
  for (const h of heads) {
    parts.push(`## ${h}\n\n${paragraph(rnd, 4)}\n\n1. ${paragraph(rnd, 1)}\n2. ${paragraph(rnd, 1)}\n`);
  }
  return parts.join('\n');
}

/** The shapes generateProject knows. */
export const SHAPES = ['real', 'light'];

/** Write a project of n skills under root (which must exist), in a shape of SHAPES (default: real). */
export function generateProject(root, n, shape = 'real') {
  if (!SHAPES.includes(shape)) throw new Error(`unknown shape '${shape}' (${SHAPES.join(', ')})`);
  const real = shape === 'real';
  const rnd = prng(0x10095 + n);
  const states = [];
  for (let i = 0; i < n; i++) states.push(`in-step-${i}`);
  writeFileSync(
    join(root, '.loopkit.yaml'),
    `skills_dir: skills/\nmax_iterations: ${Math.max(20, n + 5)}\nloop_state_files: []\nhalt_reasons:\n  - stall\nstandard_verbs: [trigger, handoff, halt, call, wait, route, escalate, resume, notify, complete, read, write, run, record, compare, review, confirm, commit]\nenforced_states:\n  - name: done\n    agent: ""\n  - name: halted-stall\n    agent: ""\n`,
  );
  for (let i = 0; i < n; i++) {
    const dir = join(root, 'skills', `running-step-${i}`);
    mkdirSync(dir, { recursive: true });
    // real: 19 skills in 24 link a reference document (67 files per 24 skills); light: every fourth
    const withRef = real ? i % 24 < 19 : i % 4 === 3;
    writeFileSync(join(dir, 'SKILL.md'), skillMd(i, n, rnd, states, withRef, real));
    writeFileSync(join(dir, 'LOOP.md'), loopMd(i, n, rnd, states, real));
    if (withRef) {
      mkdirSync(join(dir, 'references'));
      writeFileSync(join(dir, 'references', 'checks.md'), referenceMd(i, rnd, real));
    }
  }
}
