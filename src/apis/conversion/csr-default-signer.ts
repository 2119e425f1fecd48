/**
 * The signer certificates.<domain>/v1beta1 defaulted for a request without one, as kube's
 * v1beta1 defaulting chose it: the node-agent client signer for a node's client certificate
 * request, the node-agent serving signer for a node's serving certificate request, otherwise the
 * legacy-unknown signer. A node's request has the organization `system:nodes` only, a common name
 * `system:node:<name>`, no e-mail or URI names, and exactly the usages of its kind (with or without
 * `key encipherment`); a client request has no DNS or IP names, a serving request at least one.
 */
import type { ApiDomain } from '../api-domain.js';
import { legacyUnknownSignerName } from '../certificates/csr-validation.js';
import { x509 } from '../certificates/x509-runtime.js';

/** The subject alternative name extension's OID. */
const SUBJECT_ALT_NAME = '2.5.29.17';

interface RequestNames {
  readonly commonName: string;
  readonly organizations: readonly string[];
  readonly dns: number;
  readonly ip: number;
  readonly email: number;
  readonly uri: number;
}

function readRequest(base64: string): RequestNames | undefined {
  try {
    const pem = Buffer.from(base64, 'base64').toString('utf8');
    const req = new (x509().Pkcs10CertificateRequest)(pem);
    const ext = req.getExtension(SUBJECT_ALT_NAME);
    const san = ext ? new (x509().SubjectAlternativeNameExtension)(ext.rawData) : undefined;
    const types: string[] = (san?.names.items ?? []).map((n) => n.type);
    const count = (t: string) => types.filter((x) => x === t).length;
    return {
      commonName: req.subjectName.getField('CN')[0] ?? '',
      organizations: req.subjectName.getField('O'),
      dns: count('dns'),
      ip: count('ip'),
      email: count('email'),
      uri: count('url'),
    };
  } catch {
    return undefined;
  }
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  return sa.size === new Set(b).size && b.every((x) => sa.has(x));
}

function usagesOf(usages: readonly string[], kind: 'client auth' | 'server auth'): boolean {
  return (
    sameSet(usages, ['digital signature', 'key encipherment', kind]) || sameSet(usages, ['digital signature', kind])
  );
}

/** The v1beta1 default signer of a request (base64 PEM) with these usages. */
export function defaultV1beta1Signer(domain: ApiDomain, request: unknown, usages: readonly string[]): string {
  const legacy = legacyUnknownSignerName(domain);
  const names = typeof request === 'string' ? readRequest(request) : undefined;
  if (!names) return legacy;
  const isNode =
    names.organizations.length === 1 &&
    names.organizations[0] === 'system:nodes' &&
    names.commonName.startsWith('system:node:') &&
    names.email === 0 &&
    names.uri === 0;
  if (!isNode) return legacy;
  if (names.dns === 0 && names.ip === 0 && usagesOf(usages, 'client auth')) {
    return `${domain.key('', '')}${domain.componentName('apiserver-client-kubelet')}`;
  }
  if (names.dns + names.ip > 0 && usagesOf(usages, 'server auth')) return domain.key('', 'kubelet-serving');
  return legacy;
}
