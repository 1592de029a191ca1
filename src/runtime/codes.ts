/**
 * The registry of runtime codes: what `loopkit state` (a state file against a skill's Loop State
 * Schema) and `loopkit trace` (a recorded run against the combined graph) report. They are not
 * rules of `check` — they judge what an agent did, not the contract — so they cannot be selected
 * with `--rule` or configured under `rules:`; each has its page in docs/rules/ like a rule.
 */
import { interpolate, type Diagnostic, type Related } from '../engine/diagnostic.js';
import type { MessageTemplate, RuleMeta } from '../engine/rule.js';

/** When a run repeats one problem many times, only the first MAX_SHOWN of each code are listed; one more diagnostic counts the rest. */
export const MAX_SHOWN = 100;

/** The message of that diagnostic, shared by every code. */
const MORE: MessageTemplate = {
  message: '{count} more {code} problems are not listed (the first of them at line {line})',
  help: 'Fix the ones listed first; they often cause the rest.',
};

function code<M extends string>(meta: RuleMeta<M>): RuleMeta<M> {
  return meta;
}

const stateFileCodes = [
  code({
    code: 'state-file-malformed',
    defaultSeverity: 'error',
    category: 'state-file',
    description: 'Require a state file to be valid JSON or YAML holding a map of fields, each key written once',
    scope: 'project',
    reference: 'new',
    messages: {
      syntax: {
        message: 'The state file is not valid {format}: {reason}',
        help: 'Fix the syntax; nothing else in the file can be checked until it parses.',
      },
      notObject: {
        message: 'The state file holds {got}, not a map of fields',
        help: 'A state file is one map (a JSON object) whose keys are the fields of the Loop State Schema of `{skill}`.',
      },
      duplicateKey: {
        message: "Key '{key}' is written twice in the same map (first at {line}:{column}); readers keep only the last",
        help: 'Keep one of them.',
      },
    },
  }),
  code({
    code: 'state-file-missing-field',
    defaultSeverity: 'error',
    category: 'state-file',
    description: 'Require every required field of the Loop State Schema in the state file',
    scope: 'project',
    reference: 'new',
    messages: {
      missing: {
        message: 'Required field `{pointer}` ({type}) is missing',
        help: 'The Loop State Schema of `{skill}` declares `{field}`; write it, or mark it optional in the table (`{field}?`).',
      },
    },
  }),
  code({
    code: 'state-file-wrong-type',
    defaultSeverity: 'error',
    category: 'state-file',
    description: 'Require every value of a state file to have the type its Loop State Schema row declares',
    scope: 'project',
    reference: 'new',
    messages: {
      type: {
        message: '`{pointer}` is {got}; the schema says `{type}`',
        help: 'Declared as `{field} | {type}` in the Loop State Schema of `{skill}`.',
      },
      null: {
        message: '`{pointer}` is null; the schema says `{type}`',
        help: 'Write a value, or mark the field optional in the Loop State Schema of `{skill}` (`{field}?`): an optional field may be absent or null.',
      },
      implied: {
        message: '`{pointer}` is {got}; the schema declares fields under it, so it must be a {type}',
        help: 'The Loop State Schema of `{skill}` declares `{child}`.',
      },
      timestamp: {
        message: '`{pointer}` is {got}, not an ISO 8601 timestamp',
        help: 'Write a date or a date-time, e.g. 2024-01-17 or 2024-01-17T10:30:00Z (the schema of `{skill}` says `{type}`).',
      },
    },
  }),
  code({
    code: 'state-file-invalid-value',
    defaultSeverity: 'error',
    category: 'state-file',
    description: 'Require an enumerated field of a state file to hold one of its declared values',
    scope: 'project',
    reference: 'new',
    messages: {
      notMember: {
        message: '`{pointer}` is {got}, not one of: {values}{suggestion}',
        help: 'Declared as `{field} | {type}` in the Loop State Schema of `{skill}`.',
      },
    },
  }),
  code({
    code: 'state-file-unknown-state',
    defaultSeverity: 'error',
    category: 'state-file',
    description: 'Require a field of type state to name a state of the skill (through its state-value table, when it has one)',
    scope: 'project',
    reference: 'new',
    messages: {
      unknown: {
        message: '`{pointer}` is {got}, which is not a state of `{skill}`{suggestion}',
        help: 'States of `{skill}`: {states}.',
      },
      unmapped: {
        message: '`{pointer}` is {got}, which the state-value table of `{skill}` does not map to a state{suggestion}',
        help: 'Values the state file may write: {states}.',
      },
    },
  }),
  code({
    code: 'state-file-unknown-field',
    defaultSeverity: 'warning',
    category: 'state-file',
    description: 'Check that every field of a state file is described by the Loop State Schema',
    scope: 'project',
    reference: 'new',
    messages: {
      unknown: {
        message: '`{pointer}` is not described by the Loop State Schema of `{skill}`{suggestion}',
        help: 'Describe it in the table (`| {field} | <type> | … |`), or remove it from the state file.',
      },
    },
  }),
];

