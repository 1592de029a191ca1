/**
 * Where loopkit keeps its caches, and whether the environment turns them off: small and free of
 * other imports, since the command's start-up (dist/boot.js) asks it before anything is loaded.
 */
import { homedir, platform } from 'node:os';
import { join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/** The user's cache directory for loopkit (XDG on Linux, Library/Caches on macOS, LOCALAPPDATA on Windows). */
export function userCacheDir(env: Env = process.env): string {
  if (platform() === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'loopkit', 'Cache');
  if (platform() === 'darwin') return join(homedir(), 'Library', 'Caches', 'loopkit');
  return join(env.XDG_CACHE_HOME && env.XDG_CACHE_HOME !== '' ? env.XDG_CACHE_HOME : join(homedir(), '.cache'), 'loopkit');
}

/** loopkit's cache directory: LOOPKIT_CACHE_DIR, else the user's (userCacheDir). */
export function cacheDirectory(env: Env = process.env): string {
  return env.LOOPKIT_CACHE_DIR !== undefined && env.LOOPKIT_CACHE_DIR !== '' ? env.LOOPKIT_CACHE_DIR : userCacheDir(env);
}

/** Does the environment turn the cache off (LOOPKIT_NO_CACHE set to anything but '', 0 or false)? */
export function cacheOffByEnv(env: Env): boolean {
  const v = env.LOOPKIT_NO_CACHE?.trim().toLowerCase();
  return v !== undefined && v !== '' && v !== '0' && v !== 'false';
}
