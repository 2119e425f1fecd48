import type { Subject } from '../../apis/rbac/rbac-types.js';
import { goQuote } from '../../util/go-strconv.js';

/** Service-account users are `system:serviceaccount:<namespace>:<name>`. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/**
 * The index key a subject grants to: `u:<user name>` for users and service accounts (whose
 * namespace defaults to the binding's), `g:<group>` for groups; undefined for unknown kinds,
 * which grant nothing.
 */
export function subjectKey(subject: Subject, bindingNamespace: string): string | undefined {
  switch (subject.kind) {
    case 'User':
      return `u:${subject.name}`;
    case 'Group':
      return `g:${subject.name}`;
    case 'ServiceAccount': {
      const ns = subject.namespace || bindingNamespace;
      return ns ? `u:${serviceAccountUsername(ns, subject.name)}` : undefined;
    }
    default:
      return undefined;
  }
}

/** kube-apiserver's description of a subject in an RBAC reason: `User "alice"`, `ServiceAccount "x/ns"`. */
export function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === 'ServiceAccount') {
    return `${subject.kind} ${goQuote(`${subject.name}/${subject.namespace || bindingNamespace}`)}`;
  }
  return `${subject.kind} ${goQuote(subject.name)}`;
}
