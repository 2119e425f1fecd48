import type { Environment } from '@marcbachmann/cel-js';

/**
 * One CEL library (lists, quantity, url, ...): registers its types, functions and member
 * overloads, with kube-apiserver v1.32's names, into an environment. Libraries are pure: no I/O
 * (the authorizer library's checks go through the `Authorizer` seam it is given).
 */
export interface CelLibrary {
  /** kube's library name, e.g. `kubernetes.lists`. */
  readonly name: string;
  register(env: Environment): void;
}
