import type { ApiObject } from '../apis/object.js';

/**
 * THE SEAM for converting custom resources between the versions of their definition. A
 * definition's `spec.conversion.strategy` picks the converter: `None` rewrites `apiVersion` and
 * changes nothing else; `Webhook` sends a ConversionReview v1 to the definition's webhook (to be
 * implemented behind this interface). `objects` are never changed; the result holds one object
 * per input, in order, each in `desiredApiVersion`.
 */
export interface Converter {
  convert(objects: ApiObject[], desiredApiVersion: string, signal: AbortSignal): Promise<ApiObject[]>;
}

/** The `None` strategy (kube's nop converter): each object with `apiVersion` rewritten. */
export function noneConverter(): Converter {
  return {
    async convert(objects, desiredApiVersion) {
      return objects.map((o) => (o.apiVersion === desiredApiVersion ? o : { ...o, apiVersion: desiredApiVersion }));
    },
  };
}
