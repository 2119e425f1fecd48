import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sourceFiles } from './source-files.js';

/**
 * In-process controllers are clients like any other: their requests pass the server's authorizer.
 * Only `ControllerClient` may call a registry (`served.store.<verb>(...)`); everything else in
 * src/controllers goes through it. Test code and fixtures are exempt.
 */
const CLIENT = 'src/controllers/controller-client.ts';
const REGISTRY_CALL = /\.store\s*\.\s*(get|list|watch|create|update|delete|deleteCollection|createSubresource)\s*\(/g;

const isTestCode = (path: string) => path.endsWith('.test.ts') || path.split('/').includes('testing');

function registryCalls(): string[] {
  const out: string[] = [];
  for (const file of sourceFiles('src/controllers')) {
    if (file.path === CLIENT || isTestCode(file.path)) continue;
    for (const m of file.text.matchAll(REGISTRY_CALL)) {
      const line = file.text.slice(0, m.index).split('\n').length;
      out.push(`${file.path}:${line} ${m[0]}`);
    }
  }
  return out;
}

describe('controller requests', () => {
  it('go through ControllerClient (and so through the authorizer) only', () => {
    assert.deepEqual(registryCalls(), []);
  });

  it('the check sees registry calls where they are', () => {
    const client = sourceFiles('src/controllers').find((f) => f.path === CLIENT);
    assert.ok(client && [...client.text.matchAll(REGISTRY_CALL)].length >= 7);
  });
});
