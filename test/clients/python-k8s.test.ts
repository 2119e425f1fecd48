import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { apiOf } from '../support/api.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

// Debian's python3-kubernetes (the official Python client) with Debian's own Python, against a
// server that uses kube-apiserver's names (`--api-domain=k8s.io`). `.ci/run` installs the
// package; only outside CI may a machine without it skip this file.

const PYTHON = '/usr/bin/python3';
const SCRIPT = join(import.meta.dirname, 'python', 'k8s_session.py');
const NS = 'python';

const hasClient = spawnSync(PYTHON, ['-c', 'import kubernetes'], { stdio: 'ignore' }).status === 0;
const inCi = Boolean(process.env.CI);
const skip = !hasClient && !inCi && 'python3-kubernetes is not installed (apt-get install python3-kubernetes)';

function runPython(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      PYTHON,
      [SCRIPT, ...args],
      { timeout: 45000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PYTHONDONTWRITEBYTECODE: '1' } },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('python3-kubernetes against --api-domain=k8s.io', { skip }, () => {
  let server: ServerProcess;
  before(async () => {
    server = await startServerProcess({ args: ['--api-domain=k8s.io'] });
    const created = await apiOf(server).admin('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } },
    });
    assert.equal(created.status, 201, created.text);
  });
  after(async () => server?.dispose());

  it('is installed (CI must not skip this file)', () => {
    assert.ok(hasClient, `${PYTHON} cannot import kubernetes; install python3-kubernetes`);
  });

  it('ConfigMap and Lease CRUD, and a ConfigMap watch, with the typed clients', async () => {
    const r = await runPython([server.kubeconfig, NS]);
    assert.equal(r.code, 0, `python exited ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out.configmap, {
      created: 'py-cm',
      replaced: { a: '1', b: '2' },
      staleReplace: {
        reason: 'Conflict',
        message:
          'Operation cannot be fulfilled on configmaps "py-cm": the object has been modified; please apply your changes to the latest version and try again',
      },
      patched: { b: '2', c: '3' },
      listed: ['py-cm'],
      deleted: 'Success',
      missing: { reason: 'NotFound', message: 'configmaps "py-cm" not found' },
    });
    assert.deepEqual(out.lease, {
      apiVersion: 'coordination.k8s.io/v1',
      holder: 'py-b',
      transitions: 1,
      staleReplace: {
        reason: 'Conflict',
        message:
          'Operation cannot be fulfilled on leases.coordination.k8s.io "py-lease": the object has been modified; please apply your changes to the latest version and try again',
      },
      patchedDuration: 30,
      listed: ['py-lease'],
      missing: { reason: 'NotFound', message: 'leases.coordination.k8s.io "py-lease" not found' },
    });
    assert.deepEqual(out.watch, [
      ['ADDED', 'py-watched', 'V1ConfigMap'],
      ['DELETED', 'py-watched', 'V1ConfigMap'],
    ]);
  });
});
