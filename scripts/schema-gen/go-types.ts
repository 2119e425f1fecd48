import { SchemaGenError } from './facts.js';
import type { GoField, GoFile, GoType, GoTypeDecl } from './go-source.js';
import { definitionName, type GoPackage, type GoUniverse } from './go-universe.js';

/**
 * Go types resolved across packages, in the shape kube's gengo gives openapi-gen: builtins,
 * named non-struct types ("aliases" in gengo: `type Protocol string`), named structs, pointers,
 * slices, maps, and apimachinery's special types that define their own OpenAPI schema and JSON
 * form (Time, Quantity, IntOrString...), which are referenced but never read.
 */

/** Where a type expression appears: its package and file (for import names). */
export interface GoScope {
  readonly pkg: GoPackage;
  readonly file: GoFile;
}

export type TypeNode =
  | { readonly k: 'builtin'; readonly name: string }
  | { readonly k: 'alias'; readonly def: string; readonly decl: GoTypeDecl; readonly scope: GoScope }
  | { readonly k: 'struct'; readonly def: string; readonly decl: GoTypeDecl; readonly scope: GoScope }
  | { readonly k: 'special'; readonly def: string; readonly importPath: string; readonly name: string }
  | { readonly k: 'pointer' | 'slice' | 'array'; readonly elem: TypeNode }
  | { readonly k: 'map'; readonly key: TypeNode; readonly value: TypeNode }
  | { readonly k: 'interface' };

const BUILTINS = new Set([
  'string',
  'bool',
  'byte',
  'rune',
  'int',
  'int8',
  'int16',
  'int32',
  'int64',
  'uint',
  'uint8',
  'uint16',
  'uint32',
  'uint64',
  'float32',
  'float64',
]);

/**
 * apimachinery types with their own `OpenAPIDefinition` and `UnmarshalJSON`: openapi-gen refers
 * to them by name and gives them no zero-value default.
 */
const SPECIAL = new Set([
  'k8s.io/apimachinery/pkg/apis/meta/v1.Time',
  'k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime',
  'k8s.io/apimachinery/pkg/apis/meta/v1.Duration',
  'k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1',
  'k8s.io/apimachinery/pkg/api/resource.Quantity',
  'k8s.io/apimachinery/pkg/util/intstr.IntOrString',
  'k8s.io/apimachinery/pkg/runtime.RawExtension',
]);

/** Resolves type expressions of parsed packages to {@link TypeNode}s. */
export class TypeResolver {
  constructor(private readonly universe: GoUniverse) {}

  /** The node of `t` as written in `scope`; `where` names the field for errors. */
  node(t: GoType, scope: GoScope, where: string): TypeNode {
    switch (t.kind) {
      case 'pointer':
      case 'slice':
      case 'array':
        return { k: t.kind, elem: this.node(t.elem, scope, where) };
      case 'map':
        return { k: 'map', key: this.node(t.key, scope, where), value: this.node(t.value, scope, where) };
      case 'interface':
        return { k: 'interface' };
      case 'struct':
        throw new SchemaGenError(`${where}: anonymous struct types are not supported`);
      case 'func':
        throw new SchemaGenError(`${where}: function types have no schema`);
      case 'name':
        return this.named(t.pkg, t.name, scope, where);
    }
  }

  /** The named type `pkg.name` (or `name`) as seen from `scope`. */
  named(pkgName: string | undefined, name: string, scope: GoScope, where: string): TypeNode {
    if (pkgName === undefined && BUILTINS.has(name)) return { k: 'builtin', name };
    let importPath = scope.pkg.importPath;
    if (pkgName !== undefined) {
      const imported = scope.file.imports.get(pkgName);
      if (imported === undefined) throw new SchemaGenError(`${where}: ${pkgName}.${name}: ${pkgName} is not imported`);
      importPath = imported;
    }
    return this.declared(pkgName === undefined ? scope.pkg : importPath, name, where);
  }

  /** The type `name` declared in package `pkg` (parsed, or its import path). */
  declared(pkg: GoPackage | string, name: string, where: string): TypeNode {
    const importPath = typeof pkg === 'string' ? pkg : pkg.importPath;
    const def = definitionName(importPath, name);
    if (SPECIAL.has(`${importPath}.${name}`)) return { k: 'special', def, importPath, name };
    if (typeof pkg === 'string') return this.declared(this.universe.package(pkg), name, where);
    const found = pkg.types.get(name);
    if (!found) throw new SchemaGenError(`${where}: no type ${name} in ${importPath}`);
    const declScope = { pkg, file: found.file };
    if (found.decl.type.kind === 'struct') return { k: 'struct', def, decl: found.decl, scope: declScope };
    return { k: 'alias', def, decl: found.decl, scope: declScope };
  }

