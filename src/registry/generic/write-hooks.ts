import type { ApiObject } from '../../apis/object.js';
import type { RequestContext } from '../types.js';

/**
 * Ends what a `begin…` hook started, once the store write is known to have succeeded (`true`) or
 * not (`false`). Never throws: failures are the hook's to log (kube's repair loops fix leaks).
 */
export type WriteFinish = (success: boolean) => Promise<void>;

/**
 * Work a resource needs around its store writes for state kept outside its objects (kube's
 * `BeginCreate`, `BeginUpdate` and `AfterDelete` hooks; the Service allocators use them).
 *
 * - `beginCreate` runs after the strategy prepared and validated the new object and before
 *   validating admission and the write; it may change the object (allocated values) and throws a
 *   `StatusError` to refuse it. Its finish runs after the write.
 * - `beginUpdate` runs at the same point of each update attempt (a lost race finishes the attempt
 *   with `false` and begins the next). Writes through sub-resources pass `subresource`.
 * - `afterDelete` runs once the object is gone from the store (a delete, the last finalizer
 *   removed by an update, a collection delete), dry runs included (`dryRun` says so).
 */
export interface WriteHooks {
  beginCreate?(ctx: RequestContext, obj: ApiObject, o: { readonly dryRun: boolean }): Promise<WriteFinish>;
  beginUpdate?(
    ctx: RequestContext,
    obj: ApiObject,
    old: ApiObject,
    o: { readonly dryRun: boolean; readonly subresource?: string },
  ): Promise<WriteFinish>;
  afterDelete?(ctx: RequestContext, obj: ApiObject, o: { readonly dryRun: boolean }): Promise<void>;
}

const NOTHING: WriteFinish = async () => {};

/** Runs `write` between a begun hook and its finish (`true` when `write` resolved). */
export async function withFinish<T>(begin: Promise<WriteFinish> | undefined, write: () => Promise<T>): Promise<T> {
  const finish = (await begin) ?? NOTHING;
  let result: T;
  try {
    result = await write();
  } catch (e) {
    await finish(false);
    throw e;
  }
  await finish(true);
  return result;
}
