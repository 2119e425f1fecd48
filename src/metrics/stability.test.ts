import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { MetricDefinitions, validateShowHiddenMetricsVersion } from './stability.js';

describe('metric stability classes', () => {
  const help = async (defs: MetricDefinitions, name: string) =>
    (await defs.registry.metrics()).split('\n').find((l) => l.startsWith(`# HELP ${name} `));

  it('prefixes help texts, marks deprecated metrics and hides those deprecated before this minor', async () => {
    const defs = new MetricDefinitions(new Registry(), { componentVersion: '1.32.0' });
    defs.counter({ name: 'a_total', help: 'A.', stability: 'STABLE' });
    defs.counter({ name: 'b_total', help: 'B.', stability: 'BETA', deprecatedVersion: '1.32.0' });
    const hidden = defs.counter({ name: 'c_total', help: 'C.', stability: 'ALPHA', deprecatedVersion: '1.31.0' });
    defs.counter({ name: 'd_total', help: 'D.', stability: 'ALPHA', deprecatedVersion: '1.33.0' });
    hidden.inc();
    assert.equal(await help(defs, 'a_total'), '# HELP a_total [STABLE] A.');
    assert.equal(await help(defs, 'b_total'), '# HELP b_total [BETA] (Deprecated since 1.32.0) B.');
    assert.equal(await help(defs, 'c_total'), undefined);
    assert.equal(await help(defs, 'd_total'), '# HELP d_total [ALPHA] D.');
  });

  it('shows hidden metrics with the previous minor version, and refuses other versions', async () => {
    const defs = new MetricDefinitions(new Registry(), { componentVersion: '1.32.0', showHiddenForVersion: '1.31' });
    defs.gauge({ name: 'c', help: 'C.', stability: 'ALPHA', deprecatedVersion: '1.27.0' });
    assert.equal(await help(defs, 'c'), '# HELP c [ALPHA] (Deprecated since 1.27.0) C.');
    for (const bad of ['1.30', '1.31.0', 'v1.31', '1.32', 'x']) {
      assert.throws(() => validateShowHiddenMetricsVersion('1.32.0', bad), {
        message:
          "--show-hidden-metrics-for-version must be omitted or have the value '1.31'. Only the previous minor version is allowed",
      });
    }
    validateShowHiddenMetricsVersion('1.32.0', '');
    validateShowHiddenMetricsVersion('1.32.0', '1.31');
  });
});
