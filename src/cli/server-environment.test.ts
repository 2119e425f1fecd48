import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SERVER_ENVIRONMENT } from './server-environment.js';

describe('the environment orch-apiserver is started with', () => {
  it('is what npm start sets', () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8'));
    const start: string = pkg.scripts.start;
    for (const [name, value] of Object.entries(SERVER_ENVIRONMENT)) {
      assert.ok(start.includes(`${name}=${value} `), `npm start sets ${name}=${value}: ${start}`);
    }
    assert.match(start, /node dist\/cli\/orch-apiserver\.js$/);
  });
});
