import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { csrPem } from '../../src/apis/certificates/testing/csr-fixtures.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { kubectl } from '../support/kubectl.js';

// The real kubectl 1.32 against the k8s.io profile: the cluster kinds as people use them.

let s: InProcessServer;
let kubeconfig: string;
before(async () => {
  s = await startInProcess({ apiDomain: 'k8s.io', runControllers: false });
  kubeconfig = s.server.kubeconfigPath!;
});
after(async () => {
  await s?.stop();
});

const header = (stdout: string) =>
  stdout
    .split('\n')[0]
    .trim()
    .split(/\s{2,}/);
const run = async (args: string[], input?: string) => {
  const res = await kubectl(kubeconfig, args, input);
  assert.equal(res.code, 0, `kubectl ${args.join(' ')}: ${res.stderr}`);
  return res.stdout;
};

describe('kubectl and the cluster kinds (k8s.io profile)', () => {
  it('approves a CertificateSigningRequest', async () => {
    const request = Buffer.from(await csrPem('kubectl-user')).toString('base64');
    const manifest = JSON.stringify({
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: 'kubectl-csr' },
      spec: {
        request,
        signerName: 'kubernetes.io/kube-apiserver-client',
        usages: ['client auth'],
        expirationSeconds: 86400,
      },
    });
    assert.match(
      await run(['create', '-f', '-'], manifest),
      /certificatesigningrequest\.certificates\.k8s\.io\/kubectl-csr created/,
    );
    const pending = await run(['get', 'csr', 'kubectl-csr']);
    assert.deepEqual(header(pending), ['NAME', 'AGE', 'SIGNERNAME', 'REQUESTOR', 'REQUESTEDDURATION', 'CONDITION']);
    assert.match(pending, /kubectl-csr\s+\S+\s+kubernetes\.io\/kube-apiserver-client\s+\S+\s+24h\s+Pending/);
    assert.match(
      await run(['certificate', 'approve', 'kubectl-csr']),
      /certificatesigningrequest\.certificates\.k8s\.io\/kubectl-csr approved/,
    );
    assert.match(await run(['get', 'csr', 'kubectl-csr']), /24h\s+Approved\n/);
    const cond = JSON.parse(await run(['get', 'csr', 'kubectl-csr', '-o', 'json'])).status.conditions[0];
    assert.deepEqual([cond.type, cond.status, cond.reason], ['Approved', 'True', 'KubectlApprove']);
  });

  it('lists priority classes, storage classes and flow control with kube columns', async () => {
    const pc = await run(['get', 'pc']);
    assert.deepEqual(header(pc), ['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE', 'PREEMPTIONPOLICY']);
    assert.match(pc, /system-node-critical\s+2000001000\s+false\s+\S+\s+PreemptLowerPriority/);
    const sc = JSON.stringify({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'csi.example.com',
    });
    await run(['apply', '-f', '-'], sc);
    const scs = await run(['get', 'sc']);
    assert.deepEqual(header(scs), [
      'NAME',
      'PROVISIONER',
      'RECLAIMPOLICY',
      'VOLUMEBINDINGMODE',
      'ALLOWVOLUMEEXPANSION',
      'AGE',
    ]);
    assert.match(scs, /standard \(default\)\s+csi\.example\.com\s+Delete\s+Immediate\s+false/);
    const fs = await run(['get', 'flowschemas']);
    assert.deepEqual(header(fs), [
      'NAME',
      'PRIORITYLEVEL',
      'MATCHINGPRECEDENCE',
      'DISTINGUISHERMETHOD',
      'AGE',
      'MISSINGPL',
    ]);
    assert.match(fs, /kube-controller-manager\s+workload-high\s+800\s+ByNamespace/);
    const pl = await run(['get', 'prioritylevelconfigurations']);
    assert.deepEqual(header(pl), [
      'NAME',
      'TYPE',
      'NOMINALCONCURRENCYSHARES',
      'QUEUES',
      'HANDSIZE',
      'QUEUELENGTHLIMIT',
      'AGE',
    ]);
    assert.match(pl, /exempt\s+Exempt\s+<none>\s+<none>\s+<none>\s+<none>/);
    const refused = await kubectl(kubeconfig, ['delete', 'pc', 'system-node-critical']);
    assert.notEqual(refused.code, 0);
    assert.match(
      refused.stderr,
      /"system-node-critical" is forbidden: this is a system priority class and cannot be deleted/,
    );
  });
});
