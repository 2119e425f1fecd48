/**
 * What kube's typed decoding does to `resource.Quantity` fields, done on JSON objects by their
 * schema: numbers are accepted, every quantity is written back in its canonical form (`0.5` →
 * `500m`, `1024Mi` → `1Gi`), and a malformed one fails the request like a decoding error (400).
 * Also the schema built-in kinds validate with: kube checks them with Go validation, not with
 * their published `required` and `enum` lists.
 */
import { QuantityError } from '../../util/go-quantity.js';
import { apiErrors } from '../meta/status.js';
import type { ApiObject } from '../object.js';
import { canonicalizeQuantitiesIn } from '../schema/quantities.js';
import type { Schema } from '../schema/schema.js';

/**
 * Rewrites every quantity of `obj` (found through `schema`) in canonical form. Mutates.
 *
 * @throws StatusError 400 `<Kind> in version "<v>" cannot be handled as a <Kind>: quantities must
 *   match the regular expression ...` for a malformed quantity.
 */
export function canonicalizeQuantities(schema: Schema, obj: ApiObject): void {
  try {
    canonicalizeQuantitiesIn(schema, obj);
  } catch (e) {
    if (!(e instanceof QuantityError)) throw e;
    const version = obj.apiVersion.includes('/')
      ? obj.apiVersion.slice(obj.apiVersion.indexOf('/') + 1)
      : obj.apiVersion;
    // kube's transformDecodeError wording.
    throw apiErrors.badRequest(
      `${obj.kind} in version ${JSON.stringify(version)} cannot be handled as a ${obj.kind}: ${e.message}`,
    );
  }
}

/**
 * Rewrites every quantity of a value embedded in another kind (a workload's pod template) in
 * canonical form, found through `schema`. Mutates.
 *
 * @throws StatusError 400 `quantities must match the regular expression ...` for a malformed
 *   quantity (kube names the enclosing kind before it; the template does not know it).
 */
export function canonicalizeEmbeddedQuantities(schema: Schema, value: Record<string, unknown>): void {
  try {
    canonicalizeQuantitiesIn(schema, value);
  } catch (e) {
    if (!(e instanceof QuantityError)) throw e;
    throw apiErrors.badRequest(e.message);
  }
}
