import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { formatModule } from '../schema-gen/format-module.js';
import { NameMappingError, nameExpression } from './name-expression.js';

/**
 * Writes src/apis/rbac/default-policy.generated.ts from the facts in this folder (kube-apiserver
 * v1.32's default cluster roles and bindings, and the roles and bindings of the system and public
 * namespaces, in kube's names), every domain-derived name built from an injected ApiDomain.
 *
 *   npx tsx scripts/rbac-defaults/generate.ts            write the module
 *   npx tsx scripts/rbac-defaults/generate.ts --check    exit 1 if the committed module differs
 *   npx tsx scripts/rbac-defaults/generate.ts --stdout   print the module instead of writing it
 *   --facts=<dir>                                        read the facts from another folder
 */
const ROOT = join(import.meta.dirname, '..', '..');
const OUTPUT = join('src', 'apis', 'rbac', 'default-policy.generated.ts');

const ROLE_FILES = ['cluster-roles.yaml', 'controller-roles.yaml'];
const BINDING_FILES = ['cluster-role-bindings.yaml', 'controller-role-bindings.yaml'];
const NAMESPACE_ROLE_FILES = ['namespace-roles.yaml'];
const NAMESPACE_BINDING_FILES = ['namespace-role-bindings.yaml'];
const RULE_FIELDS = ['apiGroups', 'resources', 'resourceNames', 'nonResourceURLs', 'verbs'];

class FactsError extends Error {}

type Facts = Record<string, unknown>;

function list(dir: string, file: string): Facts[] {
  const text = readFileSync(join(dir, file), 'utf8');
  const data = parse(text) as unknown;
  if (!Array.isArray(data)) throw new FactsError(`${file}: expected a list`);
  return data.map((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw new FactsError(`${file}[${i}]: expected a mapping`);
    }
    return item as Facts;
  });
}

function strings(where: string, v: unknown): string[] {
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) throw new FactsError(`${where}: expected strings`);
  return v as string[];
}

function name(where: string, v: unknown): string {
  if (typeof v !== 'string') throw new FactsError(`${where}: expected a string`);
  try {
    return nameExpression(v);
  } catch (e) {
    if (e instanceof NameMappingError) throw new FactsError(`${where}: ${e.message}`);
    throw e;
  }
}

function renderRule(where: string, rule: unknown): string {
  if (rule === null || typeof rule !== 'object') throw new FactsError(`${where}: expected a rule`);
  const r = rule as Facts;
  for (const k of Object.keys(r)) if (!RULE_FIELDS.includes(k)) throw new FactsError(`${where}.${k}: unknown field`);
  const fields = RULE_FIELDS.filter((k) => r[k] !== undefined).map(
    (k) =>
      `${k}: [${strings(`${where}.${k}`, r[k])
        .map((s, i) => name(`${where}.${k}[${i}]`, s))
        .join(', ')}]`,
  );
  return `{ ${fields.join(', ')} }`;
}

/** The `namespace` of a namespaced default object (required there, refused elsewhere). */
function namespaceOf(where: string, facts: Facts, namespaced: boolean): string[] {
  if (!namespaced) return [];
  if (typeof facts.namespace !== 'string') throw new FactsError(`${where}.namespace: expected a string`);
  return [`namespace: ${name(`${where}.namespace`, facts.namespace)}`];
}

function renderRole(file: string, i: number, role: Facts, namespaced = false): string {
  const where = `${file}[${i}]`;
  const known = namespaced ? ['name', 'namespace', 'rules'] : ['name', 'labels', 'aggregateFrom', 'rules'];
  for (const k of Object.keys(role)) {
    if (!known.includes(k)) throw new FactsError(`${where}.${k}: unknown field`);
  }
  const out = [`name: ${name(`${where}.name`, role.name)}`, ...namespaceOf(where, role, namespaced)];
  if (role.labels !== undefined) {
    const labels = role.labels as Record<string, unknown>;
    const entries = Object.entries(labels).map(([k, v]) => {
      if (typeof v !== 'string') throw new FactsError(`${where}.labels.${k}: expected a string`);
      return `[${name(`${where}.labels`, k)}]: ${name(`${where}.labels.${k}`, v)}`;
    });
    out.push(`labels: { ${entries.join(', ')} }`);
  }
  if (role.aggregateFrom !== undefined)
    out.push(`aggregateFrom: ${name(`${where}.aggregateFrom`, role.aggregateFrom)}`);
  if (role.rules !== undefined) {
    if (!Array.isArray(role.rules)) throw new FactsError(`${where}.rules: expected a list`);
    out.push(`rules: [${role.rules.map((r, j) => renderRule(`${where}.rules[${j}]`, r)).join(', ')}]`);
  }
  return `{ ${out.join(', ')} }`;
}

