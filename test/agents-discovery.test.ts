/**
 * Where a project's agent files and plugin manifests are (discover/agents.ts), asked of
 * `discoverAgents` directly on small projects in temporary directories, with the ignore rules the
 * engine builds (IgnoreRules.forProject, as engine/project.ts does): every place the loaders read,
 * the root's `.gitignore`, plugins and marketplaces, the places `agents:` names, links out of the
 * root — each result compared whole (paths, loaders and the `why` of each place, in order). And
 * the loaders of a place (`agentLoaders`), whole.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentLoaders, discoverAgents, type AgentDiscovery, type AgentPlace } from '../src/discover/agents.js';
import { IgnoreRules } from '../src/discover/ignore.js';
import type { AgentLoader } from '../src/model/agents.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loopkit-agents-discovery-'));
  made.push(dir);
  return dir;
}

/** A project of these files (project-relative path → text; a path ending in `/` is an empty folder). */
function project(files: Record<string, string>): string {
  const root = tempDir();
  for (const [path, text] of Object.entries(files)) {
    if (path.endsWith('/')) {
      mkdirSync(join(root, path), { recursive: true });
      continue;
    }
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** A symbolic link at `path` of `root` to `target` (absolute, or relative to the link's folder). */
function link(root: string, path: string, target: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  symlinkSync(target, join(root, path));
}

/** discoverAgents as the engine calls it: the project's rules with `ignores:` of `.loopkit.yaml`. */
function discover(root: string, options: { skills?: string[]; named?: string[]; ignores?: string[] } = {}): AgentDiscovery {
  const ignores = options.ignores ?? [];
  const rules = IgnoreRules.forProject(root, { ignores, configFile: ignores.length > 0 ? '.loopkit.yaml' : null, ignorePatterns: [] });
  return discoverAgents(root, rules, options.skills ?? [], options.named ?? []);
}

const place = (path: string, loader: AgentLoader | null, why: string): AgentPlace => ({ path, loader, why });
const NAMED = '.loopkit.yaml agents:';
const AGENT = '---\ndescription: An agent\n---\nPrompt.\n';
const MANIFEST = '{ "name": "p" }\n';

describe('the places the loaders read', () => {
  it('finds nothing, and no manifest, in a project without agent places', () => {
    const root = project({ 'README.md': '# x\n', 'skills/a/SKILL.md': '---\nname: a\n---\n' });
    expect(discover(root, { skills: ['skills/a'] })).toEqual({ agents: [], manifests: [] });
  });

  it('reads every .md file (any case of the extension) directly in each place, with its loader and the place as why, sorted by path', () => {
    const root = project({
      '.opencode/agent/build.md': AGENT,
      '.opencode/agents/plan.md': AGENT,
      '.claude/agents/reviewer.md': AGENT,
      '.claude/agents/Shout.MD': AGENT,
      'agents/writer.md': AGENT,
    });
    expect(discover(root)).toEqual({
      agents: [
        place('.claude/agents/Shout.MD', 'claude-code', '.claude/agents/'),
        place('.claude/agents/reviewer.md', 'claude-code', '.claude/agents/'),
        place('.opencode/agent/build.md', 'opencode', '.opencode/agent/'),
        place('.opencode/agents/plan.md', 'opencode', '.opencode/agents/'),
        place('agents/writer.md', null, 'agents/'),
      ],
      manifests: [],
    });
  });

  it('skips what is no agent file: folders (even one named x.md), nested folders, names not ending in .md, a file named exactly README.md in any case', () => {
    const root = project({
      'agents/a.md': AGENT,
      'agents/notes.txt': 'x',
      'agents/notes.md.bak': AGENT,
      'agents/README.md': '# agents\n',
      'agents/team-readme.md': AGENT,
      'agents/readme.md.md': AGENT,
      'agents/nested.md/inner.md': AGENT,
      'agents/sub/deep.md': AGENT,
      'agents/empty.md/': '',
      '.claude/agents/Readme.md': '# agents\n',
      '.claude/agents/x.md': AGENT,
    });
    expect(discover(root)).toEqual({
      agents: [
        place('.claude/agents/x.md', 'claude-code', '.claude/agents/'),
        place('agents/a.md', null, 'agents/'),
        place('agents/readme.md.md', null, 'agents/'),
        place('agents/team-readme.md', null, 'agents/'),
      ],
      manifests: [],
    });
  });
});

describe('the ignore rules: the root’s .gitignore, the defaults, ignores:', () => {
  it('the root’s .gitignore hides agents: a parent folder’s pattern hides every file below it, a file pattern a file in any place, and a negation keeps a file', () => {
    const root = project({
      '.gitignore': '.opencode/\ndraft-*.md\n!draft-kept.md\n',
      '.opencode/agent/hidden.md': AGENT,
      '.opencode/agents/hidden.md': AGENT,
      '.claude/agents/draft-one.md': AGENT,
      '.claude/agents/draft-kept.md': AGENT,
      '.claude/agents/ok.md': AGENT,
      'agents/draft-two.md': AGENT,
      'agents/writer.md': AGENT,
    });
    expect(discover(root)).toEqual({
      agents: [
        place('.claude/agents/draft-kept.md', 'claude-code', '.claude/agents/'),
        place('.claude/agents/ok.md', 'claude-code', '.claude/agents/'),
        place('agents/writer.md', null, 'agents/'),
      ],
      manifests: [],
    });
  });

  it('a directory-only pattern of the .gitignore hides folders, never a file of that name (an agent, a manifest)', () => {
    const root = project({
      '.gitignore': 'notes.md/\nmarketplace.json/\n',
      'agents/notes.md': AGENT,
      '.claude-plugin/marketplace.json': MANIFEST,
    });
    expect(discover(root)).toEqual({ agents: [place('agents/notes.md', null, 'agents/')], manifests: ['.claude-plugin/marketplace.json'] });
  });

  it('a .gitignore pattern naming a place itself hides the place', () => {
    const root = project({ '.gitignore': '/.claude/agents/\n', '.claude/agents/a.md': AGENT, 'agents/b.md': AGENT });
    expect(discover(root)).toEqual({ agents: [place('agents/b.md', null, 'agents/')], manifests: [] });
  });

  it('the rules passed in hide agents too: a default-ignored folder (build/) and an `ignores:` pattern', () => {
    const root = project({
      'agents/a.md': AGENT,
      'team/agents/t.md': AGENT,
      'team/agents/old-t.md': AGENT,
      'build/agents/b.md': AGENT,
    });
    expect(discover(root, { named: ['team/agents', 'build/agents'], ignores: ['/agents/', 'old-*.md'] })).toEqual({
      agents: [place('team/agents/t.md', null, NAMED)],
      manifests: [],
    });
  });

  it('a .gitignore that links out of the root is not read', () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'gitignore'), '*.md\n');
    const root = project({ 'agents/a.md': AGENT });
    link(root, '.gitignore', join(outside, 'gitignore'));
    expect(discover(root)).toEqual({ agents: [place('agents/a.md', null, 'agents/')], manifests: [] });
  });
});

