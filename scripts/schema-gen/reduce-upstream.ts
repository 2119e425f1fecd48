import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { refOf, SchemaGenError, type UpstreamFacts, type UpstreamSchema, withoutDescriptions } from './facts.js';
import type { ModuleConfig } from './module-config.js';
import { protoFields } from './proto-fields.js';
import { RBAC_STANDALONE_MODULE } from './rbac-config.js';

/**
 * Reduces upstream files to the facts file the generator reads: the component schemas reachable
 * from the module's types (stopping at types Orch already defines), every `description`
 * removed, and the protobuf fields of the same messages. Run it when moving to a new upstream
 * release, with files from that release's tree:
 *
 *   npx tsx scripts/schema-gen/reduce-upstream.ts rbac-standalone \
 *     --openapi=<api/openapi-spec/v3/apis__rbac.authorization.k8s.io__v1_openapi.json>@<commit> \
 *     --proto=<staging/src/k8s.io/api/rbac/v1/generated.proto>@<commit> \
 *     --proto=<staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto>@<commit> \
 *     [--out=<file>]
 *
 * then `generate.ts rbac-standalone --stdout`. The `@<commit>` suffix is recorded as provenance,
 * with the path from `api/` or `staging/` on. The built-in modules come from the Go declarations
 * instead (`reduce-go-types.ts`); these facts are the reference those must reproduce.
 */
const MODULES: Readonly<Record<string, ModuleConfig>> = { 'rbac-standalone': RBAC_STANDALONE_MODULE };
const ROOT = join(import.meta.dirname, '..', '..');

function references(s: UpstreamSchema): string[] {
  const own = refOf(s);
  const nested = [
    ...Object.values(s.properties ?? {}),
    ...(s.items ? [s.items] : []),
    ...(typeof s.additionalProperties === 'object' ? [s.additionalProperties] : []),
  ];
  return [...(own === undefined ? [] : [own]), ...nested.flatMap(references)];
}

export interface UpstreamFile {
  readonly text: string;
  /** Repository path, recorded as provenance. */
  readonly path: string;
  readonly commit: string;
}

/** The facts of `config` from an upstream OpenAPI v3 document and generated.proto files. */
export function reduceUpstream(config: ModuleConfig, openapi: UpstreamFile, protos: UpstreamFile[]): UpstreamFacts {
  const doc = JSON.parse(openapi.text) as { components?: { schemas?: Record<string, UpstreamSchema> } };
  const all = doc.components?.schemas ?? {};
  const fields = Object.assign({}, ...protos.map((p) => protoFields(p.text, p.path)));
  const keep = new Set<string>();
  const visit = (name: string): void => {
    if (keep.has(name) || config.external[name]) return;
    const s = all[name];
    if (s === undefined) throw new SchemaGenError(`${openapi.path}: no component schema ${name}`);
    keep.add(name);
    for (const ref of references(s)) visit(ref);
  };
  for (const name of Object.keys(config.types)) visit(name);
  const names = [...keep].sort();
  const protobuf: UpstreamFacts['protobuf'] = {};
  for (const name of names) {
    if (fields[name] === undefined) throw new SchemaGenError(`no protobuf message for ${name}`);
    protobuf[name] = fields[name];
  }
  return {
    source: {
      repository: 'kubernetes/kubernetes',
      openapi: { path: openapi.path, commit: openapi.commit },
      protobuf: protos.map((p) => ({ path: p.path, commit: p.commit })),
      reduction:
        'components.schemas reachable from the generated types, every description removed; protobuf field numbers and labels of the same messages',
    },
    schemas: Object.fromEntries(names.map((n) => [n, withoutDescriptions(all[n])])),
    protobuf,
  };
}

/** `<file>@<commit>`: the file's text and its repository path (from `api/` or `staging/`). */
function upstreamFile(arg: string): UpstreamFile {
  const at = arg.lastIndexOf('@');
  if (at < 0) throw new SchemaGenError(`${arg}: expected <file>@<commit>`);
  const file = arg.slice(0, at);
  const match = /(?:^|\/)((?:api|staging)\/.*)$/.exec(file);
  return { text: readFileSync(file, 'utf8'), path: match ? match[1] : file, commit: arg.slice(at + 1) };
}

function main(args: string[]): number {
  const name = args.find((a) => !a.startsWith('--'));
  const config = name === undefined ? undefined : MODULES[name];
  const value = (flag: string) => args.filter((a) => a.startsWith(`--${flag}=`)).map((a) => a.slice(flag.length + 3));
  const [openapi] = value('openapi');
  if (config === undefined || openapi === undefined || value('proto').length === 0) {
    process.stderr.write(
      'usage: reduce-upstream.ts rbac-standalone --openapi=<file>@<commit> --proto=<file>@<commit>... [--out=<file>]\n',
    );
    return 2;
  }
  const facts = reduceUpstream(config, upstreamFile(openapi), value('proto').map(upstreamFile));
  const out = value('out')[0] ?? join(ROOT, config.facts);
  writeFileSync(out, `${JSON.stringify(facts, null, 2)}\n`);
  process.stdout.write(`wrote ${out}\n`);
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (err) {
  if (!(err instanceof SchemaGenError)) throw err;
  process.stderr.write(`schema-gen: ${err.message}\n`);
  process.exitCode = 1;
}