const SUBJECT = /^(User|Group|ServiceAccount) (?:([^/ ]+)\/)?([^/ ]+)$/;

function renderBinding(file: string, i: number, binding: Facts, namespaced = false): string {
  const where = `${file}[${i}]`;
  const known = namespaced ? ['name', 'role', 'namespace', 'subjects'] : ['role', 'subjects'];
  for (const k of Object.keys(binding)) {
    if (!known.includes(k)) throw new FactsError(`${where}.${k}: unknown field`);
  }
  const subjects = strings(`${where}.subjects`, binding.subjects ?? []).map((s, j) => {
    const m = SUBJECT.exec(s);
    const [, kind, namespace, subjectName] = m ?? [];
    if (!m || (kind === 'ServiceAccount') !== (namespace !== undefined)) {
      throw new FactsError(`${where}.subjects[${j}]: expected "User name", "Group name" or "ServiceAccount ns/name"`);
    }
    const ns = namespace === undefined ? '' : `, namespace: ${name(`${where}.subjects[${j}]`, namespace)}`;
    return `{ kind: '${kind}', name: ${name(`${where}.subjects[${j}]`, subjectName)}${ns} }`;
  });
  const bindingName = binding.name === undefined ? [] : [`name: ${name(`${where}.name`, binding.name)}`];
  const fields = [
    ...bindingName,
    `role: ${name(`${where}.role`, binding.role)}`,
    ...namespaceOf(where, binding, namespaced),
    `subjects: [${subjects.join(', ')}]`,
  ];
  return `{ ${fields.join(', ')} }`;
}

/** The module source, unformatted. */
function render(dir: string): string {
  const roles = ROLE_FILES.flatMap((f) => list(dir, f).map((r, i) => renderRole(f, i, r)));
  const bindings = BINDING_FILES.flatMap((f) => list(dir, f).map((b, i) => renderBinding(f, i, b)));
  const namespaceRoles = NAMESPACE_ROLE_FILES.flatMap((f) => list(dir, f).map((r, i) => renderRole(f, i, r, true)));
  const namespaceBindings = NAMESPACE_BINDING_FILES.flatMap((f) =>
    list(dir, f).map((b, i) => renderBinding(f, i, b, true)),
  );
  return `// Generated by scripts/rbac-defaults/generate.ts from scripts/rbac-defaults/*.yaml; do not edit.
import type { ApiDomain } from '../api-domain.js';
import type { DefaultBindingFacts, DefaultRoleFacts } from './default-policy-facts.js';

/** kube-apiserver v1.32's default ClusterRoles and the in-process controllers' roles, named through \`d\`. */
export function defaultClusterRoleFacts(d: ApiDomain): DefaultRoleFacts[] {
  return [${roles.join(',\n')}];
}

/** The default ClusterRoleBindings (each named after its ClusterRole), named through \`d\`. */
export function defaultClusterRoleBindingFacts(d: ApiDomain): DefaultBindingFacts[] {
  return [${bindings.join(',\n')}];
}

/** kube-apiserver v1.32's default Roles of the system and public namespaces, named through \`d\`. */
export function defaultRoleFacts(d: ApiDomain): DefaultRoleFacts[] {
  return [${namespaceRoles.join(',\n')}];
}

/** The default RoleBindings (each binding a Role of its namespace), named through \`d\`. */
export function defaultRoleBindingFacts(d: ApiDomain): DefaultBindingFacts[] {
  return [${namespaceBindings.join(',\n')}];
}
`;
}

/** The formatted module, as the generator writes it. */
export function generateModule(dir = import.meta.dirname): string {
  return formatModule(ROOT, OUTPUT, render(dir));
}

function main(args: string[]): number {
  const factsArg = args.find((a) => a.startsWith('--facts='));
  const dir = factsArg ? factsArg.slice('--facts='.length) : import.meta.dirname;
  try {
    const source = generateModule(dir);
    if (args.includes('--stdout')) process.stdout.write(source);
    else if (args.includes('--check')) {
      if (readFileSync(join(ROOT, OUTPUT), 'utf8') !== source) {
        process.stderr.write(`${OUTPUT} differs from what the facts generate\n`);
        return 1;
      }
    } else writeFileSync(join(ROOT, OUTPUT), source);
    return 0;
  } catch (e) {
    if (e instanceof FactsError || e instanceof NameMappingError) {
      process.stderr.write(`rbac-defaults: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  process.exitCode = main(process.argv.slice(2));
}
