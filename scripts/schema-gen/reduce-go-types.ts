import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SchemaGenError, type UpstreamFacts, type UpstreamSchema } from './facts.js';
import { formatModule } from './format-module.js';
import { OpenApiRules } from './go-openapi.js';
import { TypeResolver } from './go-types.js';
import { type GoSourceReader, type GoSourceRepo, GoUniverse, gitReader } from './go-universe.js';
import type { ModuleConfig } from './module-config.js';
import { MODULES, usedPackages } from './modules.js';

/**
 * Reduces the Go declarations of kube's API types to the facts the generator reads, as
 * kube-apiserver would publish them: OpenAPI v3 component schemas (openapi-gen's rules, see
 * `go-openapi.ts`) without descriptions, and the protobuf fields of the same messages (from the
 * `protobuf` struct tags), for the module's types and what they reach. Definitions of other
 * modules' packages (`uses`) and types Orch already defines (`external`) are referenced, not
 * reduced. Run it when moving to a new upstream release, with git mirrors of kubernetes/api
 * and kubernetes/apimachinery:
 *
 *   npx tsx scripts/schema-gen/reduce-go-types.ts <module|all> \
 *     --api=<kubernetes/api git dir> --apimachinery=<kubernetes/apimachinery git dir> \
 *     [--apiextensions=<kubernetes/apiextensions-apiserver git dir>] --tag=v0.32.0 [--out=<file>]
 *
 * then `generate.ts <module>`. The tag, its commit and the files read are recorded.
 */
const ROOT = join(import.meta.dirname, '..', '..');

/** `io.k8s.api.core.v1.Pod` → `k8s.io/api/core/v1` and `Pod` (the inverse of `definitionName`). */
export function goNameOf(def: string): { importPath: string; name: string } {
  const parts = def.split('.');
  if (parts.length < 4) throw new SchemaGenError(`${def}: not a kube definition name`);
  const host = `${parts[1]}.${parts[0]}`;
  return { importPath: [host, ...parts.slice(2, -1)].join('/'), name: parts[parts.length - 1] };
}

/** The module's facts from the Go sources of `universe`. */
export function reduceGoTypes(config: ModuleConfig, universe: GoUniverse): UpstreamFacts {
  const resolver = new TypeResolver(universe);
  const rules = new OpenApiRules(resolver);
  const elsewhere = usedPackages(config);
  const schemas: Record<string, UpstreamSchema> = {};
  const protobuf: UpstreamFacts['protobuf'] = {};
  const visit = (def: string, from: string): void => {
    if (def in schemas || config.external[def]) return;
    const { importPath, name } = goNameOf(def);
    if (elsewhere.has(importPath)) return;
    const node = resolver.declared(importPath, name, from);
    if (node.k === 'special') throw new SchemaGenError(`${from}: ${def} has its own JSON form; map it in "external"`);
    if (node.k !== 'struct') throw new SchemaGenError(`${from}: ${def} is not a struct`);
    const facts = rules.struct(node);
    const schema = facts.schema;
    if (facts.hasTypeMeta) {
      const group = node.scope.pkg.groupName;
      if (group === undefined) throw new SchemaGenError(`${def}: no API group for ${importPath}`);
      schema['x-kubernetes-group-version-kind'] = [
        { group, kind: name, version: importPath.slice(importPath.lastIndexOf('/') + 1) },
      ];
    }
    schemas[def] = sortKeys(schema) as UpstreamSchema;
    protobuf[def] = facts.protobuf;
    for (const [inner, fields] of Object.entries(facts.inlined)) protobuf[inner] = fields;
    for (const ref of facts.references) visit(ref, def);
  };
  for (const def of Object.keys(config.types)) visit(def, 'config');
  const names = Object.keys(schemas).sort();
  const repos = new Map<GoSourceRepo, string[]>();
  for (const pkg of universe.loaded()) repos.set(pkg.repo, [...(repos.get(pkg.repo) ?? []), ...pkg.paths]);
  return {
    source: {
      repositories: [...repos].map(([repo, paths]) => ({
        repository: repo.repository,
        tag: repo.tag,
        commit: universe.reader.commit(repo),
        paths: [...paths].sort(),
      })),
      reduction:
        'openapi-gen rules applied to the Go declarations of the generated types and what they reach; no descriptions; protobuf fields from the struct tags',
    },
    schemas: Object.fromEntries(names.map((n) => [n, schemas[n]])),
    protobuf: Object.fromEntries(
      Object.keys(protobuf)
        .sort()
        .map((n) => [n, protobuf[n]]),
    ),
  };
}

/** `v` with object keys sorted at every level (kube's documents are marshalled that way). */
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== 'object') return v;
  const obj = v as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(obj)
      .sort()
      .map((k) => [k, sortKeys(obj[k])]),
  );
}

/**
 * The repositories the built-in types come from, at `tag`: kubernetes/api and
 * kubernetes/apimachinery, and kubernetes/apiextensions-apiserver when its mirror is given.
 */
export function kubeRepos(api: string, apimachinery: string, tag: string, apiextensions?: string): GoSourceRepo[] {
  return [
    { module: 'k8s.io/api', repository: 'kubernetes/api', gitDir: api, tag },
    { module: 'k8s.io/apimachinery', repository: 'kubernetes/apimachinery', gitDir: apimachinery, tag },
    ...(apiextensions
      ? [
          {
            module: 'k8s.io/apiextensions-apiserver',
            repository: 'kubernetes/apiextensions-apiserver',
            gitDir: apiextensions,
            tag,
          },
        ]
      : []),
  ];
}

function main(args: string[], reader: GoSourceReader = gitReader): number {
  const name = args.find((a) => !a.startsWith('--'));
  const value = (flag: string) => args.find((a) => a.startsWith(`--${flag}=`))?.slice(flag.length + 3);
  const [api, apimachinery, tag] = [value('api'), value('apimachinery'), value('tag')];
  const apiextensions = value('apiextensions');
  const names = name === 'all' ? Object.keys(MODULES) : name === undefined ? [] : [name];
  if (names.length === 0 || names.some((n) => !MODULES[n]) || !api || !apimachinery || !tag) {
    process.stderr.write(
      `usage: reduce-go-types.ts <all|${Object.keys(MODULES).join('|')}> --api=<git dir> --apimachinery=<git dir> [--apiextensions=<git dir>] --tag=<tag> [--out=<file>]\n`,
    );
    return 2;
  }
  const out = value('out');
  if (out !== undefined && names.length > 1) {
    process.stderr.write('--out needs a single module\n');
    return 2;
  }
  for (const n of names) {
    const config = MODULES[n];
    const facts = reduceGoTypes(config, new GoUniverse(kubeRepos(api, apimachinery, tag, apiextensions), reader));
    const file = out ?? join(ROOT, config.facts);
    // Formatted as biome formats the committed facts, so a rerun at the same tag changes nothing.
    writeFileSync(file, formatModule(ROOT, config.facts, `${JSON.stringify(facts, null, 2)}\n`));
    process.stdout.write(`wrote ${file}\n`);
  }
  return 0;
}

if (process.argv[1] === import.meta.filename) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof SchemaGenError)) throw err;
    process.stderr.write(`schema-gen: ${err.message}\n`);
    process.exitCode = 1;
  }
}
