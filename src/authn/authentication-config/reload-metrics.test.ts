import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { AuthenticationConfigReloadMetrics, apiServerIdHash } from './reload-metrics.js';

describe('AuthenticationConfigReloadMetrics', () => {
  it("uses kube-apiserver's names, labels and id hash", async () => {
    const registry = new Registry();
    const m = new AuthenticationConfigReloadMetrics(registry, 'orch-apiserver-1');
    // A second instance on the same registry shares the series.
    const again = new AuthenticationConfigReloadMetrics(registry, 'orch-apiserver-1');
    m.record('success', new Date(1_700_000_000_500));
    again.record('failure', new Date(1_700_000_001_000));
    m.record('failure', new Date(1_700_000_002_000));
    const hash = `sha256:${createHash('sha256').update('orch-apiserver-1').digest('hex')}`;
    assert.equal(apiServerIdHash('orch-apiserver-1'), hash);
    assert.equal(apiServerIdHash(''), '');
    const text = await registry.metrics();
    assert.match(
      text,
      /# HELP apiserver_authentication_config_controller_automatic_reloads_total \[ALPHA\] Total number of automatic reloads of authentication configuration split by status and apiserver identity\./,
    );
    assert.ok(
      text.includes(
        `apiserver_authentication_config_controller_automatic_reloads_total{status="failure",apiserver_id_hash="${hash}"} 2`,
      ),
    );
    assert.ok(
      text.includes(
        `apiserver_authentication_config_controller_automatic_reload_last_timestamp_seconds{status="success",apiserver_id_hash="${hash}"} 1700000000.5`,
      ),
    );
    assert.ok(
      text.includes(
        `apiserver_authentication_config_controller_automatic_reload_last_timestamp_seconds{status="failure",apiserver_id_hash="${hash}"} 1700000002`,
      ),
    );
  });
});
