// The step of the GitHub Action (action.yml): `loopkit check` on the project (cached by default), with the
// problems as annotations (GitHub workflow commands) or as the text report; then, when asked, the
// same check as SARIF into a file (from the cache: nothing is parsed twice); the text report as the
// job summary. Inputs arrive as LOOPKIT_* environment variables; outputs go to $GITHUB_OUTPUT.
// The exit code is the check's: 0 no errors, 1 errors, 2 usage or configuration problem.
import { spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const env = process.env;
const bin = fileURLToPath(new URL('../bin/loopkit.js', import.meta.url));
const input = (name) => (env[`LOOPKIT_${name}`] ?? '').trim();

const args = ['check', input('PATH') || '.'];
if (input('PRESET')) args.push('--preset', input('PRESET'));
if (input('MAX_WARNINGS')) args.push('--max-warnings', input('MAX_WARNINGS'));
if (input('BASELINE')) args.push('--baseline', input('BASELINE'));
args.push(
  ...input('ARGS')
    .split(/\s+/u)
    .filter((a) => a !== ''),
);

const annotations = input('ANNOTATIONS').toLowerCase() !== 'false';
const sarif = input('SARIF_FILE');

const loopkit = (extra, capture = false) =>
  spawnSync(process.execPath, [bin, ...args, ...extra], { stdio: capture ? ['inherit', 'pipe', 'inherit'] : 'inherit', encoding: 'utf8' });

console.log(`loopkit ${args.join(' ')}`);
const check = loopkit(annotations ? ['--format', 'github'] : ['--no-color']);
let code = check.status ?? 2;

if (sarif && code !== 2) {
  const s = loopkit(['--format', 'sarif', '--output-file', sarif]);
  if (s.status === 2) code = 2;
}

if (env.GITHUB_STEP_SUMMARY && code !== 2) {
  const text = loopkit(['--no-color'], true).stdout ?? '';
  appendFileSync(env.GITHUB_STEP_SUMMARY, `### loopkit\n\n\`\`\`text\n${text.trimEnd()}\n\`\`\`\n`);
}

if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, `exit-code=${code}\nsarif-file=${code !== 2 ? sarif : ''}\n`);
process.exitCode = code;
