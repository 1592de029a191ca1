import type { Root, Yaml } from 'mdast';
import { defineRule } from '../engine/rule.js';
import { proseNodes } from '../util/prose-nodes.js';
import { valuePosition } from '../parse/source-map.js';
import { positionAt } from '../util/text.js';
import { insideQuotes } from './lib/quotes.js';

const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december';
/**
 * A month name and a four-digit year from 2000 as whole words: `March 2024`, not `dismay 2024`,
 * `May 20245` or a citation of history (`March 1991`, where March may be an author).
 */
const DATE = new RegExp(`(?<![\\p{L}\\p{M}\\p{N}_])(?:${MONTHS})\\s+2[0-9]{3}(?![\\p{L}\\p{M}\\p{N}_])`, 'giu');

/**
 * Is offset `at` of a frontmatter value's text (`key: value`, as written) inside a quoted passage of
 * the value? YAML's own quotes around the whole value are not a passage: inside a double-quoted
 * value a quote is written `\"`, inside a single-quoted one `''`.
 */
function quotedInValue(text: string, at: number): boolean {
  const start = /^[^:]*:[ \t]*/u.exec(text)?.[0].length ?? 0;
  let value = text.slice(start, at);
  if (value.startsWith('"')) value = value.slice(1).replace(/\\"/gu, '"');
  else if (value.startsWith("'")) value = value.slice(1).replace(/''/gu, "'");
  return insideQuotes(value, value.length);
}

/**
 * A turn of an example conversation ("User: What were sales in March 2024?", "**Q:** …",
 * "ユーザー：…"): what a user might say, not what the skill states.
 */
const EXAMPLE_TURN =
  /^\s*(?:[-*+]\s+|\d+[.)]\s+|>\s*)*[*_]*(?:user|human|customer|q|query|question|prompt|request|input|example(?: (?:query|prompt|request))?|ユーザー|利用者|質問|用户|用戶|问|問|사용자)[*_]*\s*[:：]/iu;

/**
 * A record of when something happened, which stays true ("**Tested**: October 2025", "released
 * March 2026", "introduced by … in October 2025", "effective September 2023", "entered into force on
 * 16 January 2023", "passed in May 2024", "notified March 2022"): the event's word shortly before the
 * date, in the same clause. Not "since" or "as of", which date a state that will change.
 */
const RECORD =
  /\b(?:tested|verified|releas(?:e|ed|es)|introduced|replaced|published|created|added|launched|announced|stable|updated|written|authored|retrieved|accessed|source|shipped|abolished|repealed|enacted|deprecated|removed|retired|discontinued|renamed|acquired|founded|merged|began|rolled out|went (?:ga|live)|effective|in(?:to)? force|took effect|passed|adopted|signed|ratified|amended|notified|issued|approved|promulgated|finali[sz]ed|superseded|expired|came out)\b[^.;!?]{0,64}$/iu;

/**
 * A document named by the month it appeared ("Per Google's December 2025 JS SEO guidance", "the
 * March 2024 core update"): the date is part of the source's name and stays true. Up to three words
 * between the date and the kind of document.
 */
const CITED_SOURCE =
  /^\s+(?:[\p{L}\p{N}.+-]+\s+){0,3}(?:guidance|guidelines?|guide|report|paper|study|survey|article|post|blog|announcement|update|release notes|changelog|changes|documentation|docs|spec|specification|whitepaper|memo|ruling|edition|version|revisions?|amendments?|act|regulations?|directive|standard|decision|judgment)\b/iu;

/** A date as a label: a month and year, with or without a day (`16 January 2023`, `January 16, 2023`), or `2023-01-16`. */
const LABEL_DATE = `(?:(?:\\d{1,2}(?:st|nd|rd|th)?\\s+)?(?:${MONTHS})\\s+(?:\\d{1,2}(?:st|nd|rd|th)?,?\\s+)?2\\d{3}|2\\d{3}-\\d{2}(?:-\\d{2})?)`;

/**
 * A timeline: a list item that opens with its date as a label ("- **June 2025:** Wave of manual
 * actions …", "* March 2024 — …", "- 16 January 2023: …"), next to another item that does the same
 * (whose date may have a day). Each entry records when something happened, which stays true.
 */
