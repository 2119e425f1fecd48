import assert from 'node:assert/strict';
import { dirname, join, normalize } from 'node:path';
import { describe, it } from 'node:test';
import { sourceFiles } from './source-files.js';

/**
 * DESIGN.md's import direction, as data: server → endpoints → registry → storage → backend;
 * the sibling libraries depend only on apis/ and util/; controllers are clients of the registry
 * (never endpoints, never storage). Every relative import in src/ must follow an edge below.
 */

/** Libraries beside the layers: any layer may use them; they use only apis/ and util/. */
const SIBLINGS = [
  'apply',
  'patch',
  'encoding',
  'authn',
  'authz',
  'admission',
  'cel',
  'audit',
  'metrics',
  'featuregate',
];
const LIBRARIES = ['apis', 'util', ...SIBLINGS];

/** What each module may import besides itself. `storage/backend` is storage/{memory,lmdb,etcd}. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  util: [],
  apis: ['util'],
  ...Object.fromEntries(SIBLINGS.map((s) => [s, ['apis', 'util']])),
  // Claim mappings, match conditions and admission policies are CEL expressions.
  authn: ['apis', 'util', 'cel'],
  authz: ['apis', 'util', 'cel'],
  admission: ['apis', 'util', 'cel'],
  // Custom resource definitions into resource definitions; their validation rules are CEL.
  apiextensions: ['apis', 'util', 'cel'],
  // Backends implement the storage interface (store.ts, errors, keys).
  'storage/backend': ['storage', 'apis', 'util'],
  storage: [...LIBRARIES],
  registry: ['storage', 'apiextensions', ...LIBRARIES],
  endpoints: ['registry', ...LIBRARIES],
  // API clients (leader election, the REST client): they reach the API over HTTP or through an
  // injected client, never a layer of the server. They speak the wire formats with the
  // server's own codecs (a pure sibling library), through `client/wire/` only.
  client: ['apis', 'util', 'encoding'],
  controllers: ['registry', 'client', 'apiextensions', ...LIBRARIES],
  // The composition root: it wires every layer, backends and controllers included.
  server: [
    'endpoints',
    'registry',
    'storage',
    'storage/backend',
    'controllers',
    'client',
    'apiextensions',
    ...LIBRARIES,
  ],
  // orch-controller-manager: controllers over an API client, never the server's layers.
  controllermanager: ['controllers', 'client', ...LIBRARIES],
  cli: ['server', 'client', 'controllermanager', 'controllers', ...LIBRARIES],
  // src/index.ts, the package's entry point.
  index: ['server', 'storage', ...LIBRARIES],
};

/** Test code (`*.test.ts`, `testing/` folders) may also run against a backend (a memory store). */
const ALLOWED_IN_TESTS = ['storage/backend'];
/** ... and the controller manager's tests run it in process over the registries. */
const ALLOWED_IN_TESTS_OF: Readonly<Record<string, readonly string[]>> = { controllermanager: ['registry'] };

/**
 * Known violations being reworked, each `<file> -> <import>` (none today). The test below fails
 * when an entry no longer exists, so the list only shrinks.
 */
const TEMPORARY_ALLOWED = new Set<string>([]);

const BACKENDS = ['memory', 'lmdb', 'etcd'];

/** The module of a path relative to src/ (`storage/lmdb/x.ts` → `storage/backend`). */
function moduleOf(srcPath: string): string {
  const parts = srcPath.split('/');
  if (parts.length === 1) return parts[0] === 'index.ts' ? 'index' : `?${parts[0]}`;
  if (parts[0] === 'storage' && BACKENDS.includes(parts[1]) && parts.length > 2) return 'storage/backend';
  return parts[0];
}

const isTestCode = (path: string): boolean => path.endsWith('.test.ts') || path.split('/').includes('testing');

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

/** Every relative import of src/ that breaks the table, as `<file> -> <import> (<from> → <to>)`. */
function violations(): string[] {
  const out: string[] = [];
  for (const file of sourceFiles('src')) {
    const from = moduleOf(file.path.slice('src/'.length));
    for (const m of file.text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec.startsWith('.')) continue;
      const target = normalize(join(dirname(file.path), spec));
      const entry = `${file.path} -> ${spec}`;
      if (!target.startsWith('src/')) {
        out.push(`${entry} (outside src/)`);
        continue;
      }
      const to = moduleOf(target.slice('src/'.length));
      if (to === from) continue;
      const allowed = ALLOWED[from];
      if (allowed === undefined) {
        out.push(`${entry} (${from} is not in the table: add it)`);
        continue;
      }
      const testOnly = [...ALLOWED_IN_TESTS, ...(ALLOWED_IN_TESTS_OF[from] ?? [])];
      if (allowed.includes(to) || (isTestCode(file.path) && testOnly.includes(to))) continue;
      if (TEMPORARY_ALLOWED.has(entry)) continue;
      out.push(`${entry} (${from} → ${to})`);
    }
  }
  return out;
}

describe('import direction (DESIGN.md rule 1)', () => {
  it('every import in src/ points down a layer or at a library', () => {
    assert.deepEqual(violations(), []);
  });

  it('the temporary allow-list holds only imports that still exist', () => {
    const present = new Set<string>();
    for (const file of sourceFiles('src')) {
      for (const m of file.text.matchAll(IMPORT)) present.add(`${file.path} -> ${m[1] ?? m[2] ?? m[3]}`);
    }
    assert.deepEqual(
      [...TEMPORARY_ALLOWED].filter((e) => !present.has(e)),
      [],
    );
  });

  it('classifies files into modules', () => {
    const cases: [string, string][] = [
      ['index.ts', 'index'],
      ['util/clock.ts', 'util'],
      ['storage/store.ts', 'storage'],
      ['storage/cacher/cacher.ts', 'storage'],
      ['storage/memory/memory-store.ts', 'storage/backend'],
      ['storage/lmdb/testing/lmdb-harness.ts', 'storage/backend'],
      ['endpoints/handlers/watch.ts', 'endpoints'],
    ];
    for (const [path, module] of cases) assert.equal(moduleOf(path), module, path);
    assert.equal(isTestCode('src/registry/resources/testing/registry-fixture.ts'), true);
    assert.equal(isTestCode('src/registry/generic/create.ts'), false);
  });
});
