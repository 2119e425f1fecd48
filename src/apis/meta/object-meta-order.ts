import type { ObjectMeta } from '../object.js';
import { objectMetaSchema } from './meta-v1-schemas.js';

/** ObjectMeta's fields in the order Go declares them (and kube serializes them). */
const FIELD_ORDER: readonly string[] = Object.keys(objectMetaSchema.properties ?? {});

/**
 * `meta` with its fields in Go's declaration order, then any others in their own order. Objects
 * reach storage through different paths (a create, an update, an apply that creates) that add
 * fields in different orders; stored in one order, an unchanged object has unchanged bytes, so
 * writing it again is recognized as a no-op.
 */
export function inObjectMetaOrder(meta: ObjectMeta): ObjectMeta {
  const out: Record<string, unknown> = {};
  const source = meta as Record<string, unknown>;
  for (const key of FIELD_ORDER) if (source[key] !== undefined) out[key] = source[key];
  for (const key of Object.keys(source)) if (!(key in out) && source[key] !== undefined) out[key] = source[key];
  return out as ObjectMeta;
}
