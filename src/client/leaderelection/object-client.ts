import type { ApiObject } from '../../apis/object.js';

/**
 * The requests leader election makes on one kind of object in one namespace: read, create and
 * replace. Implemented in process over the registries (through a controller client) and over
 * HTTP; both report API failures as the `StatusError` the server answered with (404 NotFound,
 * 409 Conflict or AlreadyExists, 403 Forbidden, ...). Transport failures are other errors.
 */
export interface NamespacedObjectClient<T extends ApiObject = ApiObject> {
  readonly namespace: string;
  /** @throws StatusError 404 when the object does not exist. */
  get(name: string, signal: AbortSignal): Promise<T>;
  /** @throws StatusError 409 AlreadyExists when an object of that name exists. */
  create(obj: T, signal: AbortSignal): Promise<T>;
  /**
   * Replaces the object (PUT). `obj.metadata.resourceVersion` is the precondition: a write based
   * on an older version fails with 409 Conflict, so two writers never both succeed from the same
   * read (optimistic concurrency).
   */
  update(obj: T, signal: AbortSignal): Promise<T>;
}