  /** The type an alias stands for. */
  underlying(n: TypeNode & { k: 'alias' }): TypeNode {
    return this.node(n.decl.type, n.scope, n.def);
  }

  /** The fields of a named struct. */
  fields(n: TypeNode & { k: 'struct' }): readonly GoField[] {
    return (n.decl.type as { fields: readonly GoField[] }).fields;
  }

  /** gengo's `resolveAliasAndPtrType`: through pointers and named non-struct types. */
  resolve(n: TypeNode): TypeNode {
    let t = n;
    for (;;) {
      if (t.k === 'pointer') t = t.elem;
      else if (t.k === 'alias') t = this.underlying(t);
      else return t;
    }
  }

  /** The comment lines gengo attaches to a type (its declaration's doc; none for unnamed types). */
  comments(n: TypeNode): readonly string[] {
    return n.k === 'alias' || n.k === 'struct' ? n.decl.comments : [];
  }

  /** The package a node's comments belong to (for `ref(...)` defaults), if named. */
  packageOf(n: TypeNode): GoPackage | undefined {
    return n.k === 'alias' || n.k === 'struct' ? n.scope.pkg : undefined;
  }
}

/** gengo's name of a resolved type for `OpenAPITypeFormat` (`string`, `[]byte`, ...). */
export function simpleTypeName(n: TypeNode): string | undefined {
  if (n.k === 'builtin') return n.name;
  if (n.k === 'slice' && n.elem.k === 'builtin' && (n.elem.name === 'byte' || n.elem.name === 'uint8')) return '[]byte';
  if (n.k === 'interface') return 'interface{}';
  return undefined;
}

/** kube-openapi's `OpenAPITypeFormat` and zero values for the simple types. */
const TYPE_FORMAT: Readonly<Record<string, readonly [string, string, unknown]>> = {
  uint: ['integer', 'int32', 0],
  uint8: ['integer', 'byte', 0],
  uint16: ['integer', 'int32', 0],
  uint32: ['integer', 'int64', 0],
  uint64: ['integer', 'int64', 0],
  int: ['integer', 'int32', 0],
  int8: ['integer', 'byte', 0],
  int16: ['integer', 'int32', 0],
  int32: ['integer', 'int32', 0],
  int64: ['integer', 'int64', 0],
  byte: ['integer', 'byte', 0],
  float64: ['number', 'double', 0],
  float32: ['number', 'float', 0],
  bool: ['boolean', '', false],
  string: ['string', '', ''],
  '[]byte': ['string', 'byte', ''],
  'interface{}': ['object', '', null],
};

/** `[type, format, zero]` of a simple type, if it is one. */
export function typeFormat(n: TypeNode): readonly [string, string, unknown] | undefined {
  const name = simpleTypeName(n);
  return name === undefined ? undefined : TYPE_FORMAT[name];
}

/** The protobuf type name go-to-protobuf gives a value of `n` in messages of package `own`. */
export function protoTypeName(r: TypeResolver, n: TypeNode, own: GoPackage, where: string): string {
  const t = n.k === 'pointer' ? r.resolve(n) : n;
  if (t.k === 'alias') {
    const u = r.underlying(t);
    // A named slice used as a map value is its own message (apimachinery's ExtraValue pattern).
    if (u.k === 'slice' && simpleTypeName(u) !== '[]byte') return messageName(t.def, t.scope.pkg, own);
    return protoTypeName(r, u, own, where);
  }
  const simple = simpleTypeName(t);
  if (simple !== undefined) {
    const scalar: Record<string, string> = {
      string: 'string',
      bool: 'bool',
      int32: 'int32',
      int64: 'int64',
      int: 'int64',
      float64: 'double',
      float32: 'float',
      '[]byte': 'bytes',
    };
    if (scalar[simple]) return scalar[simple];
    throw new SchemaGenError(`${where}: no protobuf type for ${simple}`);
  }
  switch (t.k) {
    case 'struct':
      return messageName(t.def, t.scope.pkg, own);
    case 'special':
      return t.importPath === own.importPath ? t.name : `${t.importPath.replaceAll('/', '.')}.${t.name}`;
    case 'slice':
      return protoTypeName(r, t.elem, own, where);
    case 'map':
      return `map<${protoTypeName(r, t.key, own, where)}, ${protoTypeName(r, t.value, own, where)}>`;
    default:
      throw new SchemaGenError(`${where}: no protobuf type for a ${t.k}`);
  }
}

function messageName(def: string, pkg: GoPackage, own: GoPackage): string {
  const short = def.slice(def.lastIndexOf('.') + 1);
  return pkg === own ? short : `${pkg.importPath.replaceAll('/', '.')}.${short}`;
}
