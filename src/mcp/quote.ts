/**
 * Quoted text is data: what a tool result carries of the project's files — names of skills and
 * states, triggers, descriptions, lines and values a diagnostic quotes — is marked, so a client (and
 * the model behind it) can tell loopkit's words from a skill's. In the text content of a result every
 * quoted piece is written between « and », with «, », control characters, bidirectional overrides
 * and line separators inside it escaped (`\u00ab`, `\n`, `\u202e`) and a long piece cut: a quote can
 * neither end early nor start a line of its own. The structured content keeps each value verbatim in
 * its own field; a diagnostic lists the quoted pieces of its message in `quoted`.
 */
import type { Diagnostic } from '../engine/diagnostic.js';
import { ruleIndex } from '../api/engine.js';
import type { RuleMeta } from '../engine/rule.js';
import { shownPath } from '../parse/confine.js';
import { runtimeTemplate } from '../runtime/codes.js';

/** The longest quote the text content shows, in characters (the structured content has it whole). */
export const QUOTE_LIMIT = 200;

/** A piece of the project's text as the text content shows it: «…», escaped, cut at QUOTE_LIMIT. */
export function quote(text: string): string {
  return `«${shownPath(text, QUOTE_LIMIT).replace(/«/gu, '\\u00ab').replace(/»/gu, '\\u00bb')}»`;
}

/** A sentence with quoted names: `q` writes each name (quote for the text content, plain for the structured one). */
export type Quoter = (text: string) => string;

/** Names as the structured content's sentences write them (the CLI's form: between single quotes). */
export const plain: Quoter = (text) => `'${text}'`;

/** The text content's form of each diagnostic an answer carries (its message with the quoted pieces marked). */
const marked = new WeakMap<object, string>();

/** A diagnostic's message as the text content shows it. */
export function markedText(d: { message: string }): string {
  return marked.get(d) ?? quote(d.message);
}

/** Remember how the text content shows a diagnostic of an answer. */
export function markAs<T extends object>(out: T, text: string): T {
  marked.set(out, text);
  return out;
}

let templates: Map<string, RuleMeta['messages']> | null = null;

/** The message template a diagnostic was written from: a rule's, or a runtime code's. */
function templateOf(code: string, messageId: string): string | undefined {
  if (templates === null) {
    templates = new Map();
    for (const rule of ruleIndex().values()) templates.set(rule.meta.code, rule.meta.messages);
  }
  return templates.get(code)?.[messageId]?.message ?? runtimeTemplate(code, messageId);
}

const QUOTE_MARKS = new Set(['`', "'", '"']);

/**
 * A diagnostic's message for the text content, with the quoted pieces marked, and those pieces
 * verbatim. The message is rebuilt from its template: a value filled in from the project (any
 * string value; numbers are loopkit's counts and places) is a quote, the template's own words are
 * loopkit's, and the quotation marks the template puts around a value give way to « ». A message
 * that cannot be rebuilt exactly (no template is known for it) is quoted whole.
 */
export function markedMessage(d: Pick<Diagnostic, 'code' | 'message' | 'messageId' | 'data'>): { text: string; quoted: string[] } {
  const template = d.messageId === undefined ? undefined : templateOf(d.code, d.messageId);
  const whole = { text: quote(d.message), quoted: [d.message] };
  if (template === undefined) return whole;
  const data = { ...d.data, code: d.code };
  const pieces: { text: string; quoted: boolean }[] = [];
  let at = 0;
  for (const m of template.matchAll(/\{(\w+)\}/gu)) {
    pieces.push({ text: template.slice(at, m.index), quoted: false });
    const value = data[m[1]! as keyof typeof data];
    if (value === undefined) pieces.push({ text: m[0], quoted: false });
    else pieces.push({ text: String(value), quoted: typeof value === 'string' && value !== '' && m[1] !== 'code' });
    at = m.index + m[0].length;
  }
  pieces.push({ text: template.slice(at), quoted: false });
  if (pieces.map((p) => p.text).join('') !== d.message) return whole;
  const quoted: string[] = [];
  let text = '';
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    if (!p.quoted) {
      text += p.text;
      continue;
    }
    quoted.push(p.text);
    // `{state}` or '{state}' in the template: the marks give way to the quote's own
    const next = pieces[i + 1];
    const mark = text.slice(-1);
    if (QUOTE_MARKS.has(mark) && next && !next.quoted && next.text.startsWith(mark)) {
      text = text.slice(0, -1) + quote(p.text);
      next.text = next.text.slice(1);
    } else text += quote(p.text);
  }
  return { text, quoted };
}
