/**
 * SARIF 2.1.0 for code scanning: one run, the rules that ran as `tool.driver.rules`, one result per
 * diagnostic with its region, related places as `relatedLocations`, and the witness run of a graph
 * problem (the related places that are numbered steps: an over-budget run, the way into a trap or a
 * dead end) as a `codeFlow`.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic, Related } from '../engine/diagnostic.js';
import { VERSION } from '../version.js';
import { ruleDocsDirectory, ruleDocsPath } from './docs.js';
import { displayPath } from './paths.js';
import type { Report } from './types.js';

const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

/** The rule's documentation page as `help` (code scanning shows it with each alert), when the package has it. */
function ruleHelp(code: string): { help?: { text: string; markdown: string } } {
  const dir = ruleDocsDirectory();
  if (dir === null) return {};
  try {
    const markdown = readFileSync(join(dir, `${code}.md`), 'utf8');
    return { help: { text: `See ${ruleDocsPath(code)} (loopkit explain ${code}).`, markdown } };
  } catch {
    return {};
  }
}

/** A SARIF artifact URI: relative paths stay relative (percent-encoded), absolute ones become file: URIs. */
function uri(path: string): string {
  return isAbsolute(path) ? pathToFileURL(path).href : encodeURI(path);
}

function location(root: string, p: { file: string; line: number | null; column: number | null }, message?: string) {
  const physicalLocation: Record<string, unknown> = { artifactLocation: { uri: uri(displayPath(root, p.file)) } };
  if (p.line !== null) physicalLocation.region = { startLine: p.line, startColumn: p.column ?? 1 };
  return message === undefined ? { physicalLocation } : { physicalLocation, message: { text: message } };
}

function sarifResult(root: string, d: Diagnostic, ruleIndex: number | undefined) {
  const related: Related[] = d.related ?? [];
  const out: Record<string, unknown> = {
    ruleId: d.code,
    ...(ruleIndex === undefined ? {} : { ruleIndex }),
    level: LEVEL[d.severity],
    message: { text: d.help ? `${d.message}\n${d.help}` : d.message },
    locations: [
      d.pointer === undefined ? location(root, d) : { ...location(root, d), logicalLocations: [{ fullyQualifiedName: d.pointer }] },
    ],
  };
  if (related.length > 0) {
    out.relatedLocations = related.map((r, id) => ({ id, ...location(root, r, r.message) }));
    const steps = related.filter((r) => r.step !== undefined).sort((a, b) => a.step! - b.step!);
    if (steps.length > 0) {
      out.codeFlows = [{ threadFlows: [{ locations: steps.map((r) => ({ location: location(root, r, r.message) })) }] }];
    }
  }
  return out;
}

export function sarifReport(lint: Report): string {
  const root = lint.project.displayRoot;
  const index = new Map(lint.rules.map((r, i) => [r.code, i]));
  const doc = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'loopkit',
            version: VERSION,
            semanticVersion: VERSION,
            rules: lint.rules.map((r) => ({
              id: r.code,
              name: r.code,
              shortDescription: { text: r.description },
              defaultConfiguration: { level: LEVEL[r.defaultSeverity] },
              // a plugin's rule: the page its plugin names, if any
              ...(r.plugin === undefined
                ? { helpUri: ruleDocsPath(r.code), ...ruleHelp(r.code) }
                : r.docs !== undefined
                  ? { helpUri: r.docs }
                  : {}),
              properties: { tags: [r.category], certainty: r.certainty },
            })),
          },
        },
        results: lint.diagnostics.map((d) => sarifResult(root, d, index.get(d.code))),
      },
    ],
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
