/** The set check: registry ↔ rule docs ↔ fixtures, plus code/alias uniqueness and version sync. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../src/rules/index.js';
import { VERSION } from '../src/version.js';
import { ruleFixtureCodes } from './helpers/fixtures.js';

const ROOT = join(import.meta.dirname, '..');
const DOCS = join(ROOT, 'docs', 'rules');
const REQUIRED_H2 = ['## What it checks', '## Why', '## Invalid', '## Valid', '## Compared with loopkit 0.3.3'];

describe('rule set', () => {
  it('codes and aliases are unique', () => {
    const names = rules.flatMap((r) => [r.meta.code, ...(r.meta.aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
  });

  it('codes are kebab-case and messages use only {placeholders}', () => {
    for (const r of rules) {
      expect(r.meta.code).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)+$/);
      expect(Object.keys(r.meta.messages).length).toBeGreaterThan(0);
      expect(r.meta.description).toMatch(/^[A-Z]/);
    }
  });

  it('every rule has a doc page with the required sections, and every page has a rule', () => {
    const codes = rules.map((r) => r.meta.code).sort();
    const pages = readdirSync(DOCS).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3)).sort();
    expect(pages).toEqual(codes);
    for (const r of rules) {
      const text = readFileSync(join(DOCS, `${r.meta.code}.md`), 'utf8');
      expect(text.startsWith(`# ${r.meta.code}\n`), `${r.meta.code}.md title`).toBe(true);
      expect(text, `${r.meta.code}.md severity`).toContain(r.meta.defaultSeverity);
      let at = -1;
      for (const h of REQUIRED_H2) {
        const i = text.indexOf(`\n${h}\n`);
        expect(i, `${r.meta.code}.md needs '${h}' after the previous section`).toBeGreaterThan(at);
        at = i;
      }
    }
  });

  it('every fixture folder belongs to a rule', () => {
    const codes = new Set(rules.map((r) => r.meta.code));
    for (const f of ruleFixtureCodes()) expect(codes.has(f), `fixtures/rules/${f}`).toBe(true);
  });

  it('the version matches package.json', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
    expect(existsSync(join(ROOT, 'bin', 'loopkit.js'))).toBe(true);
  });
});

describe('README', () => {
  it('the rule table is generated from the registry (run `npm run docs`)', async () => {
    const { withRulesTable } = await import('../src/dev/rules-table.js');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(withRulesTable(readme, rules)).toBe(readme);
  });

  it('documents every configuration key', async () => {
    const { CONFIG_KEYS } = await import('../src/config/schema.js');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const k of CONFIG_KEYS) expect(readme, k).toContain(`\`${k}\``);
  });
});