describe('plugin and marketplace manifests', () => {
  it('finds both manifests at the root without any skill, sorted', () => {
    const root = project({ '.claude-plugin/plugin.json': MANIFEST, '.claude-plugin/marketplace.json': MANIFEST });
    expect(discover(root)).toEqual({ agents: [], manifests: ['.claude-plugin/marketplace.json', '.claude-plugin/plugin.json'] });
  });

  it('a plugin at the root makes the root’s agents/ Claude Code’s, and nothing else: not a named folder, not OpenCode’s places', () => {
    const root = project({
      '.claude-plugin/plugin.json': MANIFEST,
      'agents/a.md': AGENT,
      'custom/c.md': AGENT,
      '.opencode/agent/o.md': AGENT,
    });
    expect(discover(root, { named: ['custom'] })).toEqual({
      agents: [
        place('.opencode/agent/o.md', 'opencode', '.opencode/agent/'),
        place('agents/a.md', 'claude-code', 'agents/'),
        place('custom/c.md', null, NAMED),
      ],
      manifests: ['.claude-plugin/plugin.json'],
    });
  });

  it('finds a plugin in every folder above a skill, once, and reads its agents/ as Claude Code’s “<plugin>/agents/ of a plugin”; not a manifest beside no skill, nor in the skill’s own folder', () => {
    const root = project({
      'plugins/p/.claude-plugin/plugin.json': MANIFEST,
      'plugins/p/agents/helper.md': AGENT,
      'plugins/p/agents/notes.txt': 'x',
      'plugins/p/skills/s/SKILL.md': '---\nname: s\n---\n',
      'plugins/p/skills/t/SKILL.md': '---\nname: t\n---\n',
      'plugins/p/skills/t/.claude-plugin/plugin.json': MANIFEST,
      'plugins/p/skills/t/agents/own.md': AGENT,
      'other/.claude-plugin/plugin.json': MANIFEST,
      'other/agents/o.md': AGENT,
    });
    expect(discover(root, { skills: ['plugins/p/skills/s', 'plugins/p/skills/t'] })).toEqual({
      agents: [place('plugins/p/agents/helper.md', 'claude-code', 'plugins/p/agents/ of a plugin')],
      manifests: ['plugins/p/.claude-plugin/plugin.json'],
    });
  });

  it('a plugin’s agents/ named in agents: too stays the plugin’s', () => {
    const root = project({
      'p/.claude-plugin/plugin.json': MANIFEST,
      'p/agents/helper.md': AGENT,
      'p/skills/s/SKILL.md': '---\nname: s\n---\n',
    });
    expect(discover(root, { skills: ['p/skills/s'], named: ['p/agents'] })).toEqual({
      agents: [place('p/agents/helper.md', 'claude-code', 'p/agents/ of a plugin')],
      manifests: ['p/.claude-plugin/plugin.json'],
    });
  });

  it('a marketplace manifest is no plugin: the root’s agents/ keeps each file’s format, and no folder beside or below a marketplace is read', () => {
    // `.cla/` is where a marketplace's path would lead if it were cut as a plugin's (`/.claude-plugin/plugin.json`, 5 characters shorter)
    const root = project({
      '.claude-plugin/marketplace.json': MANIFEST,
      'agents/a.md': AGENT,
      '.cla/agents/x.md': AGENT,
      'mk/.claude-plugin/marketplace.json': MANIFEST,
      'mk/agents/m.md': AGENT,
      'mk/.cla/agents/y.md': AGENT,
      'mk/skills/s/SKILL.md': '---\nname: s\n---\n',
    });
    expect(discover(root, { skills: ['mk/skills/s'] })).toEqual({
      agents: [place('agents/a.md', null, 'agents/')],
      manifests: ['.claude-plugin/marketplace.json', 'mk/.claude-plugin/marketplace.json'],
    });
  });

  it('an ignored manifest is not read, nor the agents/ of an ignored plugin', () => {
    const root = project({
      '.gitignore': '/.claude-plugin/plugin.json\np/.claude-plugin/\n',
      '.claude-plugin/plugin.json': MANIFEST,
      '.claude-plugin/marketplace.json': MANIFEST,
      'agents/a.md': AGENT,
      'p/.claude-plugin/plugin.json': MANIFEST,
      'p/agents/helper.md': AGENT,
      'p/skills/s/SKILL.md': '---\nname: s\n---\n',
    });
    expect(discover(root, { skills: ['p/skills/s'] })).toEqual({
      agents: [place('agents/a.md', null, 'agents/')],
      manifests: ['.claude-plugin/marketplace.json'],
    });
  });
});

