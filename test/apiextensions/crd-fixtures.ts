import assert from 'node:assert/strict';
import type { apiOf } from '../support/api.js';

/** What the tests talk to: a request helper as the admin. */
export type AdminApi = ReturnType<typeof apiOf>['admin'];

/** The CRD API of a domain profile (`apiextensions.orch.io` / `apiextensions.k8s.io`). */
export function crdPath(domain = 'orch.io', name?: string): string {
  return `/apis/apiextensions.${domain}/v1/customresourcedefinitions${name ? `/${name}` : ''}`;
}

/** The schema of the test kinds: spec with defaults, a list map, a set, an atomic map and status. */
export const WIDGET_SCHEMA = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', default: 1, minimum: 0 },
        color: { type: 'string', enum: ['red', 'green', 'blue'] },
        size: { type: 'string', maxLength: 5 },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string' }, port: { type: 'integer' } },
          },
        },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        config: { type: 'object', 'x-kubernetes-map-type': 'atomic', additionalProperties: { type: 'string' } },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
    status: {
      type: 'object',
      properties: { replicas: { type: 'integer' }, selector: { type: 'string' }, phase: { type: 'string' } },
    },
  },
};

export interface CrdOptions {
  readonly group?: string;
  readonly plural?: string;
  readonly kind?: string;
  readonly scope?: 'Namespaced' | 'Cluster';
  readonly shortNames?: string[];
  /** Versions; default one `v1` with the widget schema, status and scale sub-resources and columns. */
  readonly versions?: object[];
  readonly domain?: string;
}

/** A `v1` version with the widget schema, status and scale sub-resources, printer columns and a selectable field. */
export function widgetVersion(name = 'v1', extra: object = {}): object {
  return structuredClone({
    name,
    served: true,
    storage: true,
    schema: { openAPIV3Schema: WIDGET_SCHEMA },
    subresources: {
      status: {},
      scale: {
        specReplicasPath: '.spec.replicas',
        statusReplicasPath: '.status.replicas',
        labelSelectorPath: '.status.selector',
      },
    },
    additionalPrinterColumns: [
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'Color', type: 'string', jsonPath: '.spec.color', description: 'The color' },
      { name: 'Phase', type: 'string', jsonPath: '.status.phase', priority: 1 },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
    selectableFields: [{ jsonPath: '.spec.color' }],
    ...extra,
  });
}

/** A CRD manifest (widgets.example.com by default). */
export function crdManifest(o: CrdOptions = {}): object {
  const group = o.group ?? 'example.com';
  const plural = o.plural ?? 'widgets';
  return structuredClone({
    apiVersion: `apiextensions.${o.domain ?? 'orch.io'}/v1`,
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: o.scope ?? 'Namespaced',
      names: { plural, kind: o.kind ?? 'Widget', ...(o.shortNames ? { shortNames: o.shortNames } : {}) },
      versions: o.versions ?? [widgetVersion()],
    },
  });
}

/** Polls `check` every 20 ms until it returns a value (not undefined), failing after `timeoutMs`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

/** Creates a CRD and waits until it is Established and its first version is discoverable. */
export async function createEstablished(api: AdminApi, manifest: Json, domain = 'orch.io'): Promise<Json> {
  const r = await api('POST', crdPath(domain), { body: manifest });
  assert.equal(r.status, 201, r.text);
  const name = manifest.metadata.name;
  const crd = await eventually(`${name} established`, async () => {
    const g = (await api('GET', crdPath(domain, name))).json();
    return g.status?.conditions?.some((c: Json) => c.type === 'Established' && c.status === 'True') ? g : undefined;
  });
  const served = manifest.spec.versions.find((v: Json) => v.served).name;
  await eventually(`${name} served`, async () =>
    (await api('GET', `/apis/${manifest.spec.group}/${served}`)).status === 200 ? true : undefined,
  );
  return crd;
}
