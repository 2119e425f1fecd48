import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { domainNameTable } from '../../src/apis/api-domain.js';

const README = join(import.meta.dirname, '..', '..', 'README.md');

describe('README domain table', () => {
  it('shows every domain-derived name in both profiles, as the server computes them', () => {
    const readme = readFileSync(README, 'utf8');
    for (const r of domainNameTable()) {
      assert.ok(readme.includes(`| ${r.what} | \`${r.orch}\` | \`${r.kube}\` |`), `README lacks the row for ${r.what}`);
    }
  });
});
