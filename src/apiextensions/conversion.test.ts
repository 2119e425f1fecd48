import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../apis/object.js';
import { noneConverter } from './conversion.js';

describe('conversion None', () => {
  it('rewrites apiVersion only, leaving its input alone', async () => {
    const objects = [
      { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 'a' }, spec: { x: 1 } },
      { apiVersion: 'example.com/v2', kind: 'Thing', metadata: { name: 'b' } },
    ] as ApiObject[];
    const out = await noneConverter().convert(objects, 'example.com/v2', new AbortController().signal);
    assert.deepEqual(
      out.map((o) => [o.apiVersion, o.metadata.name, o.spec]),
      [
        ['example.com/v2', 'a', { x: 1 }],
        ['example.com/v2', 'b', undefined],
      ],
    );
    assert.equal(objects[0].apiVersion, 'example.com/v1');
  });
});
