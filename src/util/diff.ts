/** A unified diff of two texts, line by line (Myers' algorithm), as `diff -u` and `git diff` print it. */

/** The lines of a text, each with its line break (a last line without one is marked). */
function lines(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/u);
}

type Op = { kind: ' ' | '-' | '+'; line: string };

/** The shortest edit script between two line lists (Myers 1986, O((N+M)·D)). */
function script(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const v = new Map<number, number>([[1, 0]]);
  const trace: Map<number, number>[] = [];
  let done = false;
  for (let d = 0; d <= max && !done; d++) {
    trace.push(new Map(v));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && (v.get(k - 1) ?? -1) < (v.get(k + 1) ?? -1)) ? (v.get(k + 1) ?? 0) : (v.get(k - 1) ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v.set(k, x);
      if (x >= n && y >= m) {
        done = true;
        break;
      }
    }
  }
  // walk back through the trace
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && (vd.get(k - 1) ?? -1) < (vd.get(k + 1) ?? -1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = vd.get(prevK) ?? 0;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: ' ', line: a[x - 1]! });
      x--;
      y--;
    }
    if (d > 0) {
      if (down) ops.push({ kind: '+', line: b[y - 1]! });
      else ops.push({ kind: '-', line: a[x - 1]! });
    }
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

const NO_NEWLINE = '\\ No newline at end of file';

/**
 * `--- a/<path>` / `+++ b/<path>` (as git prints them; an absolute path is printed as it is) and the
 * hunks with 3 lines of context; '' when the texts are equal.
 */
export function unifiedDiff(before: string, after: string, path: string, context = 3): string {
  if (before === after) return '';
  const a = lines(before);
  const b = lines(after);
  const ops = script(a, b);
  const absolute = path.startsWith('/') || /^[A-Za-z]:[\\/]/u.test(path);
  const out = absolute ? [`--- ${path}`, `+++ ${path}`] : [`--- a/${path}`, `+++ b/${path}`];
  // positions of the changes, grouped into hunks with their context
  let i = 0;
  while (i < ops.length) {
    if (ops[i]!.kind === ' ') {
      i++;
      continue;
    }
    const start = Math.max(0, i - context);
    let end = i;
    // extend while the next change is within 2 × context
    for (;;) {
      while (end < ops.length && ops[end]!.kind !== ' ') end++;
      let next = end;
      while (next < ops.length && ops[next]!.kind === ' ') next++;
      if (next < ops.length && next - end <= 2 * context) end = next;
      else break;
    }
    const stop = Math.min(ops.length, end + context);
    // line numbers where the hunk starts
    let aLine = 1;
    let bLine = 1;
    for (let j = 0; j < start; j++) {
      if (ops[j]!.kind !== '+') aLine++;
      if (ops[j]!.kind !== '-') bLine++;
    }
    const hunk = ops.slice(start, stop);
    const aCount = hunk.filter((o) => o.kind !== '+').length;
    const bCount = hunk.filter((o) => o.kind !== '-').length;
    out.push(`@@ -${aCount === 0 ? aLine - 1 : aLine},${aCount} +${bCount === 0 ? bLine - 1 : bLine},${bCount} @@`);
    for (const o of hunk) {
      out.push(`${o.kind}${o.line.replace(/\r?\n$/u, '')}`);
      if (!o.line.endsWith('\n')) out.push(NO_NEWLINE);
    }
    i = stop;
  }
  return `${out.join('\n')}\n`;
}
