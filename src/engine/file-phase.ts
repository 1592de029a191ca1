/**
 * The per-file phase: one file → its outcome (facts, the problems found in it alone, and the data
 * the rules' file parts return). Pure: the outcome depends on nothing but the job, so it can be
 * cached by content and computed on a worker thread. The mdast tree and the text are dropped here.
 */
import type { FileFacts, FileKind } from '../model/types.js';
import { extractFile } from '../parse/extract.js';
import type { Related } from './diagnostic.js';
import type { Place, Rule } from './rule.js';

export interface FileJob {
  path: string;
  kind: FileKind;
  text: string;
  /**
   * For SKILL.md: the markdown files in its directory and sub-folders, relative to it (which of them
   * SKILL.md names is a per-file question, but the listing is not in the text; it is part of the
   * cache key).
   */
  siblings?: readonly string[];
}

/** A problem as a rule's file part reported it: no severity, message not yet filled in. */
export interface RawDiagnostic {
  code: string;
  messageId: string;
  data?: Record<string, string | number>;
  at: Place;
  related?: Related[];
}

export interface FileOutcome {
  facts: FileFacts;
  diagnostics: RawDiagnostic[];
  /** rule code → what its file part returned (absent when it returned nothing) */
  data: Record<string, unknown>;
  /** milliseconds this file took (not cached) */
  ms?: { parse: number; extract: number; rules: number; byRule: Record<string, number> };
}

export function processFile(job: FileJob, rules: readonly Rule[]): FileOutcome {
  const { source, facts, parseMs, extractMs } = extractFile(job.path, job.kind, job.text);
  const t0 = performance.now();
  const byRule: Record<string, number> = {};
  const diagnostics: RawDiagnostic[] = [];
  const data: Record<string, unknown> = {};
  // the rules' file parts read the tree: none when the markdown was too complex to parse
  const parsed = job.kind === 'script' || source.root !== undefined;
  for (const rule of rules) {
    const part = rule.file;
    if (!parsed || !part || !part.kinds.includes(job.kind)) continue;
    const code = rule.meta.code;
    const r0 = performance.now();
    try {
      const out = part.check({
        file: source,
        kind: job.kind,
        facts,
        siblings: job.siblings ?? [],
        report(input) {
          if (!(input.messageId in rule.meta.messages)) throw new Error(`rule ${code} reported unknown messageId '${input.messageId}'`);
          const d: RawDiagnostic = { code, messageId: input.messageId, at: input.at };
          if (input.data) d.data = input.data;
          if (input.related && input.related.length > 0) d.related = input.related;
          diagnostics.push(d);
        },
      });
      if (out !== undefined) data[code] = out;
    } catch (e) {
      diagnostics.push({
        code,
        messageId: '$crash',
        data: { error: (e as Error).message },
        at: { file: job.path, line: null, column: null },
      });
    }
    byRule[code] = performance.now() - r0;
  }
  // a deep copy: strings cut from the text (titles, states, values) would otherwise keep the whole
  // text alive for as long as the outcome lives — the project's every text, for a large project
  const outcome = structuredClone({ facts, diagnostics, data });
  return { ...outcome, ms: { parse: parseMs, extract: extractMs, rules: performance.now() - t0, byRule } };
}
