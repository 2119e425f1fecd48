import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';

/**
 * The schema generator (scripts/schema-gen) as a user runs it, in a child process: it rebuilds
 * the committed module from the committed facts, follows changed facts, refuses what it cannot
 * map; the OpenAPI reducer turns upstream-shaped files into the reference facts, and the facts
 * reduced from kube's Go declarations render the same module as that reference.
 */
const ROOT = join(import.meta.dirname, '..', '..', '..');

/** The parts of the facts file the tests below change. */
interface EditableFacts {
  schemas: Record<string, { properties: Record<string, Record<string, unknown>>; [key: string]: unknown }>;
  protobuf: Record<
    string,
    Record<string, { number: number; label: string; type: string; inline?: string; pointer?: true }>
  >;
}

const UPSTREAM = join(ROOT, 'scripts', 'schema-gen', 'upstream');
/** Facts reduced from the Go declarations (what the module is generated from). */
const FACTS = join(UPSTREAM, 'rbac-v1.facts.json');
/** Facts reduced from kube's published OpenAPI v3 document (the reference). */
const OPENAPI_FACTS = join(UPSTREAM, 'rbac-v1.openapi.facts.json');

/** Runs the generator (`--stdout`) for `module`, optionally over other facts. */
function generate(factsFile?: string, module = 'rbac'): { status: number | null; stdout: string; stderr: string } {
  const args = [join('scripts', 'schema-gen', 'generate.ts'), module, '--stdout'];
  if (factsFile) args.push(`--facts=${factsFile}`);
  return spawnSync(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, encoding: 'utf8' });
}

/** The module text without its two header lines (command and provenance). */
const body = (text: string): string => text.split('\n').slice(2).join('\n');

