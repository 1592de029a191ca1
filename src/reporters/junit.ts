/**
 * JUnit XML, the shape CI servers ingest (Jenkins, GitLab, Azure DevOps, CircleCI …):
 * `<testsuites>` with one `<testsuite>` per file loopkit read, and in it one `<testcase>` per rule
 * that reported something in the file (classname: the file, name: the code). Errors and warnings
 * are `<failure>`s (the type says which); info findings pass and are written to `<system-out>`.
 * A file without problems gets one passing test case, so every file checked shows up.
 */
import type { Diagnostic } from '../engine/diagnostic.js';
import { displayPath } from './paths.js';
import { location } from './text.js';
import type { Report } from './types.js';

/** Characters XML 1.0 cannot hold at all are dropped; markup characters are escaped. */
function xml(s: string): string {
  return s
    .replace(/[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** Every file the run read (config, skills' files, README; or the runtime command's input), in a stable order. */
function checkedFiles(result: Report): string[] {
  const { project } = result;
  const files: string[] = [...(result.files ?? [])];
  if (project.configFile) files.push(project.configFile);
  for (const s of project.skills) {
    files.push(s.skillFile.path);
    if (s.loop) files.push(s.loop.file.path);
    if (s.legacyHandoffs) files.push(s.legacyHandoffs.file.path);
    for (const r of s.references.values()) if (r.file) files.push(r.file.path);
    for (const f of s.scripts ?? []) files.push(f.path);
  }
  if (project.readme) files.push(project.readme.path);
  return files;
}

function detail(root: string, d: Diagnostic): string {
  const lines = [`${location(root, d)}: ${d.severity}: ${d.message}`];
  if (d.help) lines.push(`hint: ${d.help}`);
  for (const r of d.related ?? []) lines.push(`at ${location(root, r)}: ${r.message}`);
  return lines.join('\n');
}

export function junitReport(result: Report): string {
  const root = result.project.displayRoot;
  const byFile = new Map<string, Map<string, Diagnostic[]>>();
  for (const f of checkedFiles(result)) if (!byFile.has(f)) byFile.set(f, new Map());
  for (const d of result.diagnostics) {
    let codes = byFile.get(d.file);
    if (!codes) byFile.set(d.file, (codes = new Map()));
    const list = codes.get(d.code) ?? [];
    list.push(d);
    codes.set(d.code, list);
  }
  const files = [...byFile.keys()].sort();
  let tests = 0;
  let failures = 0;
  const suites: string[] = [];
  for (const file of files) {
    const shown = xml(displayPath(root, file));
    const codes = byFile.get(file)!;
    const cases: string[] = [];
    let suiteFailures = 0;
    for (const code of [...codes.keys()].sort()) {
      const list = codes.get(code)!;
      const failing = list.filter((d) => d.severity !== 'info');
      const info = list.filter((d) => d.severity === 'info');
      const body: string[] = [];
      if (failing.length > 0) {
        suiteFailures++;
        const type = failing.some((d) => d.severity === 'error') ? 'error' : 'warning';
        const message = failing.length === 1 ? failing[0]!.message : `${failing.length} problems: ${failing[0]!.message}`;
        body.push(
          `      <failure type="${type}" message="${xml(message.replace(/\s*\n\s*/gu, ' '))}">${xml(failing.map((d) => detail(root, d)).join('\n\n'))}</failure>`,
        );
      }
      if (info.length > 0) body.push(`      <system-out>${xml(info.map((d) => detail(root, d)).join('\n\n'))}</system-out>`);
      cases.push(`    <testcase name="${xml(code)}" classname="${shown}" time="0">\n${body.join('\n')}\n    </testcase>`);
    }
    if (cases.length === 0) cases.push(`    <testcase name="no problems" classname="${shown}" time="0"/>`);
    tests += cases.length;
    failures += suiteFailures;
    suites.push(
      `  <testsuite name="${shown}" tests="${cases.length}" failures="${suiteFailures}" errors="0" skipped="0" time="0">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="loopkit" tests="${tests}" failures="${failures}" errors="0" time="0">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
