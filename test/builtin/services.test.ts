import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';

// kube v1.32's Service semantics through a real server: defaults, validation, cluster IP and
// node port allocation (requested, dynamic, concurrent, released), type changes, the status and
// proxy sub-resources, field selectors, and the server's own default/kubernetes Service.

const BASE = '/api/v1/namespaces/default/services';
const SMP = 'application/strategic-merge-patch+json';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Obj = Record<string, any>;

function service(name: string, spec: Obj, metadata: Obj = {}): Obj {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, ...metadata }, spec };
}

/** `field: message` of each cause of a 422. */
function causes(body: Obj): string[] {
  return (body.details?.causes ?? []).map((c: Obj) => `${c.field}: ${c.message}`);
}

describe('Services', () => {
  let s: InProcessServer;
  const create = (obj: Obj, query = '') => s.api.admin('POST', `${BASE}${query}`, { body: obj });
  const get = async (name: string) => (await s.api.admin('GET', `${BASE}/${name}`)).json();

  before(async () => {
    s = await startInProcess({ advertiseAddress: '192.0.2.10' });
  });
  after(() => s?.stop());

  it('fills kube’s defaults and allocates a cluster IP from the range', async () => {
    const r = await create(service('plain', { selector: { app: 'plain' }, ports: [{ port: 80 }] }));
    assert.equal(r.status, 201, r.text);
    const { spec, status } = r.json();
    assert.match(spec.clusterIP, /^10\.0\.0\.\d+$/);
    assert.notEqual(spec.clusterIP, '10.0.0.1');
    assert.deepEqual(
      { ...spec, clusterIP: undefined, clusterIPs: undefined },
      {
        ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
        selector: { app: 'plain' },
        type: 'ClusterIP',
        sessionAffinity: 'None',
        internalTrafficPolicy: 'Cluster',
        ipFamilyPolicy: 'SingleStack',
        ipFamilies: ['IPv4'],
        clusterIP: undefined,
        clusterIPs: undefined,
      },
    );
    assert.deepEqual(spec.clusterIPs, [spec.clusterIP]);
    assert.deepEqual(status, { loadBalancer: {} });
  });

  it('gives NodePort services node ports from the range and their traffic policy', async () => {
    const r = await create(
      service('np', {
        type: 'NodePort',
        ports: [
          { name: 'a', port: 80 },
          { name: 'b', port: 81, nodePort: 30081 },
        ],
      }),
    );
    assert.equal(r.status, 201, r.text);
    const { spec } = r.json();
    assert.equal(spec.externalTrafficPolicy, 'Cluster');
    assert.ok(spec.ports[0].nodePort >= 30000 && spec.ports[0].nodePort <= 32767, String(spec.ports[0].nodePort));
    assert.equal(spec.ports[1].nodePort, 30081);
  });

  it('answers every validation error at once (422 with causes)', async () => {
    const r = await create(
      service('bad', {
        type: 'Magic',
        sessionAffinity: 'Sticky',
        selector: { 'bad key!': 'x' },
        ports: [{ port: 0, protocol: 'ICMP' }, { port: 70000 }],
      }),
    );
    assert.equal(r.status, 422);
    const body = r.json();
    assert.equal(body.reason, 'Invalid');
    assert.deepEqual(causes(body), [
      'spec.ports[0].name: Required value',
      'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
      'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.ports[1].name: Required value',
      'spec.ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.ports[1].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      `spec.selector: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      'spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"',
      'spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    ]);
    assert.match(body.message, /^Service "bad" is invalid: \[spec\.ports\[0\]\.name: Required value, /);
  });

  it('refuses bad names, ExternalName without a name, and node ports on ClusterIP services', async () => {
    const name = await create(service('9web', { ports: [{ port: 80 }] }));
    assert.equal(name.status, 422);
    assert.match(causes(name.json())[0], /^metadata\.name: Invalid value: "9web": a DNS-1035 label must/);
    const ext = await create(service('ext', { type: 'ExternalName', clusterIP: '10.0.0.77' }));
    assert.deepEqual(causes(ext.json()), [
      'spec.clusterIPs: Forbidden: may not be set for ExternalName services',
      'spec.externalName: Required value',
    ]);
    const np = await create(service('cip', { ports: [{ port: 80, nodePort: 30090 }] }));
    assert.deepEqual(causes(np.json()), [
      "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
    ]);
    const headless = await create(service('headless', { clusterIP: 'None', selector: { app: 'h' } }));
    assert.equal(headless.status, 201, headless.text);
    assert.deepEqual(headless.json().spec.clusterIPs, ['None']);
  });

  it('honours a requested cluster IP once and refuses it after, in kube’s words', async () => {
    const first = await create(service('req-a', { clusterIP: '10.0.0.200', ports: [{ port: 80 }] }));
    assert.equal(first.status, 201, first.text);
    const second = await create(service('req-b', { clusterIP: '10.0.0.200', ports: [{ port: 80 }] }));
    assert.equal(second.status, 422);
    assert.deepEqual(causes(second.json()), [
      'spec.clusterIPs: Invalid value: []string{"10.0.0.200"}: failed to allocate IP 10.0.0.200: provided IP is already allocated',
    ]);
    const outside = await create(service('req-c', { clusterIP: '10.1.0.5', ports: [{ port: 80 }] }));
    assert.deepEqual(causes(outside.json()), [
      'spec.clusterIPs: Invalid value: []string{"10.1.0.5"}: failed to allocate IP 10.1.0.5: the provided IP (10.1.0.5) is not in the valid range. The range of valid IPs is 10.0.0.0/24',
    ]);
    // Deleting the service frees its address.
    assert.equal((await s.api.admin('DELETE', `${BASE}/req-a`)).status, 200);
    const again = await create(service('req-b', { clusterIP: '10.0.0.200', ports: [{ port: 80 }] }));
    assert.equal(again.status, 201, again.text);
  });

  it('honours a requested node port once and refuses it after', async () => {
    const first = await create(service('port-a', { type: 'NodePort', ports: [{ port: 80, nodePort: 31234 }] }));
    assert.equal(first.status, 201, first.text);
    const second = await create(service('port-b', { type: 'NodePort', ports: [{ port: 80, nodePort: 31234 }] }));
    assert.equal(second.status, 422);
    assert.deepEqual(causes(second.json()), [
      'spec.ports[0].nodePort: Invalid value: 31234: provided port is already allocated',
    ]);
    const outside = await create(service('port-c', { type: 'NodePort', ports: [{ port: 80, nodePort: 8080 }] }));
    assert.deepEqual(causes(outside.json()), [
      'spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767',
    ]);
    // A refused create takes nothing: its cluster IP was given back.
    const used = (await s.api.admin('GET', BASE)).json().items.map((i: Obj) => i.spec.clusterIP);
    assert.equal(new Set(used).size, used.length);
  });

  it('never hands out a cluster IP or node port twice under 50 concurrent creates', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        create(
          service(`burst-${i}`, {
            type: i % 2 ? 'NodePort' : 'ClusterIP',
            ports: [
              { name: 'a', port: 80 },
              { name: 'b', port: 81 },
            ],
          }),
        ),
      ),
    );
    for (const r of results) assert.equal(r.status, 201, r.text);
    const items = (await s.api.admin('GET', BASE)).json().items as Obj[];
    const ips = items.map((i) => i.spec.clusterIP).filter((ip) => ip && ip !== 'None');
    assert.equal(new Set(ips).size, ips.length, 'duplicate cluster IP');
    const ports = items.flatMap((i) => (i.spec.ports ?? []).map((p: Obj) => p.nodePort).filter(Boolean));
    assert.equal(new Set(ports).size, ports.length, 'duplicate node port');
    assert.ok(ports.length >= 50);
  });

  it('keeps the cluster IP immutable and frees it when the type becomes ExternalName', async () => {
    const live = await get('plain');
    const put = await s.api.admin('PUT', `${BASE}/plain`, {
      body: { ...live, spec: { ...live.spec, clusterIP: '10.0.0.250', clusterIPs: ['10.0.0.250'] } },
    });
    assert.equal(put.status, 422);
    assert.deepEqual(causes(put.json()), [
      'spec.clusterIPs[0]: Invalid value: []string{"10.0.0.250"}: may not change once set',
    ]);
    // Resubmitting without the allocated values keeps them (kube patches them in).
    const resubmit = await s.api.admin('PUT', `${BASE}/plain`, {
      body: service('plain', { selector: { app: 'plain' }, ports: [{ port: 80 }] }),
    });
    assert.equal(resubmit.status, 200, resubmit.text);
    assert.equal(resubmit.json().spec.clusterIP, live.spec.clusterIP);
    const ext = await s.api.admin('PATCH', `${BASE}/plain`, {
      body: JSON.stringify({ spec: { type: 'ExternalName', externalName: 'db.example.com' } }),
      headers: { 'content-type': SMP },
    });
    assert.equal(ext.status, 200, ext.text);
    assert.equal(ext.json().spec.clusterIP, undefined);
    assert.equal(ext.json().spec.ipFamilies, undefined);
    const reuse = await create(service('reuse', { clusterIP: live.spec.clusterIP, ports: [{ port: 80 }] }));
    assert.equal(reuse.status, 201, reuse.text);
  });

  it('frees node ports when a service becomes ClusterIP', async () => {
    const np = await get('port-a');
    const r = await s.api.admin('PATCH', `${BASE}/port-a`, {
      body: JSON.stringify({ spec: { type: 'ClusterIP' } }),
      headers: { 'content-type': SMP },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json().spec.ports[0].nodePort, undefined);
    assert.equal(r.json().spec.externalTrafficPolicy, undefined);
    const taken = await create(
      service('port-d', { type: 'NodePort', ports: [{ port: 80, nodePort: np.spec.ports[0].nodePort }] }),
    );
    assert.equal(taken.status, 201, taken.text);
  });

  it('dry runs allocate nothing and answer kube’s placeholders', async () => {
    const r = await create(service('dry', { type: 'NodePort', ports: [{ port: 80 }] }), '?dryRun=All');
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json().spec.clusterIP, '10.0.0.0');
    assert.equal(r.json().spec.ports[0].nodePort, 32769);
    assert.equal((await s.api.admin('GET', `${BASE}/dry`)).status, 404);
  });

  it('serves status: load balancer ingress on LoadBalancer services only, spec unchanged', async () => {
    const lb = await create(service('lb', { type: 'LoadBalancer', ports: [{ port: 80 }] }));
    assert.equal(lb.status, 201, lb.text);
    assert.equal(lb.json().spec.allocateLoadBalancerNodePorts, true);
    const live = lb.json();
    const r = await s.api.admin('PUT', `${BASE}/lb/status`, {
      body: {
        ...live,
        spec: { ...live.spec, ports: [] },
        status: { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } },
      },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json().status.loadBalancer.ingress, [{ ip: '203.0.113.7', ipMode: 'VIP' }]);
    assert.equal(r.json().spec.ports.length, 1);
    const table = await s.api.admin('GET', `${BASE}/lb`, {
      headers: { accept: 'application/json;as=Table;v=v1;g=meta.orch.io' },
    });
    assert.equal(table.json().rows[0].cells[3], '203.0.113.7');
    const cip = await get('headless');
    const bad = await s.api.admin('PUT', `${BASE}/headless/status`, {
      body: { ...cip, status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } },
    });
    assert.equal(bad.status, 422);
    assert.deepEqual(causes(bad.json()), [
      "status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is 'LoadBalancer'",
    ]);
  });

  it('answers services/proxy with 503 (no proxy is served), 404 for a missing service', async () => {
    const r = await s.api.admin('GET', `${BASE}/headless/proxy/some/path`);
    assert.equal(r.status, 503);
    const body = r.json();
    assert.equal(body.kind, 'Status');
    assert.equal(body.reason, 'ServiceUnavailable');
    assert.match(body.message, /does not proxy requests to services/);
    assert.equal((await s.api.admin('GET', `${BASE}/nope/proxy/`)).status, 404);
    assert.equal((await s.api.admin('POST', `${BASE}/https:headless:443/proxy`)).status, 503);
  });

  it('selects by spec.type and spec.clusterIP, and names unsupported field labels', async () => {
    const nodePorts = (await s.api.admin('GET', `${BASE}?fieldSelector=spec.type%3DNodePort`)).json().items as Obj[];
    assert.ok(nodePorts.length > 0 && nodePorts.every((i) => i.spec.type === 'NodePort'));
    const headless = (await s.api.admin('GET', `${BASE}?fieldSelector=spec.clusterIP%3DNone`)).json().items as Obj[];
    assert.deepEqual(
      headless.map((i) => i.metadata.name),
      ['headless'],
    );
    const bad = await s.api.admin('GET', `${BASE}?fieldSelector=spec.ports%3D1`);
    assert.equal(bad.status, 400);
    assert.match(bad.json().message, /field label not supported: spec\.ports/);
  });

  it('deleting a service deletes its Endpoints', async () => {
    const ep = await s.api.admin('POST', '/api/v1/namespaces/default/endpoints', {
      body: {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name: 'headless' },
        subsets: [{ addresses: [{ ip: '10.244.1.1' }] }],
      },
    });
    assert.equal(ep.status, 201, ep.text);
    assert.equal((await s.api.admin('DELETE', `${BASE}/headless`)).status, 200);
    assert.equal((await s.api.admin('GET', '/api/v1/namespaces/default/endpoints/headless')).status, 404);
  });

  it('keeps default/kubernetes: the range’s first address, https 443 to the secure port, this server’s endpoints', async () => {
    const port = Number(new URL(s.url).port);
    const svc = await get('kubernetes');
    assert.equal(svc.spec.clusterIP, '10.0.0.1');
    assert.deepEqual(svc.spec.ports, [{ name: 'https', protocol: 'TCP', port: 443, targetPort: port }]);
    assert.deepEqual(svc.metadata.labels, { provider: 'kubernetes', component: 'apiserver' });
    const ep = (await s.api.admin('GET', '/api/v1/namespaces/default/endpoints/kubernetes')).json();
    assert.deepEqual(ep.subsets, [
      { addresses: [{ ip: '192.0.2.10' }], ports: [{ name: 'https', port, protocol: 'TCP' }] },
    ]);
    const slice = (
      await s.api.admin('GET', '/apis/discovery.orch.io/v1/namespaces/default/endpointslices/kubernetes')
    ).json();
    assert.equal(slice.addressType, 'IPv4');
    assert.deepEqual(slice.endpoints, [{ addresses: ['192.0.2.10'], conditions: { ready: true } }]);
    assert.deepEqual(slice.ports, [{ name: 'https', port, protocol: 'TCP' }]);
    assert.equal(slice.metadata.labels['kubernetes.io/service-name'.replace('kubernetes.io', 'orch.io')], 'kubernetes');
    // Its address is taken: nobody else gets it.
    const r = await create(service('steal', { clusterIP: '10.0.0.1', ports: [{ port: 80 }] }));
    assert.equal(r.status, 422);
  });
});
