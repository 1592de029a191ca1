import type { Root } from 'mdast';
import { defineRule } from '../engine/rule.js';
import { isAbsoluteDestination, isMachineAbsolutePath, pathTokens } from '../util/paths.js';
import { insideAny, proseNodes, urlNodes } from '../util/prose-nodes.js';
import { urlPosition, valuePosition } from '../parse/source-map.js';
import { isConversionExample, onCounterExampleLine } from './lib/code.js';

/** A command that creates a user (`useradd [options] LOGIN`, `adduser [options] LOGIN`), up to the end of the command. */
const CREATES_USER = /\b(?:useradd|adduser)\b([^\n&;|]*)/gu;
/** A Dockerfile's `USER name`: the user the container runs as. */
const DOCKER_USER = /^\s*USER\s+([a-z_][\w-]*)/gmu;

/**
 * The users the file creates or runs a container as (a Dockerfile or shell script in SKILL.md):
 * their homes (`/home/agent/…`) are the same in every such container, not a person's machine.
 */
function containerUsers(text: string): Set<string> {
  const users = new Set<string>();
  for (const m of text.matchAll(CREATES_USER)) {
    // the login is the last argument that is no option (`useradd -m -u 1000 -s /bin/bash agent`)
    const login = m[1]!.trim().replace(/\\$/u, '').trim().split(/\s+/u).pop() ?? '';
    if (/^[a-z_][\w-]*\$?$/u.test(login)) users.add(login);
  }
  for (const m of text.matchAll(DOCKER_USER)) users.add(m[1]!);
  return users;
}

export default defineRule({
  meta: {
    code: 'skill-absolute-path',
    defaultSeverity: 'error',
    certainty: 'heuristic',
    category: 'structure',
    reads: [],
    description: 'Disallow absolute file paths in SKILL.md links and machine-specific absolute paths in its prose',
    scope: 'skill',
    reference: 'improved',
    messages: {
      absolute: {
        message: "SKILL.md references absolute path '{path}'. Use relative paths from the skill root",
        help: 'A skill is installed in different places on different machines; link its files relative to SKILL.md, e.g. [guide](references/guide.md).',
      },
    },
  },
  file: {
    kinds: ['skill'],
    check({ file, report }) {
      const root = file.root as Root;
      const place = (p: { line: number; column: number }) => ({ file: file.path, line: p.line, column: p.column });
      const links = urlNodes(root).filter((n) => isAbsoluteDestination(n.url));
      for (const node of links) {
        report({ messageId: 'absolute', data: { path: node.url }, at: place(urlPosition(file, node)) });
      }
      const users = containerUsers(file.text);
      for (const node of proseNodes(root, true)) {
        // every machine path has a slash; the link is reported once, at its destination
        // … and a path shown as one side of a conversion (`/Users/ann/x` → `-Users-ann-x`) is data
        if (!node.value.includes('/') || insideAny(node, links) || isConversionExample(file.text, node)) continue;
        for (const t of pathTokens(node.value)) {
          if (!isMachineAbsolutePath(t.text)) continue;
          // the home of a user the skill's own Dockerfile creates (`useradd … agent`, then `/home/agent/.vnc`)
          const home = /^\/home\/([^/]+)\//u.exec(t.text);
          if (home && users.has(home[1]!)) continue;
          const p = valuePosition(file, node, t.index);
          if (!onCounterExampleLine(file, p.line, p.column)) report({ messageId: 'absolute', data: { path: t.text }, at: place(p) });
        }
      }
    },
  },
});
