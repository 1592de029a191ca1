/**
 * The "Loaders" section of each rule page (docs/rules/<code>.md), generated from the rule's loader
 * table (RuleMeta.loaders) by `npm run docs` and checked by test/meta.test.ts: what each loader does
 * with the condition, and the page that says so.
 */
import type { RuleMeta } from '../engine/rule.js';
import { isTarget, LOADER_INFO, LOADERS, type LoaderEntry } from '../model/targets.js';

export const LOADERS_START = '<!-- loaders:start -->';
export const LOADERS_END = '<!-- loaders:end -->';

const DOES: Record<LoaderEntry['does'], string> = {
  rejects: 'rejects it',
  drops: 'skips the skill',
  accepts: 'accepts it',
  ignores: 'does not read it',
};

export function loadersSection(meta: Pick<RuleMeta, 'loaders' | 'certainty' | 'loadersOf' | 'subject'>): string {
  const table = meta.loaders;
  let body: string;
  if (table === undefined) {
    body =
      'A heuristic: no loader rejects what it reports, so the loaders a skill is written for ([targets](../targets.md)) do not change its severity.';
  } else if (table === 'every') {
    body =
      'Whatever loads the skill: the condition breaks it for every loader (a file or contract element that does not exist, a Loop Language contract, loopkit’s own configuration), so the loaders a skill is written for ([targets](../targets.md)) do not change its severity.';
  } else {
    // opencode, the loader of agent files only, has a row where the table names it
    const rows = LOADERS.filter((t) => isTarget(t) || table[t] !== undefined).map((t) => {
      const e = table[t];
      const said = e ? `[${e.note ?? DOES[e.does]}](${e.source ?? LOADER_INFO[t].docs})` : 'nothing: not a reason for a finding';
      return `| \`${t}\` | ${LOADER_INFO[t].label} | ${e ? DOES[e.does] : '—'} | ${said} |`;
    });
    const intro =
      meta.loadersOf === 'agent-file'
        ? 'What each loader does with the condition, from its documentation. The loaders are those of the agent file or plugin manifest the finding is in ([agents](../agents.md)): the rule’s severity where a loader the file is written for rejects it, a warning `not portable` where only another loader that may read it does, and nothing otherwise — under every preset.'
        : null;
    body = [
      intro ??
        `What each loader does with the condition, from its documentation. For a skill, the finding is the rule’s severity where a loader the skill is written for rejects it ([targets](../targets.md)), a warning \`not portable\` where only another loader that reads the skill does${
          meta.subject === 'name'
            ? ' (an info note, shown with `--verbose`, where that loader reads a loader’s own folder by the way, as GitHub Copilot reads `.claude/skills/`: the name is the author’s choice for the loader the skill is written for)'
            : ''
        }, and nothing otherwise. The loop-language preset keeps the reference’s severity unless targets are named.`,
      '',
      '| target | loader | does | its documentation says |',
      '|---|---|---|---|',
      ...rows,
    ].join('\n');
  }
  return `${LOADERS_START}\n## Loaders\n\n${body}\n${LOADERS_END}`;
}

/** The page with its loaders section written (before `## Why`), or replaced where it is. */
export function withLoadersSection(page: string, meta: Pick<RuleMeta, 'loaders' | 'certainty' | 'loadersOf' | 'subject'>): string {
  const section = loadersSection(meta);
  const start = page.indexOf(LOADERS_START);
  const end = page.indexOf(LOADERS_END);
  if (start >= 0 && end > start) return page.slice(0, start) + section + page.slice(end + LOADERS_END.length);
  const why = page.indexOf('\n## Why\n');
  if (why < 0) throw new Error('the page has no ## Why section to put the loaders before');
  return `${page.slice(0, why + 1)}${section}\n\n${page.slice(why + 1)}`;
}