describe('the places agents: in .loopkit.yaml names', () => {
  it('reads a named folder’s .md files as “.loopkit.yaml agents:”: a leading ./ and trailing slashes dropped, a folder name ending in a dot kept, a loader’s place named again kept as the loader’s', () => {
    const root = project({
      'custom/c.md': AGENT,
      'custom/README.md': '# x\n',
      'team/agents/t.md': AGENT,
      'old./agents/o.md': AGENT,
      '.claude/agents/x.md': AGENT,
    });
    expect(discover(root, { named: ['./custom', 'team/agents//', 'old./agents', '.claude/agents'] })).toEqual({
      agents: [
        place('.claude/agents/x.md', 'claude-code', '.claude/agents/'),
        place('custom/c.md', null, NAMED),
        place('old./agents/o.md', null, NAMED),
        place('team/agents/t.md', null, NAMED),
      ],
      manifests: [],
    });
  });

  it('a named . or ./ or ./. is the root: its .md files but its README, as “.loopkit.yaml agents:” (never an internal error)', () => {
    const root = project({ 'lead.md': AGENT, 'README.md': '# x\n', 'x/./y/z.md': AGENT });
    for (const named of [['.'], ['./'], ['./.']]) {
      expect(discover(root, { named }), named[0]).toEqual({ agents: [place('lead.md', null, NAMED)], manifests: [] });
    }
    expect(discover(root, { named: ['x/./y'] })).toEqual({ agents: [place('x/y/z.md', null, NAMED)], manifests: [] });
  });

  it('a named folder keeps the dots of its name: a leading one (.team), a trailing one (old.)', () => {
    const root = project({ '.team/a.md': AGENT, 'team/b.md': AGENT, 'old./c.md': AGENT, 'old/d.md': AGENT });
    expect(discover(root, { named: ['.team', 'old.'] })).toEqual({
      agents: [place('.team/a.md', null, NAMED), place('old./c.md', null, NAMED)],
      manifests: [],
    });
  });

  it('reads a named .md file as an agent, once; a named folder whose name ends in .md as a folder; not a named file of another extension, nor one that does not exist', () => {
    const root = project({
      'docs/reviewer.md': AGENT,
      'docs/notes.md.txt': AGENT,
      'prompts.md/a.md': AGENT,
      '.claude/agents/x.md': AGENT,
    });
    expect(
      discover(root, {
        named: ['docs/reviewer.md', './docs/reviewer.md', 'docs/notes.md.txt', 'prompts.md', 'missing.md', '.claude/agents/x.md'],
      }),
    ).toEqual({
      agents: [
        place('.claude/agents/x.md', 'claude-code', '.claude/agents/'),
        place('docs/reviewer.md', null, NAMED),
        place('prompts.md/a.md', null, NAMED),
      ],
      manifests: [],
    });
  });

  it('an ignored named file or folder gives nothing', () => {
    const root = project({
      '.gitignore': 'private/\nsecret.md\n',
      'private/a.md': AGENT,
      'docs/secret.md': AGENT,
      'docs/open.md': AGENT,
    });
    expect(discover(root, { named: ['private', 'private/a.md', 'docs/secret.md', 'docs/open.md'] })).toEqual({
      agents: [place('docs/open.md', null, NAMED)],
      manifests: [],
    });
  });
});

