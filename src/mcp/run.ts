/**
 * `loopkit mcp [--project <dir>]`: serve the project's contracts to an agent over the Model Context
 * Protocol (stdio) until the client closes the connection (exit 0). Exit 2 when the project
 * directory does not exist; a broken configuration is each tool's error, so the agent reads it.
 */
import { UsageError } from '../engine/errors.js';
import { exists, isDirectory } from '../parse/fs.js';
import { untilStopped } from '../util/until-stopped.js';

export async function runMcp(opts: { project?: string }, io: { stderr: (text: string) => void }): Promise<number> {
  const root = opts.project ?? '.';
  if (!exists(root)) throw new UsageError(`path not found: ${root}`);
  if (!isDirectory(root)) throw new UsageError(`not a directory: ${root} (loopkit mcp serves a project directory)`);
  const { SessionModelHost } = await import('./host.js');
  const { serveStdio } = await import('./server.js');
  const host = await SessionModelHost.open(root);
  io.stderr(`loopkit: serving the contracts of ${root} over MCP on stdio\n`);
  const { stopped, stop } = untilStopped();
  await Promise.race([serveStdio(host), stopped]);
  stop();
  await host.close();
  return 0;
}
