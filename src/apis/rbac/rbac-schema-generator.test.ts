import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';

/**
 * The schema generator (scripts/schema-gen) as a user runs it, in a child process: it rebuilds
 * the committed module from the committed facts, follows changed facts, refuses what it cannot
 * map, and the reducer turns upstream-shaped files into the same facts.
 */
const ROOT = join(import.meta.dirname, '..', '..', '..');

/** The parts of the facts file the tests below change. */
interface EditableFacts {
  schemas: Record<string, { properties: Record<string, Record<string, unknown>>; [key: string]: unknown }>;
  protobuf: Record<string, Record<string, { number: number; label: string; type: string }>>;
}

const FACTS = join(ROOT, 'scripts', 'schema-gen', 'upstream', 'rbac-v1.facts.json');

/** Runs the generator (`--stdout`), optionally over other facts. */
function generate(factsFile?: string): { status: number | null; stdout: string; stderr: string } {
  const args = [join('scripts', 'schema-gen', 'generate.ts'), 'rbac', '--stdout'];
  if (factsFile) args.push(`--facts=${factsFile}`);
  return spawnSync(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, encoding: 'utf8' });
}

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

  it('reduces upstream-shaped files (prose, other types, comments) to the committed facts and module', () => {
    const facts = JSON.parse(readFileSync(FACTS, 'utf8')) as EditableFacts & {
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
        'rbac',
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
    const run = generate(out);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, readFileSync(join(ROOT, 'src', 'apis', 'rbac', 'rbac-schemas.ts'), 'utf8'));
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
      'a referenced type without a description of our own',
      (f) => {
        f.schemas[RULE].properties.selector = {
          allOf: [{ $ref: '#/components/schemas/io.k8s.api.rbac.v1.Unknown' }],
        };
        f.schemas['io.k8s.api.rbac.v1.Unknown'] = { type: 'object', properties: {} };
        f.protobuf[RULE].selector = { number: 9, label: 'optional', type: 'Unknown' };
      },
      'io.k8s.api.rbac.v1.Unknown: needs a description of our own',
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
