import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { apiOf } from '../support/api.js';
import { kubectl } from '../support/kubectl.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';
import { owners } from './apply-support.js';

const manifest = (a: string, extra = '') =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n  labels:\n    tier: web\ndata:\n  a: "${a}"\n${extra}`;

// kubectl against the server: what it sends for create and apply, and what it prints back.
describe('kubectl and field ownership', () => {
  let server: ServerProcess;
  let k: (args: string[], input?: string) => ReturnType<typeof kubectl>;
  before(async () => {
    server = await startServerProcess();
    k = (args, input) => kubectl(server.kubeconfig, args, input);
  });
  after(async () => server?.dispose());

  it('records `kubectl create` as kube does, byte for byte', async () => {
    const r = await k(['create', 'configmap', 'created', '--from-literal=a=b']);
    assert.equal(r.code, 0, r.stderr);
    const res = await apiOf(server).admin('GET', '/api/v1/namespaces/default/configmaps/created');
    const m =
      /"managedFields":\[\{"manager":"kubectl-create","operation":"Update","apiVersion":"v1","time":"[0-9T:Z-]+","fieldsType":"FieldsV1","fieldsV1":\{"f:data":\{".":\{\},"f:a":\{\}\}\}\}\]/.exec(
        res.text,
      );
    assert.ok(m, res.text);
  });

  it('applies from stdin, prints conflicts, and forces them', async () => {
    let r = await k(['apply', '--server-side', '-f', '-'], manifest('1'));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'configmap/app serverside-applied');

    // Another manager changing kubectl's field: kubectl prints kube's conflict text and advice.
    r = await k(['apply', '--server-side', '--field-manager=x', '-f', '-'], manifest('2'));
    assert.equal(r.code, 1);
    assert.match(r.stderr, /Apply failed with 1 conflict: conflict with "kubectl": \.data\.a/);
    assert.match(r.stderr, /--force-conflicts/);

    // The same value is shared without conflict.
    r = await k(['apply', '--server-side', '--field-manager=x', '-f', '-'], manifest('1'));
    assert.equal(r.code, 0, r.stderr);

    r = await k(['apply', '--server-side', '--field-manager=x', '--force-conflicts', '-f', '-'], manifest('2'));
    assert.equal(r.code, 0, r.stderr);
    const obj = (await apiOf(server).admin('GET', '/api/v1/namespaces/default/configmaps/app')).json();
    assert.deepEqual(obj.data, { a: '2' });
    assert.deepEqual(owners(obj), {
      'kubectl/Apply': '{"f:metadata":{"f:labels":{"f:tier":{}}}}',
      'x/Apply': '{"f:data":{"f:a":{}},"f:metadata":{"f:labels":{"f:tier":{}}}}',
    });

    // kubectl's own apply now conflicts with x, and --force-conflicts takes the field back.
    r = await k(['apply', '--server-side', '-f', '-'], manifest('3'));
    assert.equal(r.code, 1);
    assert.match(r.stderr, /conflict with "x": \.data\.a/);
    r = await k(['apply', '--server-side', '--force-conflicts', '-f', '-'], manifest('3'));
    assert.equal(r.code, 0, r.stderr);

    // A server-side dry run changes nothing.
    r = await k(['apply', '--server-side', '--dry-run=server', '-f', '-'], manifest('3', '  b: "dry"\n'));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /serverside-applied \(server dry run\)/);
  });

  it('shows managedFields with `kubectl get -o yaml --show-managed-fields`, hides them without', async () => {
    const r = await k(['get', 'configmap', 'app', '-o', 'yaml', '--show-managed-fields']);
    assert.equal(r.code, 0, r.stderr);
    const obj = parseYaml(r.stdout);
    assert.deepEqual(obj.data, { a: '3' });
    // Entries are sorted by time (seconds), then manager: compare them as a set.
    const entries = obj.metadata.managedFields as {
      manager: string;
      operation: string;
      time: string;
      fieldsV1: unknown;
    }[];
    assert.deepEqual(entries.map((e) => `${e.manager}/${e.operation}`).sort(), ['kubectl/Apply', 'x/Apply']);
    const mine = entries.find((e) => e.manager === 'kubectl')!;
    assert.deepEqual(mine.fieldsV1, { 'f:data': { 'f:a': {} }, 'f:metadata': { 'f:labels': { 'f:tier': {} } } });
    assert.match(mine.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const plain = await k(['get', 'configmap', 'app', '-o', 'yaml']);
    assert.equal(parseYaml(plain.stdout).metadata.managedFields, undefined);
  });

  it('moves an object from client-side to server-side apply without conflicts', async () => {
    const csa = (a: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: csa\ndata:\n  a: "${a}"\n  b: "2"\n`;
    let r = await k(['apply', '-f', '-'], csa('1'));
    assert.equal(r.code, 0, r.stderr);
    // The client-side apply's fields conflict with kubectl's apply only where the last-applied
    // annotation declares them, and those are taken over.
    r = await k(['apply', '--server-side', '-f', '-'], csa('9'));
    assert.equal(r.code, 0, r.stderr);
    const obj = (await apiOf(server).admin('GET', '/api/v1/namespaces/default/configmaps/csa')).json();
    assert.deepEqual(obj.data, { a: '9', b: '2' });
    assert.equal(owners(obj)['kubectl/Apply'], '{"f:data":{"f:a":{},"f:b":{}}}');
    assert.equal(owners(obj)['kubectl-client-side-apply/Update'], undefined);
    assert.match(obj.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'], /"a":"9"/);
  });
});
