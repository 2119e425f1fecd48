import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/** Where util-linux's `unshare` is looked for. */
const UNSHARE_PATHS = ['/usr/bin/unshare', '/bin/unshare'];

/**
 * The `unshare` executable when this host lets an unprivileged user give a process its own
 * host name (a user namespace mapping the caller to root, with its own UTS namespace); undefined
 * when it does not (no util-linux, or user namespaces disabled, as in some containers).
 */
export function ownHostnameLauncher(): string | undefined {
  const unshare = UNSHARE_PATHS.find((p) => {
    try {
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  if (!unshare) return undefined;
  const probe = spawnSync(unshare, [...namespaceFlags(), '--', '/bin/sh', '-c', 'hostname orch-probe'], {
    stdio: 'ignore',
    timeout: 5000,
  });
  return probe.status === 0 ? unshare : undefined;
}

function namespaceFlags(): string[] {
  return ['--user', '--map-root-user', '--uts'];
}

/**
 * The command line that runs `command args` with the host name `hostname`, as each control-plane
 * node of a kind cluster runs in its own container with its own host name: `unshare` gives the
 * process a user and UTS namespace, a shell sets the name and `exec`s the command, so the PID
 * stays the command's and its arguments stay on its command line.
 */
export function withOwnHostname(
  unshare: string,
  hostname: string,
  command: string,
  args: readonly string[],
): { command: string; args: string[] } {
  return {
    command: unshare,
    args: [
      ...namespaceFlags(),
      '--',
      '/bin/sh',
      '-c',
      'hostname "$1" && shift && exec "$@"',
      'sh',
      hostname,
      command,
      ...args,
    ],
  };
}
