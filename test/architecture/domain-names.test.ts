import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';

const SRC = join(import.meta.dirname, '..', '..', 'src');
/** The one module allowed to spell domain-derived names. */
const SOURCE_OF_NAMES = 'apis/api-domain.ts';

/**
 * Domain-derived names: anything under `orch.io`, the Protobuf media type, the system
 * namespaces, `system:orch-*` users, `ORCH_*` environment variables. (The product's own names,
 * `orch-apiserver` and friends, are not derived from the API domain; the internal schema
 * extensions `x-orch-*` never reach a client: OpenAPI writes them as `x-kubernetes-*`.)
 */
const DOMAIN_NAME = /orch\.io|vnd\.orch|orch-(system|public|node-lease)|system:orch-|['"`]ORCH_[A-Z]/;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      if (entry !== 'testing') sourceFiles(path, out);
    } else if (entry.endsWith('.ts') && !entry.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/** The code of a file without its comments (line and block), keeping string literals. */
function codeOf(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

describe('domain-derived names', () => {
  it('are spelled only in the API domain module', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const rel = relative(SRC, file);
      if (rel === SOURCE_OF_NAMES) continue;
      codeOf(readFileSync(file, 'utf8'))
        .split('\n')
        .forEach((line, i) => {
          if (DOMAIN_NAME.test(line)) offenders.push(`${rel}:${i + 1}: ${line.trim()}`);
        });
    }
    assert.deepEqual(offenders, []);
  });
});
