import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, it } from 'node:test';
import { ownHostnameLauncher, withOwnHostname } from './replica-hostname.js';

describe('withOwnHostname', () => {
  it('wraps a command in unshare and a shell that sets the host name, keeping the arguments', () => {
    const wrapped = withOwnHostname('/usr/bin/unshare', 'apiserver-1', '/usr/bin/node', ['a b', '--x=$HOME']);
    assert.equal(wrapped.command, '/usr/bin/unshare');
    assert.deepEqual(wrapped.args.slice(0, 3), ['--user', '--map-root-user', '--uts']);
    assert.deepEqual(wrapped.args.slice(-4), ['apiserver-1', '/usr/bin/node', 'a b', '--x=$HOME']);
  });

  const unshare = ownHostnameLauncher();
  it('runs the command with its own host name, arguments untouched, the host keeping its own', {
    skip: unshare ? false : 'this host does not allow unprivileged user namespaces',
  }, () => {
    const script = 'console.log(JSON.stringify([require("node:os").hostname(), process.argv.slice(1)]))';
    const { command, args } = withOwnHostname(unshare as string, 'replica-x', process.execPath, [
      '-e',
      script,
      'a b',
      '$HOME',
    ]);
    const r = spawnSync(command, args, { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), ['replica-x', ['a b', '$HOME']]);
    assert.notEqual(hostname(), 'replica-x');
  });
});
