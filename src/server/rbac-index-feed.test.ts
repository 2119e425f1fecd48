import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../apis/api-domain.js';
import { resourceAttributes } from '../apis/request/authorization-attributes.js';
import { buildAuthorizer } from '../authz/authorization-modes.js';
import { RbacAuthorizer } from '../authz/rbac/rbac-authorizer.js';
import { RbacIndex } from '../authz/rbac/rbac-index.js';
import { registryFixture } from '../registry/resource-set/testing/registry-fixture.js';
import { silentLogger } from '../util/logger.js';
import { feedRbacIndex } from './rbac-index-feed.js';

const GROUP = ORCH_DOMAIN.group('rbac.authorization');

describe('feedRbacIndex', async () => {
  const f = await registryFixture();
  const lifetime = new AbortController();
  after(() => lifetime.abort());
  const index = new RbacIndex();
  const authorizer = buildAuthorizer(['RBAC'], { rbac: new RbacAuthorizer(index) });
  const feed = await feedRbacIndex({
    resources: f.resources,
    index,
    domain: ORCH_DOMAIN,
    logger: silentLogger,
    authorizer,
    signal: lifetime.signal,
  });
  const create = (resource: string, body: object) =>
    f.registry(resource).create(f.ctx(), { apiVersion: `${GROUP}/v1`, ...body } as never, { dryRun: false });

  it('says when the index shows a write: decisions right after are made with it', async () => {
    for (let i = 0; i < 20; i++) {
      const user = Object.freeze({ name: `user-${i}`, groups: Object.freeze(['system:authenticated']) });
      const role = await create('clusterroles', {
        kind: 'ClusterRole',
        metadata: { name: `reader-${i}` },
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
      });
      const binding = await create('clusterrolebindings', {
        kind: 'ClusterRoleBinding',
        metadata: { name: `reader-${i}` },
        roleRef: { apiGroup: GROUP, kind: 'ClusterRole', name: `reader-${i}` },
        subjects: [{ apiGroup: GROUP, kind: 'User', name: user.name }],
      });
      await feed.caughtUp(
        [
          { resource: 'clusterroles', resourceVersion: role.metadata.resourceVersion ?? '' },
          { resource: 'clusterrolebindings', resourceVersion: binding.metadata.resourceVersion ?? '' },
        ],
        lifetime.signal,
      );
      const a = resourceAttributes(user, 'get', { resource: 'configmaps', namespace: 'default', name: 'x' });
      assert.equal(authorizer.decide?.(a).decision, 'allow', `round ${i}`);
    }
  });

  it('resolves at once for what it has seen, and when the signal aborts', async () => {
    await feed.caughtUp([{ resource: 'clusterroles', resourceVersion: '1' }], lifetime.signal);
    const stop = new AbortController();
    const waiting = feed.caughtUp([{ resource: 'roles', resourceVersion: '999999999' }], stop.signal);
    stop.abort();
    await waiting;
  });
});
