// The pathological corpus, timed: one SKILL.md of a given size (default 1 MB) per shape, each the
// worst of its kind that loopkit still parses (just under the limits of parse/complexity.ts) or a
// shape it refuses; each checked as a whole process, median of a few runs, next to `node -e 0`.
// Prints whether the file was analysed or reported as too complex.
//
// Usage: npm run bench:pathological -- [--size-mb 1] [--runs 3] [--only name,name]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './measure.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const bytes = Math.round(Number(opt('--size-mb', '1')) * 1024 * 1024);
const runs = Number(opt('--runs', '3'));
const only = opt('--only', '')?.split(',').filter(Boolean) ?? [];
const bin = fileURLToPath(new URL('../bin/loopkit.js', import.meta.url));

/** Repeat `unit(i)` until the text has `bytes` characters. */
const fill = (unit) => {
  const parts = [];
  let n = 0;
  for (let i = 0; n < bytes; i++) {
    const u = unit(i);
    parts.push(u);
    n += u.length;
  }
  return parts.join('');
};

const SHAPES = {
  'realistic prose': () =>
    fill(
      (i) =>
        `## Section ${i}\n\nRead the **state file** before you change anything, then run \`npm test\` and compare with [the guide](references/guide.md). If the check fails twice, stop and report.\n\n1. Write the failing test.\n2. Make it pass.\n\n| field | type |\n|---|---|\n| story | str |\n\n`,
    ),
  'short paragraphs': () => fill((i) => `Paragraph ${i} with *emphasis*, \`code\` and a [link](x.md).\n\n`),
  'emphasis, 1,400 runs per paragraph': () => fill(() => `${'*a '.repeat(700)}x${' b*'.repeat(700)}\n\n`),
  'brackets, 2,900 per paragraph': () => fill(() => `${'[a]('.repeat(2900)}x\n\n`),
  'nesting, 190 deep per line': () => fill(() => `${'> '.repeat(190)}x\n\n`),
  'deep lines, under the sum': () => fill((i) => `${i % 3 === 0 ? '> '.repeat(8) : ''}line ${i}\n`),
  'headings only': () => fill((i) => `## h${i}\n`),
  'table rows only': () => `| a | b |\n|---|---|\n${fill((i) => `| ${i} | y |\n`)}`,
  'list items only': () => fill((i) => `- item ${i}\n`),
  'code fences': () => fill((i) => `\`\`\`\ncode ${i}\n\`\`\`\n`),
  'html blocks': () => fill((i) => `<div class="x${i}">text</div>\n\n`),
  'emphasis, 40,000 in one paragraph (refused)': () => `${'*a '.repeat(20000)}x${' b*'.repeat(20000)}\n`,
  'nesting, 20,000 deep (refused)': () => `${'- '.repeat(20000)}x\n`,
};

function time(argv) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return { s: Number(process.hrtime.bigint() - t0) / 1e9, out: `${r.stdout}${r.stderr}`, status: r.status };
}

const work = mkdtempSync(join(tmpdir(), 'loopkit-patho-'));
console.log(`pathological corpus: ${(bytes / 1024 / 1024).toFixed(1)} MB per file, median of ${runs} whole-process runs`);
console.log('| shape | size | wall (median) | × `node -e 0` | result |');
console.log('|---|---:|---:|---:|---|');
for (const [name, make] of Object.entries(SHAPES)) {
  if (only.length > 0 && !only.some((o) => name.includes(o))) continue;
  const root = join(work, name.replace(/\W+/gu, '-'));
  const dir = join(root, 'skills', 'checking-shapes');
  mkdirSync(dir, { recursive: true });
  const body = make();
  writeFileSync(
    join(dir, 'SKILL.md'),
    `---\nname: checking-shapes\ndescription: A pathological document. Use when benchmarking loopkit.\n---\n${body}`,
  );
  const walls = [];
  const ratios = [];
  let last;
  for (let i = 0; i < runs; i++) {
    last = time([bin, 'check', root, '--no-color', '--no-cache']);
    const base = time(['-e', '0']);
    walls.push(last.s);
    ratios.push(last.s / base.s);
  }
  const refused = /too complex to analyse/u.test(last.out);
  const tooLarge = /File is larger than/u.test(last.out);
  const result =
    last.status === 0 || last.status === 1
      ? refused
        ? 'reported as too complex'
        : tooLarge
          ? 'not read: over the file size limit'
          : 'analysed'
      : `exit ${last.status}`;
  console.log(
    `| ${name} | ${(body.length / 1024).toFixed(0)} KB | ${median(walls).toFixed(2)} s | ${median(ratios).toFixed(1)} | ${result} |`,
  );
  rmSync(root, { recursive: true, force: true });
}
rmSync(work, { recursive: true, force: true });
