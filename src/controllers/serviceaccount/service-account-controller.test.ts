import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { type ControllerFixture, controllerFixture, waitFor } from '../testing/controller-fixture.js';

describe('serviceaccount controller (in process, real registries)', () => {
  let f: ControllerFixture;
  beforeEach(async () => {
    f = await controllerFixture();
  });
  afterEach(async () => {
    await f.stopControllers();
  });

  it('creates the default service account in existing and new namespaces', async () => {
    await f.createNamespace('before');
    f.startControllers();
    const sa = await waitFor('default in "before"', () => f.find('serviceaccounts', 'before', 'default'));
    assert.deepEqual([sa.kind, sa.metadata.name, sa.metadata.namespace], ['ServiceAccount', 'default', 'before']);
    await f.createNamespace('after');
    await waitFor('default in "after"', () => f.find('serviceaccounts', 'after', 'default'));
  });

  it('re-creates the default service account when it is deleted', async () => {
    await f.createNamespace('team');
    f.startControllers();
    const first = await waitFor('default', () => f.find('serviceaccounts', 'team', 'default'));
    await f.registry('serviceaccounts').delete(f.ctx('team'), 'default', { dryRun: false });
    const second = await waitFor('a new default', async () => {
      const sa = await f.find('serviceaccounts', 'team', 'default');
      return sa && sa.metadata.uid !== first.metadata.uid ? sa : undefined;
    });
    assert.notEqual(second.metadata.uid, first.metadata.uid);
  });

  it('leaves a terminating namespace alone, so that it can go', async () => {
    await f.createNamespace('doomed');
    f.startControllers();
    await waitFor('default', () => f.find('serviceaccounts', 'doomed', 'default'));
    await f.registry('namespaces').delete(f.ctx(), 'doomed', { dryRun: false });
    await waitFor('the namespace to go', async () => !(await f.find('namespaces', '', 'doomed')));
    assert.equal(await f.find('serviceaccounts', 'doomed', 'default'), undefined);
  });
});
