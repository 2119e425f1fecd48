import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sourceFiles } from './source-files.js';

const DECLARATION =
  /^export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|const|let|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm;

// An exported name that appears nowhere but in its own declaration is dead code: nothing calls
// it, not even its own module or a test. (Names used only by tests are allowed: they are the
// tested surface of a library.)
describe('exports', () => {
  it('every exported name of src/ is used somewhere', () => {
    const files = [...sourceFiles('src'), ...sourceFiles('test'), ...sourceFiles('bench')];
    const counts = new Map<string, number>();
    for (const f of files) {
      for (const word of f.text.match(/[A-Za-z_$][\w$]*/g) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    const unused: string[] = [];
    for (const f of files) {
      if (!f.path.startsWith('src/') || f.path.endsWith('.test.ts')) continue;
      for (const m of f.text.matchAll(DECLARATION)) {
        if ((counts.get(m[1]) ?? 0) <= 1) unused.push(`${f.path}: ${m[1]}`);
      }
    }
    assert.deepEqual(unused, []);
  });
});
