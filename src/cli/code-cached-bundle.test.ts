import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { codeCacheOf, loadCodeCachedBundle } from './code-cached-bundle.js';

// Each load that V8 may take a cache for runs in a process of its own, as the server's does.
const LOADER = join(import.meta.dirname, 'code-cached-bundle.ts');

function loadInChild(bundle: string, o: { write?: boolean; v8Flags?: string[] } = {}) {
  const script = [
    `const { loadCodeCachedBundle } = await import(${JSON.stringify(LOADER)});`,
    `const b = loadCodeCachedBundle(${JSON.stringify(bundle)});`,
    o.write ? 'b.writeCache();' : '',
    'console.log(JSON.stringify({ cache: b.cache, answer: b.exports.answer(), file: b.exports.file }));',
  ].join('\n');
  const r = spawnSync(
    process.execPath,
    [...(o.v8Flags ?? []), '--import', 'tsx', '--input-type=module', '-e', script],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { cache: string; answer: number; file: string };
}

describe('code-cached bundles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-code-cache-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const bundle = join(dir, 'bundle.cjs');
  const cache = codeCacheOf(bundle);
  const source = (n: number) =>
    `const { basename } = require('node:path');\nmodule.exports.answer = () => ${n};\nmodule.exports.file = basename(__filename);\n`;

  it('runs the bundle as a CommonJS module, then with the cache it wrote', () => {
    writeFileSync(bundle, source(41));
    assert.deepEqual(loadInChild(bundle, { write: true }), { cache: 'absent', answer: 41, file: 'bundle.cjs' });
    assert.deepEqual(loadInChild(bundle), { cache: 'used', answer: 41, file: 'bundle.cjs' });
  });

  it('does not use a cache made from another source, even of the same length', () => {
    writeFileSync(bundle, source(41));
    loadInChild(bundle, { write: true });
    writeFileSync(bundle, source(42));
    assert.deepEqual(loadInChild(bundle), { cache: 'stale', answer: 42, file: 'bundle.cjs' });
  });

  it('compiles as without a cache when V8 rejects it (other flags) or the file is not one', () => {
    writeFileSync(bundle, source(7));
    loadInChild(bundle, { write: true });
    assert.deepEqual(loadInChild(bundle, { v8Flags: ['--stack-size=500'] }), {
      cache: 'rejected',
      answer: 7,
      file: 'bundle.cjs',
    });
    writeFileSync(cache, 'not a code cache');
    const loaded = loadCodeCachedBundle(bundle);
    assert.equal(loaded.cache, 'stale');
    assert.equal((loaded.exports.answer as () => number)(), 7);
  });
});
