/**
 * Who holds a job lease or an outbox claim: `<role>:<host>:<pid>`. Leases expire by time,
 * which is right across machines; but when `run-job` is killed and started again at once on
 * the same machine, waiting out a dead process's lease would skip the job or leave a
 * message undelivered for minutes. A lease whose owner is a process of this host that no
 * longer exists can be taken over at once.
 */
import { hostname } from 'node:os';

export function processOwner(role: string): string {
  return `${role}:${hostname()}:${process.pid}`;
}

function pidAlive(pid: number): boolean {
  try {
    // Signal 0 checks existence without sending anything.
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True only when `owner` names a process of this host that is gone; unknown formats are alive. */
export function isDeadLocalOwner(
  owner: string | null,
  isAlive: (pid: number) => boolean = pidAlive,
): boolean {
  if (!owner) return false;
  const m = /^[^:]+:(.+):(\d+)$/.exec(owner);
  if (!m || m[1] !== hostname()) return false;
  const pid = Number(m[2]);
  return pid !== process.pid && !isAlive(pid);
}
