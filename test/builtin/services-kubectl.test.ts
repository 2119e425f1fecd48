import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { kubectl } from '../support/kubectl.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

// The real kubectl 1.32 against a server with kube-apiserver's names: Services, Endpoints,
// EndpointSlices, Ingresses, IngressClasses and NetworkPolicies through the commands people use.

const NS = 'default';

/** The column names of a printed table's header line (columns are at least three spaces apart). */
const columnsOf = (stdout: string): string[] =>
  stdout
    .split('\n')[0]
    .trim()
    .split(/\s{2,}/);

describe('kubectl and Services (k8s.io profile)', () => {
  let server: ServerProcess;
  const ok = async (...args: string[]) => {
    const r = await kubectl(server.kubeconfig, args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}\n${r.stderr}`);
    return r;
  };

  before(async () => {
    server = await startServerProcess({ args: ['--api-domain=k8s.io', '--advertise-address=192.0.2.10'] });
  });
  after(() => server?.dispose());

  it('cluster-info names the control plane', async () => {
    const r = await ok('cluster-info');
    assert.match(r.stdout, /Kubernetes control plane\S* is running at \S*https:\/\/127\.0\.0\.1:\d+/);
  });

  it('get svc shows default/kubernetes with kube’s columns', async () => {
    const r = await ok('get', 'svc', '-n', NS);
    assert.deepEqual(columnsOf(r.stdout), ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE']);
    assert.match(r.stdout, /^kubernetes\s+ClusterIP\s+10\.0\.0\.1\s+<none>\s+443\/TCP\s+\d+s$/m);
    const ep = await ok('get', 'ep', 'kubernetes', '-n', NS);
    assert.match(ep.stdout, /^kubernetes\s+192\.0\.2\.10:\d+\s+\d+s$/m);
    const slices = await ok('get', 'endpointslices', '-n', NS);
    assert.deepEqual(columnsOf(slices.stdout), ['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE']);
    assert.match(slices.stdout, /^kubernetes\s+IPv4\s+\d+\s+192\.0\.2\.10\s+\d+s$/m);
  });

  it('create service clusterip / nodeport / externalname', async () => {
    assert.match(
      (await ok('create', 'service', 'clusterip', 'web', '--tcp=80:8080')).stdout,
      /^service\/web created$/m,
    );
    assert.match(
      (await ok('create', 'service', 'nodeport', 'web-np', '--tcp=80:8080', '--node-port=30080')).stdout,
      /created/,
    );
    assert.match(
      (await ok('create', 'service', 'externalname', 'web-ext', '--external-name=db.example.com')).stdout,
      /created/,
    );
    const wide = await ok('get', 'svc', '-o', 'wide');
    assert.deepEqual(columnsOf(wide.stdout), [
      'NAME',
      'TYPE',
      'CLUSTER-IP',
      'EXTERNAL-IP',
      'PORT(S)',
      'AGE',
      'SELECTOR',
    ]);
    assert.match(wide.stdout, /^web\s+ClusterIP\s+10\.0\.0\.\d+\s+<none>\s+80\/TCP\s+\d+s\s+app=web$/m);
    assert.match(wide.stdout, /^web-np\s+NodePort\s+10\.0\.0\.\d+\s+<none>\s+80:30080\/TCP\s+\d+s\s+app=web-np$/m);
    assert.match(wide.stdout, /^web-ext\s+ExternalName\s+<none>\s+db\.example\.com\s+<none>\s+\d+s\s+app=web-ext$/m);
  });

  it('expose a service under another name and port', async () => {
    const r = await ok('expose', 'service', 'web', '--name=web-alt', '--port=8081', '--target-port=8080');
    assert.match(r.stdout, /^service\/web-alt exposed$/m);
    const svc = JSON.parse((await ok('get', 'svc', 'web-alt', '-o', 'json')).stdout);
    assert.deepEqual(svc.spec.selector, { app: 'web' });
    assert.deepEqual(svc.spec.ports, [{ port: 8081, protocol: 'TCP', targetPort: 8080 }]);
  });

  it('refuses a taken node port with kube’s message', async () => {
    const r = await kubectl(server.kubeconfig, [
      'create',
      'service',
      'nodeport',
      'web-np2',
      '--tcp=80:8080',
      '--node-port=30080',
    ]);
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /Service "web-np2" is invalid: spec\.ports\[0\]\.nodePort: Invalid value: 30080: provided port is already allocated/,
    );
  });

  it('describe service', async () => {
    const r = await ok('describe', 'service', 'web-np');
    assert.match(r.stdout, /^Name:\s+web-np$/m);
    assert.match(r.stdout, /^Type:\s+NodePort$/m);
    assert.match(r.stdout, /^IP Family Policy:\s+SingleStack$/m);
    assert.match(r.stdout, /^IP Families:\s+IPv4$/m);
    assert.match(r.stdout, /^NodePort:\s+80-8080\s+30080\/TCP$/m);
    assert.match(r.stdout, /^External Traffic Policy:\s+Cluster$/m);
  });

  it('`all` includes services', async () => {
    // The category names several kinds, so kubectl prefixes each name with its kind.
    const r = await ok('get', 'all');
    assert.match(r.stdout, /^service\/kubernetes\s+ClusterIP\s+10\.0\.0\.1\s/m);
    assert.match(r.stdout, /^service\/web\s+ClusterIP\s/m);
  });

  it('ingress, ingressclass and networkpolicy by their short names', async () => {
    await ok('create', 'ingressclass', 'nginx', '--controller=example.com/ingress-nginx').catch(async () => {
      // Older kubectl lacks `create ingressclass`: apply a manifest instead.
    });
    const applied = await kubectl(
      server.kubeconfig,
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [
          {
            apiVersion: 'networking.k8s.io/v1',
            kind: 'IngressClass',
            metadata: { name: 'nginx' },
            spec: { controller: 'example.com/ingress-nginx' },
          },
          {
            apiVersion: 'networking.k8s.io/v1',
            kind: 'NetworkPolicy',
            metadata: { name: 'deny-web', namespace: NS },
            spec: { podSelector: { matchLabels: { app: 'web' } } },
          },
        ],
      }),
    );
    assert.equal(applied.code, 0, applied.stderr);
    await ok('create', 'ingress', 'web', '--class=nginx', '--rule=web.example.com/=web:80');
    const ing = await ok('get', 'ing');
    assert.deepEqual(columnsOf(ing.stdout), ['NAME', 'CLASS', 'HOSTS', 'ADDRESS', 'PORTS', 'AGE']);
    assert.match(ing.stdout, /^web\s+nginx\s+web\.example\.com\s+80\s+\d+s$/m);
    const ic = await ok('get', 'ingressclass');
    assert.match(ic.stdout, /^nginx\s+example\.com\/ingress-nginx\s+<none>\s+\d+s$/m);
    const np = await ok('get', 'netpol');
    assert.deepEqual(columnsOf(np.stdout), ['NAME', 'POD-SELECTOR', 'AGE']);
    assert.match(np.stdout, /^deny-web\s+app=web\s+\d+s$/m);
    const policy = JSON.parse((await ok('get', 'netpol', 'deny-web', '-o', 'json')).stdout);
    assert.deepEqual(policy.spec.policyTypes, ['Ingress']);
  });

  it('delete svc frees its node port', async () => {
    await ok('delete', 'svc', 'web-np');
    await ok('create', 'service', 'nodeport', 'web-np2', '--tcp=80:8080', '--node-port=30080');
  });
});
