import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiOf } from '../support/api.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

/** Integers at and past the int32/int64 limits of built-in fields, through HTTP. */
describe('integer limits of built-in fields', () => {
  let server: ServerProcess;
  let api: ReturnType<typeof apiOf>['admin'];
  const configMaps = '/api/v1/namespaces/default/configmaps';
  const configMap = (name: string, generation: string) =>
    `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}","generation":${generation}},"data":{"k":"v"}}`;
  const post = (path: string, body: string, type = 'application/json') =>
    api('POST', path, { body, headers: { 'content-type': type } });
  before(async () => {
    server = await startServerProcess();
    api = apiOf(server).admin;
  });
  after(async () => server?.dispose());

  it('answers 400 naming the field for an int64 field beyond int64, as kube decoding into Go does', async () => {
    for (const [name, literal] of [
      ['over', '9223372036854775808'],
      ['under', '-9223372036854775809'],
    ]) {
      const r = await post(configMaps, configMap(name, literal));
      assert.equal(r.status, 400, r.text);
      const status = r.json();
      assert.equal(status.reason, 'BadRequest');
      assert.equal(
        status.message,
        `ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number ${literal} into Go struct field ObjectMeta.metadata.generation of type int64`,
      );
    }
    const yaml = await post(
      configMaps,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yaml-over\n  generation: 9223372036854775808\n',
      'application/yaml',
    );
    assert.equal(yaml.status, 400, yaml.text);
    assert.match(yaml.json().message, /ObjectMeta\.metadata\.generation of type int64$/);
  });

  it('accepts the int64 limits and values past 2^53 in an int64 field', async () => {
    for (const [name, literal] of [
      ['max', '9223372036854775807'],
      ['min', '-9223372036854775808'],
      ['past-2-53', '9007199254740993'],
    ]) {
      const r = await post(configMaps, configMap(name, literal));
      assert.equal(r.status, 201, `${literal}: ${r.text}`);
      // A ConfigMap has no generation: the server drops whatever the client sent.
      assert.equal(r.json().metadata.generation, undefined);
    }
  });

  it('answers 400 naming the struct and field for an int32 field beyond int32', async () => {
    const r = await post(
      '/apis/coordination.orch.io/v1/namespaces/default/leases',
      '{"apiVersion":"coordination.orch.io/v1","kind":"Lease","metadata":{"name":"l"},"spec":{"leaseDurationSeconds":2147483648}}',
    );
    assert.equal(r.status, 400, r.text);
    assert.equal(
      r.json().message,
      'Lease in version "v1" cannot be handled as a Lease: json: cannot unmarshal number 2147483648 into Go struct field LeaseSpec.spec.leaseDurationSeconds of type int32',
    );
  });

  it('reads DeleteOptions.gracePeriodSeconds as an int64', async () => {
    await post(configMaps, configMap('del', '1'));
    // Node sends a body of unknown length chunked, which the server refuses on DELETE.
    const remove = (body: string) =>
      api('DELETE', `${configMaps}/del`, {
        body,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      });
    const over = await remove('{"kind":"DeleteOptions","apiVersion":"v1","gracePeriodSeconds":9223372036854775808}');
    assert.equal(over.status, 400, over.text);
    assert.equal(
      over.json().message,
      'json: cannot unmarshal number 9223372036854775808 into Go struct field DeleteOptions.gracePeriodSeconds of type int64',
    );
    const big = await remove('{"kind":"DeleteOptions","apiVersion":"v1","gracePeriodSeconds":9007199254740993}');
    assert.equal(big.status, 200, big.text);
  });
});
