/** Shared pieces of the conversion test table: the case type, object builders and the names a domain gives. */
import type { ApiDomain } from '../../api-domain.js';
import type { ApiObject } from '../../object.js';

export interface ConversionCase {
  readonly name: string;
  readonly input: ApiObject;
  /** `--output-version`; the kind's preferred version when absent. */
  readonly target?: string;
  readonly expected: ApiObject;
  readonly served: boolean;
}

export type Json = Record<string, unknown>;

export const podTemplate = (labels: Record<string, string>): Json => ({
  metadata: { labels },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});

/** An object; an empty `name` leaves metadata empty, as access reviews require. */
export function obj(apiVersion: string, kind: string, name: string, body: Json, namespace?: string): ApiObject {
  const metadata = name === '' ? {} : namespace ? { name, namespace } : { name };
  return { apiVersion, kind, metadata, ...body };
}

/** What every case file uses: group names, keys and a few shared values. */
export interface CaseContext {
  readonly g: (base: string) => string;
  readonly ns: string;
  readonly app: Record<string, string>;
  readonly zoneKey: string;
  readonly hostKey: string;
  readonly pdbKey: string;
  readonly hpaMetric: (n: number) => Json;
  readonly ref: Json;
  readonly schema: Json;
  readonly csrRequest: string;
}

export function caseContext(d: ApiDomain, csrRequest: string): CaseContext {
  return {
    g: (base) => d.group(base),
    ns: 'default',
    app: { app: 'web' },
    zoneKey: d.key('topology', 'zone'),
    hostKey: d.key('', 'hostname'),
    pdbKey: d.key('pdb', 'deprecated-v1beta1-empty-selector-match'),
    hpaMetric: (n) => ({
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: n } },
    }),
    ref: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    schema: {
      openAPIV3Schema: {
        type: 'object',
        properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
      },
    },
    csrRequest,
  };
}
