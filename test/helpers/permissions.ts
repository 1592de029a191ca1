/** Tests that make files unreadable: how, on this machine. */
import { spawnSync } from 'node:child_process';

/**
 * Can a test make a file unreadable? Not for root, whom permissions do not restrict (CI runs as
 * root): there the CLI is run as `nobody` (uid 65534), when this process may switch to it.
 */
export const PERMISSIONS = ((): { apply: boolean; why: string; as: { uid?: number; gid?: number } } => {
  if (process.platform === 'win32') return { apply: false, why: 'Windows has no POSIX permissions', as: {} };
  if (process.getuid?.() !== 0) return { apply: true, why: '', as: {} };
  const as = { uid: 65534, gid: 65534 };
  const probe = spawnSync(process.execPath, ['-e', ''], as);
  return probe.status === 0
    ? { apply: true, why: '', as }
    : {
        apply: false,
        why: `running as root, and a child process cannot switch to uid 65534 (${probe.error?.message ?? `exit ${probe.status}`})`,
        as: {},
      };
})();
