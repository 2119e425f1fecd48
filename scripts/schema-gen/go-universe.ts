import { spawnSync } from 'node:child_process';
import { SchemaGenError } from './facts.js';
import { type GoConst, type GoFile, type GoTypeDecl, parseGoFile } from './go-source.js';
import { commentTags, singleTag } from './go-tags.js';

/**
 * Go packages read from git mirrors of kube's staging repositories at one tag: `k8s.io/api/...`
 * from a kubernetes/api mirror, `k8s.io/apimachinery/...` from a kubernetes/apimachinery
 * mirror. Packages are parsed on first use and kept by the universe (one per reduction).
 */

/** One source repository: a Go module's mirror and the tag to read. */
export interface GoSourceRepo {
  /** Go module path (`k8s.io/api`). */
  readonly module: string;
  /** GitHub repository it mirrors (`kubernetes/api`), recorded as provenance. */
  readonly repository: string;
  /** The mirror's git directory. */
  readonly gitDir: string;
  readonly tag: string;
}

/** Reads files of a repository at its tag (replaceable in tests). */
export interface GoSourceReader {
  /** File names (not paths) in `dir` at the tag. */
  list(repo: GoSourceRepo, dir: string): string[];
  read(repo: GoSourceRepo, path: string): string;
  commit(repo: GoSourceRepo): string;
}

function git(repo: GoSourceRepo, args: string[]): string {
  const r = spawnSync('git', ['-C', repo.gitDir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new SchemaGenError(`git ${args.join(' ')} in ${repo.repository}: ${r.stderr.trim()}`);
  return r.stdout;
}

/** Reads through `git -C <mirror> ls-tree / show / rev-parse`. */
export const gitReader: GoSourceReader = {
  list: (repo, dir) =>
    git(repo, ['ls-tree', '--name-only', `${repo.tag}:${dir}`])
      .split('\n')
      .filter((l) => l !== ''),
  read: (repo, path) => git(repo, ['show', `${repo.tag}:${path}`]),
  commit: (repo) => git(repo, ['rev-parse', `${repo.tag}^{commit}`]).trim(),
};

export interface GoPackage {
  /** Go import path (`k8s.io/api/core/v1`). */
  readonly importPath: string;
  readonly repo: GoSourceRepo;
  /** Repository paths of the files read. */
  readonly paths: readonly string[];
  /** API group: `+groupName=` in the package comment, else the `GroupName` constant (`''` for core). */
  readonly groupName: string | undefined;
  readonly types: ReadonlyMap<string, { readonly decl: GoTypeDecl; readonly file: GoFile }>;
  readonly consts: readonly GoConst[];
}

/** Files that hold no API declarations: tests and generated code. */
function isSourceFile(name: string): boolean {
  return (
    name.endsWith('.go') &&
    !name.endsWith('_test.go') &&
    !name.startsWith('zz_generated') &&
    !name.endsWith('.pb.go') &&
    !name.endsWith('_generated.go')
  );
}

export class GoUniverse {
  private readonly packages = new Map<string, GoPackage>();

  constructor(
    readonly repos: readonly GoSourceRepo[],
    readonly reader: GoSourceReader = gitReader,
  ) {}

  /** The repository holding `importPath`. */
  repoOf(importPath: string): GoSourceRepo {
    const repo = this.repos.find((r) => importPath === r.module || importPath.startsWith(`${r.module}/`));
    if (!repo) throw new SchemaGenError(`no source repository for Go package ${importPath}`);
    return repo;
  }

  /** The parsed package at `importPath` (every non-test, non-generated `.go` file of its folder). */
  package(importPath: string): GoPackage {
    const known = this.packages.get(importPath);
    if (known) return known;
    const repo = this.repoOf(importPath);
    const dir = importPath.slice(repo.module.length + 1);
    const paths = this.reader
      .list(repo, dir)
      .filter(isSourceFile)
      .map((name) => `${dir}/${name}`)
      .sort();
    if (paths.length === 0) throw new SchemaGenError(`${repo.repository}@${repo.tag}: no Go files in ${dir}`);
    const files = paths.map((p) => parseGoFile(this.reader.read(repo, p), p));
    const types = new Map<string, { decl: GoTypeDecl; file: GoFile }>();
    for (const file of files) {
      for (const decl of file.types) {
        if (types.has(decl.name)) throw new SchemaGenError(`${file.path}:${decl.line}: ${decl.name} declared twice`);
        types.set(decl.name, { decl, file });
      }
    }
    let groupName: string | undefined;
    for (const file of files) {
      const g = singleTag(commentTags(file.packageComments), 'groupName', file.path);
      if (g !== undefined) groupName = g;
    }
    const consts = files.flatMap((f) => f.consts);
    groupName ??= consts.find((c) => c.name === 'GroupName')?.value;
    const pkg: GoPackage = { importPath, repo, paths, groupName, types, consts };
    this.packages.set(importPath, pkg);
    return pkg;
  }

  /** Every package parsed so far, by import path. */
  loaded(): GoPackage[] {
    return [...this.packages.values()];
  }
}

/** `k8s.io/api/core/v1` + `Pod` → `io.k8s.api.core.v1.Pod` (kube's OpenAPI definition name). */
export function definitionName(importPath: string, name: string): string {
  const [host, ...rest] = importPath.split('/');
  return [...host.split('.').reverse(), ...rest, name].join('.');
}