describe('links', () => {
  it('reads no place, manifest or named file that links out of the root, and no file in a place that does; a link that stays inside is read', () => {
    const outside = tempDir();
    mkdirSync(join(outside, 'agents'));
    writeFileSync(join(outside, 'agents', 'o.md'), AGENT);
    mkdirSync(join(outside, '.claude-plugin'));
    writeFileSync(join(outside, '.claude-plugin', 'plugin.json'), MANIFEST);
    writeFileSync(join(outside, 'x.md'), AGENT);
    const root = project({ 'shared/s.md': AGENT, 'docs/real.md': AGENT });
    link(root, '.claude/agents', join(outside, 'agents'));
    link(root, '.claude-plugin', join(outside, '.claude-plugin'));
    link(root, 'ext', join(outside, 'agents'));
    link(root, 'ext.md', join(outside, 'x.md'));
    link(root, 'agents/linked-out.md', join(outside, 'x.md'));
    link(root, 'agents/linked-in.md', '../docs/real.md');
    link(root, '.opencode/agent', '../shared');
    expect(discover(root, { named: ['ext', 'ext.md'] })).toEqual({
      agents: [place('.opencode/agent/s.md', 'opencode', '.opencode/agent/'), place('agents/linked-in.md', null, 'agents/')],
      manifests: [],
    });
  });
});

describe('agentLoaders: the loaders of a place', () => {
  it('an agent in a loader’s place is that loader’s alone', () => {
    expect(agentLoaders(place('.claude/agents/x.md', 'claude-code', '.claude/agents/'), 'opencode')).toEqual({
      targets: ['claude-code'],
      alsoReadBy: [],
      why: 'in .claude/agents/',
      named: false,
      always: true,
    });
  });

  it('an agent in a place no loader reads is written for the loader of its format, and read by the other too', () => {
    expect(agentLoaders(place('agents/a.md', null, 'agents/'), 'opencode')).toEqual({
      targets: ['opencode'],
      alsoReadBy: ['claude-code'],
      why: 'in agents/, written in OpenCode’s format (permission:, mode:)',
      named: false,
      always: true,
    });
    expect(agentLoaders(place('custom/a.md', null, NAMED), 'claude-code')).toEqual({
      targets: ['claude-code'],
      alsoReadBy: ['opencode'],
      why: 'in .loopkit.yaml agents:, written in Claude Code’s format',
      named: false,
      always: true,
    });
  });
});
