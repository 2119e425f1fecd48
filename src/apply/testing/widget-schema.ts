import { objectMetaField } from '../../apis/meta/object-meta-schema.js';
import { apiVersionField, kindField } from '../../apis/meta/type-meta-fields.js';
import type { Schema } from '../../apis/schema/schema.js';

/**
 * A test kind (`example.orch.io/v1` `Widget`) exercising every merge marker: a two-key list map
 * with a key default, a list map declared only by patch strategy, a set, an atomic list, atomic and
 * granular maps, an atomic struct, a struct with unknown fields, and a status.
 */
const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };

const portSchema: Schema = {
  type: 'object',
  properties: { containerPort: int, protocol: { type: 'string', default: 'TCP' }, name: str },
};

const envSchema: Schema = {
  type: 'object',
  properties: { name: str, value: str },
};

const containerSchema: Schema = {
  type: 'object',
  properties: {
    name: str,
    image: str,
    env: { type: 'array', items: envSchema, 'x-orch-list-type': 'map', 'x-orch-list-map-keys': ['name'] },
  },
};

export const widgetSchema: Schema = {
  type: 'object',
  properties: {
    apiVersion: apiVersionField,
    kind: kindField,
    metadata: objectMetaField(),
    spec: {
      type: 'object',
      properties: {
        replicas: int,
        image: str,
        paused: { type: 'boolean' },
        ports: {
          type: 'array',
          items: portSchema,
          'x-orch-list-type': 'map',
          'x-orch-list-map-keys': ['containerPort', 'protocol'],
        },
        containers: {
          type: 'array',
          items: containerSchema,
          'x-orch-patch-strategy': 'merge',
          'x-orch-patch-merge-key': 'name',
        },
        tags: { type: 'array', items: str, 'x-orch-list-type': 'set' },
        args: { type: 'array', items: str },
        selector: { type: 'object', additionalProperties: str, 'x-orch-map-type': 'atomic' },
        config: { type: 'object', additionalProperties: str },
        target: {
          type: 'object',
          'x-orch-map-type': 'atomic',
          properties: { kind: str, name: str },
        },
        extra: { type: 'object', 'x-orch-preserve-unknown-fields': true },
        port: { 'x-orch-int-or-string': true },
      },
    },
    status: { type: 'object', properties: { phase: str, ready: int } },
  },
};

export const WIDGET_API_VERSION = 'example.orch.io/v1';

/** A Widget with `spec` (and optionally more top-level fields), named `w` in `default`. */
export function widget(spec: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}) {
  const { metadata, ...rest } = extra as { metadata?: Record<string, unknown> };
  return {
    apiVersion: WIDGET_API_VERSION,
    kind: 'Widget',
    metadata: { name: 'w', namespace: 'default', ...(metadata ?? {}) },
    ...(spec === undefined ? {} : { spec }),
    ...rest,
  };
}
