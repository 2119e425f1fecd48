import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';

const GROUP = '/apis/authorization.orch.io/v1';
const V1 = 'authorization.orch.io/v1';
const RBAC = 'rbac.authorization.orch.io';

/** A SubjectAccessReview for carol listing configmaps in `team`, limited as `selectors` say. */
const review = (selectors: object, user = 'carol') => ({
  body: {
    apiVersion: V1,
    kind: 'SubjectAccessReview',
    spec: { user, resourceAttributes: { verb: 'list', resource: 'configmaps', namespace: 'team', ...selectors } },
  },
});

/** A server where carol may list configmaps in `team` (RBAC). */
async function serverWithCarol(featureGates?: Record<string, boolean>): Promise<InProcessServer> {
  const s = await startInProcess({ runControllers: false, authorizationModes: ['RBAC'], featureGates });
  const post = async (path: string, body: object) => {
    const r = await s.api.admin('POST', path, { body });
    assert.equal(r.status, 201, r.text);
  };
  await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
  await post(`/apis/${RBAC}/v1/namespaces/team/roles`, {
    apiVersion: `${RBAC}/v1`,
    kind: 'Role',
    metadata: { name: 'configmap-reader' },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }],
  });
  await post(`/apis/${RBAC}/v1/namespaces/team/rolebindings`, {
    apiVersion: `${RBAC}/v1`,
    kind: 'RoleBinding',
    metadata: { name: 'carol-reads' },
    roleRef: { apiGroup: RBAC, kind: 'Role', name: 'configmap-reader' },
    subjects: [{ apiGroup: RBAC, kind: 'User', name: 'carol' }],
  });
  // The binding reaches the authorizer through its watch.
  for (let i = 0; i < 200; i++) {
    const r = await s.api.admin('POST', `${GROUP}/subjectaccessreviews`, review({}));
    if (r.json().status?.allowed === true) return s;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await s.stop();
  assert.fail('carol never became allowed');
}

describe('access reviews with selectors (AuthorizeWithSelectors on, the default)', () => {
  let s: InProcessServer;
  before(async () => {
    s = await serverWithCarol();
  });
  after(() => s?.stop());

  const statuses: [name: string, selectors: object, want: object][] = [
    [
      'selectors RBAC reads past',
      { fieldSelector: { rawSelector: 'metadata.name=x' }, labelSelector: { rawSelector: 'app in (a,b)' } },
      { allowed: true },
    ],
    [
      'requirements',
      {
        fieldSelector: { requirements: [{ key: 'metadata.name', operator: 'NotIn', values: ['x'] }] },
        labelSelector: { requirements: [{ key: 'app', operator: 'Exists' }] },
      },
      { allowed: true },
    ],
    [
      'a raw selector that does not parse',
      { labelSelector: { rawSelector: 'app in (' } },
      { allowed: true, evaluationError: 'spec.resourceAttributes.labelSelector ignored due to parse error' },
    ],
    [
      'requirements of which some cannot be read',
      {
        fieldSelector: {
          requirements: [
            { key: 'metadata.name', operator: 'In', values: ['x'] },
            { key: 'spec.x', operator: 'Exists' },
          ],
        },
        labelSelector: { requirements: [{ key: 'app', operator: 'Matches', values: ['a'] }] },
      },
      {
        allowed: true,
        evaluationError:
          'spec.resourceAttributes.fieldSelector partially ignored due to parse error; spec.resourceAttributes.labelSelector ignored due to parse error',
      },
    ],
  ];
  for (const [name, selectors, want] of statuses) {
    it(`subjectaccessreviews: ${name}`, async () => {
      const r = await s.api.admin('POST', `${GROUP}/subjectaccessreviews`, review(selectors));
      assert.equal(r.status, 201, r.text);
      assert.deepEqual({ ...r.json().status, reason: undefined }, { ...want, reason: undefined });
      assert.deepEqual(
        r.json().spec.resourceAttributes.fieldSelector,
        (selectors as { fieldSelector?: object }).fieldSelector,
      );
    });
  }

  it("refuses malformed selectors with kube's messages, every problem in one 422", async () => {
    const r = await s.api.admin(
      'POST',
      `${GROUP}/subjectaccessreviews`,
      review({
        fieldSelector: { rawSelector: 'a=b', requirements: [{ key: '', operator: 'In' }] },
        labelSelector: {},
      }),
    );
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(
      r.json().details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`),
      [
        'spec.resourceAttributes.fieldSelector.rawSelector: Invalid value: "a=b": may not specified at the same time as requirements',
        'spec.resourceAttributes.fieldSelector.requirements[0].key: Required value: must be specified',
        "spec.resourceAttributes.fieldSelector.requirements[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
        'spec.resourceAttributes.labelSelector.requirements: Required value: when spec.resourceAttributes.labelSelector is specified, requirements or rawSelector is required',
      ],
    );
  });

  it('selfsubjectaccessreviews and localsubjectaccessreviews take them too', async () => {
    const carol = await s.userCredentials('carol');
    const self = await s.api.admin('POST', `${GROUP}/selfsubjectaccessreviews`, {
      as: carol,
      body: {
        apiVersion: V1,
        kind: 'SelfSubjectAccessReview',
        spec: {
          resourceAttributes: {
            verb: 'watch',
            resource: 'configmaps',
            namespace: 'team',
            fieldSelector: { rawSelector: 'metadata.name==x,' },
          },
        },
      },
    });
    assert.equal(self.status, 201, self.text);
    assert.equal(self.json().status.allowed, true);
    assert.equal(self.json().status.evaluationError, undefined);
    const local = await s.api.admin('POST', `${GROUP}/namespaces/team/localsubjectaccessreviews`, {
      body: {
        apiVersion: V1,
        kind: 'LocalSubjectAccessReview',
        spec: {
          user: 'carol',
          resourceAttributes: {
            verb: 'list',
            resource: 'configmaps',
            namespace: 'team',
            labelSelector: { requirements: [{ key: 'a b', operator: 'Exists' }] },
          },
        },
      },
    });
    assert.equal(local.status, 422, local.text);
    assert.match(
      local.json().message,
      /spec\.resourceAttributes\.labelSelector\.requirements\[0\]\.key: Invalid value: "a b": name part must consist of/,
    );
  });
});

describe('access reviews with AuthorizeWithSelectors=false', () => {
  let s: InProcessServer;
  before(async () => {
    s = await serverWithCarol({ AuthorizeWithSelectors: false });
  });
  after(() => s?.stop());

  it('pass no selectors to the authorizer, so none can be reported unreadable', async () => {
    const r = await s.api.admin(
      'POST',
      `${GROUP}/subjectaccessreviews`,
      review({ labelSelector: { rawSelector: 'app in (' }, fieldSelector: { rawSelector: 'nope' } }),
    );
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json().status.allowed, true);
    assert.equal(r.json().status.evaluationError, undefined);
  });

  it('lists with selectors are authorized as before', async () => {
    const carol = await s.userCredentials('carol');
    const list = await s.api.admin('GET', '/api/v1/namespaces/team/configmaps?labelSelector=app%3Dweb', { as: carol });
    assert.equal(list.status, 200, list.text);
    const other = await s.api.admin('GET', '/api/v1/namespaces/default/configmaps?labelSelector=app%3Dweb', {
      as: carol,
    });
    assert.equal(other.status, 403);
  });
});
