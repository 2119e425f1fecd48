import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { apiDomain } from '../../src/apis/api-domain.js';
import { decodeControllerManagerConfiguration } from '../../src/controllermanager/config/decode.js';
import { bundledProgram } from '../support/program-bundle.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

function runCli(args: string[]) {
  return spawnSync(process.execPath, [...bundledProgram('src/cli/orch-controller-manager.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 30000,
  });
}

describe('orch-controller-manager configuration (process)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-cm-cli-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the effective configuration of a file and flags under the k8s.io profile, and exits 0', () => {
    const file = join(dir, 'kcm.yaml');
    writeFileSync(
      file,
      'apiVersion: kubecontrollermanager.config.k8s.io/v1alpha1\nkind: KubeControllerManagerConfiguration\nGeneric:\n  MinResyncPeriod: 6h\nKubeCloudShared:\n  UseServiceAccountCredentials: true\nNamespaceController:\n  ConcurrentNamespaceSyncs: 3\n',
    );
    const out = join(dir, 'effective.yaml');
    const r = runCli([
      '--api-domain=k8s.io',
      `--config=${file}`,
      '--concurrent-namespace-syncs=4',
      `--write-config-to=${out}`,
    ]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, `Wrote configuration to: ${out}\n`);
    const c = decodeControllerManagerConfiguration(readFileSync(out, 'utf8'), apiDomain('k8s.io'));
    assert.equal(c.Generic.MinResyncPeriod, '6h0m0s');
    assert.equal(c.OrchCloudShared.UseServiceAccountCredentials, true);
    assert.equal(c.NamespaceController.ConcurrentNamespaceSyncs, 4);
    assert.equal(c.Generic.LeaderElection.resourceName, 'kube-controller-manager');
  });

  it('exits 1 listing every problem of an invalid file', () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(
      file,
      'apiVersion: orchcontrollermanager.config.orch.io/v1alpha1\nkind: OrchControllerManagerConfiguration\nGeneric:\n  LeaderElection:\n    leaseDuration: 5s\n    renewDeadline: 10s\nNodeIPAMController:\n  ServiceCIDR: 10.0.0.0/16\n  SecondaryServiceCIDR: 10.8.0.0/16\n',
    );
    const r = runCli([`--config=${file}`]);
    assert.equal(r.status, 1);
    assert.equal(
      r.stderr,
      'Error: [Generic.LeaderElection.leaseDuration: Invalid value: 10s: LeaseDuration must be greater than RenewDeadline, NodeIPAMController.SecondaryServiceCIDR: Invalid value: "10.8.0.0/16": serviceCIDR and secondaryServiceCIDR are not dualstack (from different IPfamiles)]\n',
    );
    const missingKind = join(dir, 'nokind.yaml');
    writeFileSync(missingKind, 'Generic: {}\n');
    const k = runCli([`--config=${missingKind}`]);
    assert.equal(k.status, 1);
    assert.equal(k.stderr, `Error: ${missingKind}: Object 'Kind' is missing in the configuration\n`);
  });
});
