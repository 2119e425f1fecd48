import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../../src/apis/api-domain.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';

// The versions that releases up to v1.32 removed are not served (404), while their replacements
// are: the spec's "Removals by release" table, as kube-apiserver v1.32 serves it.

const g = (base: string) => ORCH_DOMAIN.group(base);

/** Removed version → a path of it, and the path of its replacement. */
const REMOVED: readonly [string, string][] = [
  [`/apis/${g('flowcontrol.apiserver')}/v1beta3/flowschemas`, `/apis/${g('flowcontrol.apiserver')}/v1/flowschemas`],
  [
    `/apis/${g('flowcontrol.apiserver')}/v1beta2/prioritylevelconfigurations`,
    `/apis/${g('flowcontrol.apiserver')}/v1/prioritylevelconfigurations`,
  ],
  [
    `/apis/${g('storage')}/v1beta1/namespaces/default/csistoragecapacities`,
    `/apis/${g('storage')}/v1/namespaces/default/csistoragecapacities`,
  ],
  [
    '/apis/autoscaling/v2beta2/namespaces/default/horizontalpodautoscalers',
    '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers',
  ],
  [
    '/apis/autoscaling/v2beta1/namespaces/default/horizontalpodautoscalers',
    '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers',
  ],
  ['/apis/batch/v1beta1/namespaces/default/cronjobs', '/apis/batch/v1/namespaces/default/cronjobs'],
  [
    `/apis/${g('discovery')}/v1beta1/namespaces/default/endpointslices`,
    `/apis/${g('discovery')}/v1/namespaces/default/endpointslices`,
  ],
  [
    '/apis/policy/v1beta1/namespaces/default/poddisruptionbudgets',
    '/apis/policy/v1/namespaces/default/poddisruptionbudgets',
  ],
  [`/apis/${g('node')}/v1beta1/runtimeclasses`, `/apis/${g('node')}/v1/runtimeclasses`],
  [
    `/apis/${g('networking')}/v1beta1/namespaces/default/ingresses`,
    `/apis/${g('networking')}/v1/namespaces/default/ingresses`,
  ],
  [`/apis/${g('scheduling')}/v1beta1/priorityclasses`, `/apis/${g('scheduling')}/v1/priorityclasses`],
  [
    `/apis/${g('certificates')}/v1beta1/certificatesigningrequests`,
    `/apis/${g('certificates')}/v1/certificatesigningrequests`,
  ],
  ['/apis/extensions/v1beta1/namespaces/default/deployments', '/apis/apps/v1/namespaces/default/deployments'],
  ['/apis/apps/v1beta2/namespaces/default/daemonsets', '/apis/apps/v1/namespaces/default/daemonsets'],
];

describe('versions removed by v1.32', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess();
  });
  after(() => s?.stop());

  for (const [removed, replacement] of REMOVED) {
    it(`${removed} is 404, ${replacement} is served`, async () => {
      const gone = await s.api.admin('GET', removed);
      assert.equal(gone.status, 404, gone.text);
      const served = await s.api.admin('GET', replacement);
      assert.equal(served.status, 200, served.text);
    });
  }

  it('discovery lists only the served versions of each group', async () => {
    const groups = (await s.api.admin('GET', '/apis')).json() as {
      groups: { name: string; versions: { version: string }[] }[];
    };
    const versions = (name: string) => groups.groups.find((x) => x.name === name)?.versions.map((v) => v.version);
    assert.deepEqual(versions('autoscaling')?.sort(), ['v1', 'v2']);
    assert.deepEqual(versions('batch'), ['v1']);
    assert.deepEqual(versions('policy'), ['v1']);
    assert.deepEqual(versions(g('flowcontrol.apiserver')), ['v1']);
    assert.equal(versions('extensions'), undefined);
  });
});