const TIMELINE_ENTRY = new RegExp(`^\\s*(?:[-*+]|\\d+[.)])\\s+[*_]*${LABEL_DATE}[*_]*\\s*(?:[:：—–]|-\\s)`, 'iu');

/** A heading that opens with its date (`### March 2026 Protocol Changes`, `## 16 January 2023`): an entry of a changelog. */
const DATED_HEADING = new RegExp(`^\\s{0,3}#{1,6}\\s+[*_]*${LABEL_DATE}`, 'iu');

/** Before the date, in its clause: the event is still to come, a schedule that will change. */
const SCHEDULED = /\b(?:will|shall|scheduled|planned|expected|set to|going to|to be)\b[^.;!?]*$/iu;

/** Words that date a state, which will change: "as of", "since", "until", "current". */
const STATE = /\b(?:as of|since|until|till|current(?:ly)?|now|latest|today|recent(?:ly)?|coming|upcoming|planned|expected)\b/iu;

/** The text of line `line` (1-based) of a file. */
function lineText(file: { text: string; lineStarts: readonly number[] }, line: number): string {
  const start = file.lineStarts[line - 1];
  if (start === undefined) return '';
  const next = file.lineStarts[line];
  return file.text.slice(start, next === undefined ? file.text.length : next - 1);
}

/** A line that starts a block of its own: a list item, heading, quote or table row, or a blank line. */
const BLOCK_START = /^\s*(?:[-*+]\s|\d+[.)]\s|#|>|\||$)/u;

/**
 * Where the paragraph text that leads to line `line` starts: that line, or — when it continues the
 * lines before it (no list marker, heading, quote or table row of its own) — up to two lines back.
 */
function clauseStart(file: { text: string; lineStarts: readonly number[] }, line: number): number {
  let first = line;
  while (first > 1 && line - first < 2 && !BLOCK_START.test(lineText(file, first)) && lineText(file, first - 1).trim() !== '') first--;
  return file.lineStarts[first - 1] ?? 0;
}

/**
 * Whether line `line` is an entry of a timeline (TIMELINE_ENTRY, and the list item before or after
 * it is one too) that records what happened, not what is planned or expected (STATE).
 */
function timelineEntry(file: { text: string; lineStarts: readonly number[] }, line: number): boolean {
  const text = lineText(file, line);
  if (!TIMELINE_ENTRY.test(text) || STATE.test(text)) return false;
  // the neighbouring items, past any lines that continue this one
  const item = /^\s*(?:[-*+]|\d+[.)])\s/u;
  const neighbour = (step: number) => {
    for (let l = line + step; l >= 1 && l <= file.lineStarts.length; l += step) {
      const t = lineText(file, l);
      if (t.trim() === '') return '';
      if (item.test(t)) return t;
    }
    return '';
  };
  return TIMELINE_ENTRY.test(neighbour(-1)) || TIMELINE_ENTRY.test(neighbour(1));
}

/** Where dates are in `text`, except those inside a quoted passage (`isQuoted`). */
function matches(text: string, isQuoted: (text: string, at: number) => boolean = insideQuotes): number[] {
  const out: number[] = [];
  DATE.lastIndex = 0;
  for (let m = DATE.exec(text); m !== null; m = DATE.exec(text)) {
    if (!isQuoted(text, m.index)) out.push(m.index);
  }
  return out;
}

/** The frontmatter keys an agent reads to choose the skill; others (`metadata: { date: … }`) are records. */
const LOADED_KEYS = /^(?:description|when_to_use|when-to-use)$/u;

/**
 * The text of the loaded keys in frontmatter `yaml` — a top-level key's line and the indented lines
 * that continue it, as one piece (a date may wrap) — each with its offset.
 */
