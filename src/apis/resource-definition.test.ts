import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiVersionOf } from './resource-definition.js';

describe('apiVersionOf', () => {
  const cases: [group: string, version: string, apiVersion: string][] = [
    ['', 'v1', 'v1'],
    ['coordination.orch.io', 'v1', 'coordination.orch.io/v1'],
    ['meta.orch.io', 'v1beta1', 'meta.orch.io/v1beta1'],
  ];
  for (const [group, version, apiVersion] of cases) {
    it(`${JSON.stringify(group)} ${version} → ${apiVersion}`, () => {
      assert.equal(apiVersionOf({ group, version }), apiVersion);
    });
  }
});
