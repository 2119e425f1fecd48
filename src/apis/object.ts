/** Objects as the server handles them: plain JSON values shaped by their type schema. */
/** A decoded JSON value; integers beyond 2^53 are `bigint`s, which keep them exact. */
export type JsonValue = string | number | bigint | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: JsonObject[];
  [key: string]: unknown;
}

/** A served object: `apiVersion`, `kind`, `metadata`, and the kind's own fields. */
export interface ApiObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}