describe('the RBAC schema generator', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-schema-gen-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The committed facts, changed by `edit`, in a temporary file. */
  function factsWith(edit: (facts: EditableFacts) => void): string {
    const facts = JSON.parse(readFileSync(FACTS, 'utf8'));
    edit(facts);
    const file = join(dir, `facts-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(facts));
    return file;
  }
  const RULE = 'io.k8s.api.rbac.v1.PolicyRule';

  it('reproduces the committed module exactly from the committed facts', () => {
    const run = generate();
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, readFileSync(join(ROOT, 'src', 'apis', 'rbac', 'rbac-schemas.ts'), 'utf8'));
  });

  it('follows the facts: a new upstream field appears with its type, marker and protobuf number', () => {
    const file = factsWith((f) => {
      f.schemas[RULE].properties.scopes = { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' };
      f.protobuf[RULE].scopes = { number: 6, label: 'repeated', type: 'string' };
    });
    const run = generate(file);
    assert.equal(run.status, 0, run.stderr);
    assert.match(
      run.stdout,
      /scopes: \{\s*type: 'array',\s*items: \{ type: 'string' \},\s*'x-orch-list-type': 'set',\s*'x-orch-protobuf-field': 6,?\s*\}/,
    );
  });

  it('marks inlined structs and Go pointers to scalars for the protobuf codec', () => {
    const file = factsWith((f) => {
      f.schemas[RULE].properties.path = { type: 'string' };
      f.schemas[RULE].properties.limit = { type: 'integer', format: 'int32' };
      f.protobuf[RULE].source = { number: 7, label: 'optional', type: 'Source', inline: 'io.k8s.api.rbac.v1.Source' };
      f.protobuf[RULE].limit = { number: 8, label: 'optional', type: 'int32', pointer: true };
      f.protobuf['io.k8s.api.rbac.v1.Source'] = { path: { number: 1, label: 'optional', type: 'string' } };
    });
    const run = generate(file);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /'x-orch-protobuf-inline': \[\{ field: 7, properties: \['path'\] \}\],/);
    assert.match(run.stdout, /path: \{ type: 'string', 'x-orch-protobuf-field': 1 \},\s*limit: \{/);
    assert.match(
      run.stdout,
      /limit: \{ type: 'integer', format: 'int32', 'x-orch-protobuf-field': 8, 'x-orch-protobuf-presence': 'explicit' \}/,
    );
  });

  it('reduces upstream-shaped files (prose, other types, comments) to the reference facts and module', () => {
    const facts = JSON.parse(readFileSync(OPENAPI_FACTS, 'utf8')) as EditableFacts & {
      source: { openapi: { commit: string } };
    };
    // Upstream carries descriptions everywhere, types the module does not reach, and ObjectMeta,
    // which Orch defines itself.
    const prose = (v: Record<string, unknown>): Record<string, unknown> => {
      const out: Record<string, unknown> = { description: 'Upstream prose.', ...v };
      if (v.properties) {
        const props = Object.entries(v.properties as Record<string, Record<string, unknown>>);
        out.properties = Object.fromEntries(props.map(([k, x]) => [k, prose(x)]));
      }
      if (v.items) out.items = prose(v.items as Record<string, unknown>);
      return out;
    };
    const schemas = {
      ...Object.fromEntries(Object.entries(facts.schemas).map(([k, v]) => [k, prose(v)])),
      'io.k8s.api.rbac.v1.RoleList': { description: 'A list.', type: 'object' },
      'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': { description: 'Metadata.', type: 'object' },
    };
    const openapi = join(dir, 'api', 'openapi.json');
    mkdirSync(dirname(openapi), { recursive: true });
    writeFileSync(openapi, JSON.stringify({ openapi: '3.0.0', paths: { '/x': {} }, components: { schemas } }));
    const proto = (pkg: string, prefix: string, extra: string): string => {
      const messages = Object.entries(facts.protobuf)
        .filter(([name]) => name.startsWith(prefix))
        .map(([name, fields]) => {
          const body = Object.entries(fields).map(([field, f]) =>
            f.label === 'map'
              ? `  ${f.type} ${field} = ${f.number};`
              : `  // A field.\n  // +optional\n  ${f.label} ${f.type} ${field} = ${f.number};`,
          );
          return `// ${name}.\nmessage ${name.slice(prefix.length)} {\n${body.join('\n\n')}\n}\n`;
        });
      return `// Generated.\n\nsyntax = "proto2";\n\npackage ${pkg};\n\nimport "x.proto";\n\n${messages.join('\n')}\n${extra}`;
    };
    const rbacProto = join(dir, 'rbac.proto');
    writeFileSync(
      rbacProto,
      proto('k8s.io.api.rbac.v1', 'io.k8s.api.rbac.v1.', 'message RoleList {\n  repeated Role items = 2;\n}\n'),
    );
    const metaProto = join(dir, 'meta.proto');
    writeFileSync(
      metaProto,
      proto(
        'k8s.io.apimachinery.pkg.apis.meta.v1',
        'io.k8s.apimachinery.pkg.apis.meta.v1.',
        'message ObjectMeta {\n  optional string name = 1;\n}\n',
      ),
    );
    const out = join(dir, 'reduced.json');
    const commit = facts.source.openapi.commit;
    const reduce = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join('scripts', 'schema-gen', 'reduce-upstream.ts'),
        'rbac-standalone',
        `--openapi=${openapi}@${commit}`,
        `--proto=${rbacProto}@a`,
        `--proto=${metaProto}@b`,
        `--out=${out}`,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    assert.equal(reduce.status, 0, reduce.stderr);
    const reduced = JSON.parse(readFileSync(out, 'utf8'));
    assert.deepEqual(reduced.schemas, facts.schemas);
    assert.deepEqual(reduced.protobuf, facts.protobuf);
    const run = generate(out, 'rbac-standalone');
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, generate(undefined, 'rbac-standalone').stdout);
  });

  it('gets from the Go declarations (RBAC and meta facts) the facts and module of the OpenAPI document', () => {
    // kube v1.32 did not change the RBAC types since the release the OpenAPI facts were read from.
    const reference = JSON.parse(readFileSync(OPENAPI_FACTS, 'utf8')) as EditableFacts;
    const rbac = JSON.parse(readFileSync(FACTS, 'utf8')) as EditableFacts & { source: unknown };
    const meta = JSON.parse(readFileSync(join(UPSTREAM, 'meta-v1.facts.json'), 'utf8')) as EditableFacts;
    const merged = {
      source: rbac.source,
      schemas: { ...meta.schemas, ...rbac.schemas },
      protobuf: { ...meta.protobuf, ...rbac.protobuf },
    };
    for (const [name, schema] of Object.entries(reference.schemas)) {
      assert.deepEqual(merged.schemas[name], schema, name);
    }
    // The protobuf type names differ only in spelling (generated.proto names some by field).
    const numbers = (pb: EditableFacts['protobuf'], name: string) =>
      Object.entries(pb[name]).map(([field, f]) => [field, f.number, f.label]);
    for (const name of Object.keys(reference.protobuf)) {
      assert.deepEqual(numbers(merged.protobuf, name), numbers(reference.protobuf, name), name);
    }
    const file = join(dir, 'go-rbac-meta.json');
    writeFileSync(file, JSON.stringify(merged));
    const fromGo = generate(file, 'rbac-standalone');
    assert.equal(fromGo.status, 0, fromGo.stderr);
    const fromOpenApi = generate(undefined, 'rbac-standalone');
    assert.equal(fromOpenApi.status, 0, fromOpenApi.stderr);
    assert.equal(body(fromGo.stdout), body(fromOpenApi.stdout));
    assert.match(fromGo.stdout.split('\n')[1], /Go declarations: kubernetes\/api v0\.32\.0 [0-9a-f]{12}/);
    assert.match(fromOpenApi.stdout.split('\n')[1], /kubernetes\/kubernetes OpenAPI v3 at [0-9a-f]{40}/);
  });

  const refusals: [string, (facts: EditableFacts) => void, string][] = [
    [
      'upstream prose',
      (f) => {
        f.schemas[RULE].properties.verbs.description = 'copied text';
      },
      `descriptions are not facts: ${RULE}`,
    ],
    [
      'an extension it has no marker for',
      (f) => {
        f.schemas[RULE]['x-kubernetes-validations'] = [{ rule: 'true' }];
      },
      `${RULE}: no mapping for "x-kubernetes-validations"`,
    ],
    [
      'a field without a protobuf number',
      (f) => {
        delete f.protobuf[RULE].resourceNames;
      },
      `${RULE}.resourceNames: no protobuf field number`,
    ],
    [
      'a protobuf label that contradicts the JSON shape',
      (f) => {
        f.protobuf[RULE].verbs.label = 'optional';
      },
      `${RULE}.verbs: protobuf label optional, JSON shape repeated`,
    ],
    [
      'a kind without a description of our own',
      (f) => {
        f.schemas[RULE].properties.selector = {
          allOf: [{ $ref: '#/components/schemas/io.k8s.api.rbac.v1.Unknown' }],
        };
        f.schemas['io.k8s.api.rbac.v1.Unknown'] = {
          type: 'object',
          properties: {},
          'x-kubernetes-group-version-kind': [{ group: 'rbac.authorization.k8s.io', kind: 'Unknown', version: 'v1' }],
        };
        f.protobuf[RULE].selector = { number: 9, label: 'optional', type: 'Unknown' };
      },
      'io.k8s.api.rbac.v1.Unknown: a kind needs a description of our own',
    ],
    [
      'an inlined struct whose fields have no JSON property',
      (f) => {
        f.protobuf[RULE].source = { number: 7, label: 'optional', type: 'Source', inline: 'io.k8s.api.rbac.v1.Source' };
        f.protobuf['io.k8s.api.rbac.v1.Source'] = { path: { number: 1, label: 'optional', type: 'string' } };
      },
      `${RULE}: protobuf field source.path has no JSON property`,
    ],
  ];
  for (const [what, edit, message] of refusals) {
    it(`refuses ${what}`, () => {
      const run = generate(factsWith(edit));
      assert.equal(run.status, 1);
      assert.equal(run.stdout, '');
      assert.ok(run.stderr.includes(message), run.stderr);
    });
  }
});
