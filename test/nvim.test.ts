/**
 * End to end with a real editor: Neovim (Debian's `neovim` package, headless) with the setup of
 * docs/editors.md runs `loopkit lsp`, opens a LOOP.md, breaks a transition and sees the diagnostic in
 * its own diagnostic list, then renames a state and writes every file the rename changed; and in a
 * plain Agent Skills repository without a `.loopkit.yaml`, opening a SKILL.md starts the server too.
 * Skipped, with a message, where `nvim` is not installed (`.ci/run` installs it).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, filesOf, ROOT, run, Temps } from './helpers/cli.js';

const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
const hasNvim = nvim.status === 0;
if (!hasNvim) console.warn('test/nvim.test.ts skipped: `nvim` is not installed (apt-get install neovim; .ci/run installs it)');

const temps = new Temps();
afterAll(() => temps.cleanup());

/** The Neovim setup of docs/editors.md: the Lua block of its "### Neovim" section. */
function readmeSetup(): string {
  const page = readFileSync(join(ROOT, 'docs', 'editors.md'), 'utf8');
  const section = page.slice(page.indexOf('\n### Neovim\n'));
  const block = /```lua\n([\s\S]*?)```/u.exec(section);
  if (!block) throw new Error('docs/editors.md has no Lua block in its Neovim section');
  return block[1]!;
}

/** What the editor does, as a user would: open, break, look, mend, rename, write all; results as JSON. */
const DRIVER = String.raw`
local out = os.getenv('LOOPKIT_OUT')
local root = os.getenv('LOOPKIT_ROOT')
local result = { steps = {} }
local function step(name) table.insert(result.steps, name) end
local function finish()
  local f = io.open(out, 'w')
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd('qa!')
end
local ok, err = pcall(function()
  vim.cmd('filetype on')
  vim.cmd('edit ' .. root .. '/skills/running-tdd-loops/LOOP.md')
  local buf = vim.api.nvim_get_current_buf()
  local attached = vim.wait(60000, function()
    for _, c in pairs(vim.lsp.buf_get_clients(buf)) do
      if c.name == 'loopkit' and c.initialized then return true end
    end
    return false
  end, 50)
  if not attached then error('the loopkit server did not start') end
  step('attached')
  -- break a transition: the story goes to a state nobody leaves
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local at
  for i, l in ipairs(lines) do
    if l == 'transition in-dev → in-deskcheck' then at = i end
  end
  vim.api.nvim_buf_set_lines(buf, at - 1, at, false, { 'transition in-dev → in-limbo' })
  local seen = vim.wait(60000, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == 'graph-dead-end' then return true end
    end
    return false
  end, 50)
  result.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(result.diagnostics, { lnum = d.lnum, col = d.col, code = d.code, severity = d.severity, source = d.source, message = d.message })
  end
  if not seen then error('no graph-dead-end diagnostic in Neovim') end
  step('diagnostic')
  -- mend it: the list empties
  vim.api.nvim_buf_set_lines(buf, at - 1, at, false, { 'transition in-dev → in-deskcheck' })
  if not vim.wait(60000, function() return #vim.diagnostic.get(buf) == 0 end, 50) then error('the diagnostics did not clear') end
  step('cleared')
  -- rename the state under the cursor, as <leader>rn would
  vim.api.nvim_win_set_cursor(0, { at, #'transition in-dev → ' + 2 })
  vim.lsp.buf.rename('in-desk-review')
  local renamed = vim.wait(60000, function()
    return vim.api.nvim_buf_get_lines(buf, at - 1, at, false)[1] == 'transition in-dev → in-desk-review'
  end, 50)
  if not renamed then error('the rename did not reach the buffer') end
  vim.cmd('silent wall')
  step('renamed')
  result.buffers = {}
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) then table.insert(result.buffers, vim.api.nvim_buf_get_name(b)) end
  end
end)
if not ok then result.error = tostring(err) end
finish()
`;

/** In a repository without a .loopkit.yaml: a note starts nothing; a SKILL.md starts the server for the repository. */
const PLAIN_DRIVER = String.raw`
local out = os.getenv('LOOPKIT_OUT')
local root = os.getenv('LOOPKIT_ROOT')
local result = {}
local ok, err = pcall(function()
  vim.cmd('filetype on')
  vim.cmd('edit ' .. root .. '/notes.md')
  result.notesClients = #vim.lsp.get_active_clients()
  vim.cmd('edit ' .. root .. '/plugins/p/skills/my-skill/SKILL.md')
  local buf = vim.api.nvim_get_current_buf()
  local attached = vim.wait(60000, function()
    for _, c in pairs(vim.lsp.buf_get_clients(buf)) do
      if c.name == 'loopkit' and c.initialized then return true end
    end
    return false
  end, 50)
  if not attached then error('the loopkit server did not start') end
  for _, c in pairs(vim.lsp.buf_get_clients(buf)) do result.root = c.config.root_dir end
  local seen = vim.wait(60000, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == 'skill-name-mismatch-dir' then return true end
    end
    return false
  end, 50)
  result.codes = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do table.insert(result.codes, d.code) end
  if not seen then error('no skill-name-mismatch-dir diagnostic in Neovim') end
end)
if not ok then result.error = tostring(err) end
local f = io.open(out, 'w')
f:write(vim.fn.json_encode(result))
f:close()
vim.cmd('qa!')
`;