export const runtimeCodes: readonly RuleMeta[] = [...stateFileCodes];
export const STATE_FILE_CODES: readonly RuleMeta[] = stateFileCodes;

const byCode = new Map(runtimeCodes.map((m) => [m.code, m]));

export interface RuntimeReport {
  code: string;
  messageId: string;
  data: Record<string, string | number>;
  file: string;
  line: number | null;
  column: number | null;
  pointer?: string;
  skill?: string;
  related?: Related[];
}

/** A diagnostic of a runtime code (messageId `$more` is the "N more" line every code has). */
export function runtimeDiagnostic(r: RuntimeReport): Diagnostic {
  const meta = byCode.get(r.code);
  if (!meta) throw new Error(`unknown runtime code '${r.code}'`);
  const tpl = r.messageId === '$more' ? MORE : meta.messages[r.messageId];
  if (!tpl) throw new Error(`runtime code ${r.code} has no message '${r.messageId}'`);
  const data = { ...r.data, code: r.code };
  const d: Diagnostic = {
    code: r.code,
    severity: meta.defaultSeverity,
    message: interpolate(tpl.message, data),
    help: tpl.help ? interpolate(tpl.help, data) : '',
    file: r.file,
    line: r.line,
    column: r.line === null ? null : r.column,
    messageId: r.messageId,
  };
  if (r.pointer !== undefined) d.pointer = r.pointer;
  if (r.skill !== undefined) d.skill = r.skill;
  if (r.related && r.related.length > 0) d.related = r.related;
  return d;
}

/**
 * Collects the diagnostics of a run, listing at most MAX_SHOWN of each code and counting the rest
 * (memory stays bounded however long the trace).
 */
export class DiagnosticSink {
  readonly shown: Diagnostic[] = [];
  private readonly counts = new Map<string, { shown: number; more: number; first: RuntimeReport | null }>();

  report(r: RuntimeReport): void {
    let c = this.counts.get(r.code);
    if (!c) this.counts.set(r.code, (c = { shown: 0, more: 0, first: null }));
    if (c.shown < MAX_SHOWN) {
      c.shown++;
      this.shown.push(runtimeDiagnostic(r));
    } else {
      c.more++;
      c.first ??= r;
    }
  }

  /** Everything reported, with one "N more" diagnostic per code that went over the limit. */
  diagnostics(): Diagnostic[] {
    const out = [...this.shown];
    for (const [code, c] of this.counts) {
      if (c.more === 0 || !c.first) continue;
      out.push(
        runtimeDiagnostic({
          code,
          messageId: '$more',
          data: { count: c.more, line: c.first.line ?? 0 },
          file: c.first.file,
          line: c.first.line,
          column: c.first.column,
        }),
      );
    }
    return out;
  }
}
