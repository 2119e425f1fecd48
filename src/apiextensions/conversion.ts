import type { ApiObject } from '../apis/object.js';

/**
 * THE SEAM for converting custom resources between the versions of their definition. A
 * definition's `spec.conversion.strategy` picks the converter: `None` rewrites `apiVersion` and
 * changes nothing else; `Webhook` sends a ConversionReview to the definition's webhook
 * (webhook-converter.ts). `objects` are never changed; the result holds one object per input,
 * in order, each in `desiredApiVersion` (objects already in it are returned as they are).
 * `opts.list` says the objects are a list's items (kube's messages then name the list kind).
 */
export interface Converter {
  convert(
    objects: readonly ApiObject[],
    desiredApiVersion: string,
    signal: AbortSignal,
    opts?: { readonly list?: boolean },
  ): Promise<ApiObject[]>;
}

/** The `None` strategy (kube's nop converter): each object with `apiVersion` rewritten. */
export function noneConverter(): Converter {
  return {
    async convert(objects, desiredApiVersion) {
      return objects.map((o) => (o.apiVersion === desiredApiVersion ? o : { ...o, apiVersion: desiredApiVersion }));
    },
  };
}