/**
 * Neovim, headless, with the setup of docs/editors.md and a driver script, in `root`; `loopkit` on
 * the PATH, as docs/editors.md asks (this checkout's). The driver writes its result as JSON.
 */
function runNvim<T>(root: string, driver: string): { result: T; stderr: string } {
  const bin = temps.dir('loopkit-bin-');
  writeFileSync(join(bin, 'loopkit'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'loopkit'), 0o755);
  const config = temps.dir('loopkit-nvim-config-');
  writeFileSync(join(config, 'init.lua'), readmeSetup());
  writeFileSync(join(config, 'driver.lua'), driver);
  const out = join(config, 'result.json');
  const r = spawnSync(
    'nvim',
    ['--headless', '-n', '-i', 'NONE', '-u', join(config, 'init.lua'), '-c', `luafile ${join(config, 'driver.lua')}`],
    {
      cwd: root,
      env: cleanEnv({
        PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
        LOOPKIT_OUT: out,
        LOOPKIT_ROOT: root,
        XDG_STATE_HOME: config,
        XDG_DATA_HOME: config,
      }),
      encoding: 'utf8',
      timeout: 300_000,
    },
  );
  return { result: JSON.parse(readFileSync(out, 'utf8')) as T, stderr: r.stderr };
}

describe.skipIf(!hasNvim)('Neovim (headless) with the setup of docs/editors.md', () => {
  it('shows a broken transition in its diagnostic list and renames a state in every file', async () => {
    expect(nvim.stdout).toMatch(/^NVIM v\d+\.\d+/u);
    const root = temps.dir('loopkit-nvim-');
    cpSync(join(ROOT, 'skills'), join(root, 'skills'), { recursive: true });
    cpSync(join(ROOT, '.loopkit.yaml'), join(root, '.loopkit.yaml'));
    const { result, stderr } = runNvim<{
      steps: string[];
      error?: string;
      diagnostics: { lnum: number; code: string; source: string; message: string }[];
      buffers: string[];
    }>(root, DRIVER);
    expect(result.error, stderr).toBeUndefined();
    expect(result.steps).toEqual(['attached', 'diagnostic', 'cleared', 'renamed']);
    const dead = result.diagnostics.find((d) => d.code === 'graph-dead-end')!;
    expect(dead.source).toBe('loopkit');
    expect(dead.message).toContain("State 'in-limbo' is a dead end");
    expect(dead.lnum).toBe(27);
    // every file the rename changed, written: the project checks as before, without the old name
    for (const f of [
      '.loopkit.yaml',
      'skills/running-tdd-loops/LOOP.md',
      'skills/running-desk-checks/LOOP.md',
      'skills/running-desk-checks/SKILL.md',
      'skills/running-tdd-loops/SKILL.md',
    ]) {
      expect(readFileSync(join(root, f), 'utf8'), f).toContain('in-desk-review');
    }
    // the old name is gone from every file of the project, not only from those the rename changed
    expect(filesOf(root).filter((f) => /\bin-deskcheck\b/u.test(readFileSync(join(root, f), 'utf8')))).toEqual([]);
    const check = await run(['check', root]);
    expect(check.stdout).toMatch(/^PASS/mu);
  }, 360_000);

  it('starts for a SKILL.md in a repository without a .loopkit.yaml (the repository is the project), not for other markdown', () => {
    const root = temps.dir('loopkit-nvim-plain-');
    const git = spawnSync('git', ['init', '-q'], { cwd: root, encoding: 'utf8' });
    expect(git.status, git.stderr).toBe(0);
    writeFileSync(join(root, 'notes.md'), '# Notes\n');
    // a plain Agent Skill whose name is not its folder's: an error under any preset
    const skill = join(root, 'plugins', 'p', 'skills', 'my-skill');
    mkdirSync(skill, { recursive: true });
    writeFileSync(
      join(skill, 'SKILL.md'),
      '---\nname: other-name\ndescription: Reviews a change. Use when asked to review a pull request.\n---\n\n# Reviewing\n\nRead the diff.\n',
    );
    const { result, stderr } = runNvim<{ error?: string; notesClients: number; root: string; codes: string[] }>(root, PLAIN_DRIVER);
    expect(result.error, stderr).toBeUndefined();
    expect(result.notesClients).toBe(0);
    expect(result.root).toBe(root);
    expect(result.codes).toContain('skill-name-mismatch-dir');
  }, 360_000);
});
