import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type InProcessServer, startInProcess } from './server-fixture.js';
import { widgetDefinition } from './widget-definition.js';

const WIDGETS = '/apis/test.orch.io/v1/namespaces/default/widgets';

/** A schema-validated kind (as custom resources will be) with an int64 field: `spec.big`. */
describe('int64 fields beyond 2^53 through the API', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ runControllers: false });
    await s.server.resources.add(widgetDefinition());
  });
  after(() => s.stop());

  const body = (name: string, big: string) =>
    `{"apiVersion":"test.orch.io/v1","kind":"Widget","metadata":{"name":"${name}"},"spec":{"big":${big}}}`;

  for (const big of ['9007199254740993', '-9223372036854775808', '9223372036854775807']) {
    it(`keeps ${big} exact through create, storage, get, list and YAML`, async () => {
      const name = `w${big.replace('-', 'm')}`;
      const created = await s.api.admin('POST', WIDGETS, { body: body(name, big) });
      assert.equal(created.status, 201, created.text);
      assert.match(created.text, new RegExp(`"big":${big}[,}]`));
      const got = await s.api.admin('GET', `${WIDGETS}/${name}`);
      assert.match(got.text, new RegExp(`"big":${big}[,}]`));
      const listed = await s.api.admin('GET', `${WIDGETS}?resourceVersion=0`);
      assert.match(listed.text, new RegExp(`"big":${big}[,}]`));
      const yaml = await s.api.admin('GET', `${WIDGETS}/${name}`, { headers: { accept: 'application/yaml' } });
      assert.match(yaml.text, new RegExp(`big: ${big}\\n`));
    });
  }

  it('rejects a value outside int64 with 422 naming the field', async () => {
    const r = await s.api.admin('POST', WIDGETS, { body: body('too-big', '9223372036854775808') });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json().details.causes[0].field, 'spec.big');
  });
});