function loadedValues(yaml: string): [number, string][] {
  const out: [number, string][] = [];
  let loaded = false;
  let offset = 0;
  for (const line of yaml.split('\n')) {
    const key = /^([^\s:#][^:]*?)[ \t]*:/u.exec(line);
    const continues = loaded && !key && /^\s/u.test(line);
    if (key) loaded = LOADED_KEYS.test(key[1]!.replace(/^["']|["']$/gu, ''));
    else if (!continues) loaded = false;
    if (continues) out[out.length - 1]![1] += `\n${line}`;
    else if (loaded) out.push([offset, line]);
    offset += line.length + 1;
  }
  return out;
}

export default defineRule({
  meta: {
    code: 'skill-time-sensitive',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'structure',
    reads: [],
    description: 'Check SKILL.md prose and description for dates (month and year) that will go stale',
    scope: 'skill',
    reference: 'improved',
    messages: {
      dated: {
        message: "SKILL.md contains date-specific language (e.g., 'March 2024'). Consider using relative framing",
        help: 'Describe the current behaviour without a date, and keep history in a collapsible "Old patterns" section or out of the skill.',
      },
    },
  },
  file: {
    kinds: ['skill'],
    check({ file, report: send }) {
      const root = file.root as Root;
      const at = (p: { line: number; column: number }) => ({ file: file.path, line: p.line, column: p.column });
      // the line up to the date, emphasis removed ("**Tested**: October 2025")
      const report = (r: { messageId: 'dated'; at: { file: string; line: number; column: number } }) => {
        const start = file.lineStarts[r.at.line - 1] ?? 0;
        const offset = start + r.at.column - 1;
        // … from the start of its clause, which may begin on the lines before ("was amended\nin March 2024")
        const before = file.text
          .slice(Math.max(clauseStart(file, r.at.line), offset - 80), offset)
          .replace(/\s*\n\s*/gu, ' ')
          .replace(/[*_`]/gu, '');
        // … unless the event is still to come ("will be retired June 2026", "is scheduled to be removed in …")
        // (not when a state is dated between the event and the date: "updated …, and is current as of April 2026")
        const record = RECORD.exec(before);
        if (record && !SCHEDULED.test(before) && !/\b(?:as of|since|until|till|current(?:ly)?)\b/iu.test(record[0])) return;
        // "User: What were sales in March 2024?": an example of what a user asks
        if (EXAMPLE_TURN.test(file.text.slice(start, offset))) return;
        // "(Anthropic, June 2026)", "[the article](…) (May 2026)": a date stamp that closes a parenthesis
        // cites when a source appeared — unless it dates a state ("(current as of January 2026)")
        const after = /^\p{L}+\s+\d{4}\s*\)/u.exec(file.text.slice(offset, offset + 30));
        const opened = before.slice(before.lastIndexOf('(') + 1);
        if (after && before.includes('(') && !STATE.test(opened)) return;
        // "Google's December 2025 JS SEO guidance": the date names a cited document
        // (not "as of March 2025 the docs say …", which dates a state)
        const cited = CITED_SOURCE.test(
          file.text
            .slice(offset, offset + 80)
            .replace(/^\p{L}+\s+\d{4}/u, '')
            .replace(/[*_`]/gu, ''),
        );
        if (cited && !/\b(?:as of|since|until|till)\s*$/iu.test(before)) return;
        if (timelineEntry(file, r.at.line)) return;
        // "### March 2026 Protocol Changes": a changelog's entry, dated by what happened then
        if (DATED_HEADING.test(lineText(file, r.at.line)) && !STATE.test(lineText(file, r.at.line))) return;
        send(r);
      };
      // the description is loaded at startup: a date in it goes stale too
      const yaml = root.children.find((n): n is Yaml => n.type === 'yaml');
      const start = yaml?.position?.start.offset;
      const end = yaml?.position?.end.offset;
      if (start !== undefined && end !== undefined) {
        for (const [from, text] of loadedValues(file.text.slice(start, end)))
          for (const i of matches(text, quotedInValue))
            report({ messageId: 'dated', at: at(positionAt(file.lineStarts, start + from + i)) });
      }
      // prose only: code blocks and inline code are quoted literally
      for (const node of proseNodes(root, false)) {
        for (const i of matches(node.value)) report({ messageId: 'dated', at: at(valuePosition(file, node, i)) });
      }
    },
  },
});
