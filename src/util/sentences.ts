/** Sentence ranges of a run of prose: a sentence ends after `.`, `!` or `?` followed by white space. */

export interface Sentence {
  start: number;
  end: number;
}

/** Sentences of `text` (offsets into `text`), skipping empty ones. */
export function sentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  let start = 0;
  const re = /[.!?](?=\s|$)/gu;
  const push = (end: number) => {
    if (text.slice(start, end).trim() !== '') out.push({ start, end });
  };
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    push(m.index + 1);
    start = m.index + 1;
  }
  push(text.length);
  return out;
}
