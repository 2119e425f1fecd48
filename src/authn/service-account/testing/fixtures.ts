import { generateKeyPairSync } from 'node:crypto';
import type { ApiObject } from '../../../apis/object.js';
import type { Clock } from '../../../util/clock.js';
import type { ObjectReader, ResourceRef } from '../../object-reader.js';
import { parseSigningKey, type SigningKey } from '../service-account-keys.js';

/** Live objects for the authenticator and TokenRequest, held in a table tests edit. */
export interface TableObjectReader extends ObjectReader {
  put(resource: string, obj: ApiObject): void;
  remove(resource: string, namespace: string, name: string): void;
  /** Number of reads so far. */
  readonly reads: number;
}

export function tableObjectReader(): TableObjectReader {
  const objects = new Map<string, ApiObject>();
  const key = (resource: string, namespace: string, name: string) => `${resource}/${namespace}/${name}`;
  let reads = 0;
  return {
    async get(ref: ResourceRef, namespace: string, name: string) {
      reads++;
      const obj = objects.get(key(ref.resource, namespace, name));
      return obj ? structuredClone(obj) : undefined;
    },
    put(resource, obj) {
      objects.set(key(resource, obj.metadata.namespace ?? '', obj.metadata.name ?? ''), obj);
    },
    remove(resource, namespace, name) {
      objects.delete(key(resource, namespace, name));
    },
    get reads() {
      return reads;
    },
  };
}

/** A clock tests move by hand. */
export interface ManualClock extends Clock {
  set(d: Date): void;
  advance(ms: number): void;
}

export function manualClock(start = new Date('2026-01-01T00:00:00Z')): ManualClock {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    set(d) {
      now = d.getTime();
    },
    advance(ms) {
      now += ms;
    },
  };
}

/** A fresh signing key: EC P-256 (ES256) by default, or RSA 2048 (RS256). */
export function newSigningKey(type: 'ec' | 'rsa' = 'ec'): SigningKey {
  const pem =
    type === 'ec'
      ? generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' })
      : generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' });
  return parseSigningKey(pem as string);
}

/** A ServiceAccount, Secret or other object with a name, namespace and uid. */
export function object(kind: string, namespace: string, name: string, uid: string, extra: object = {}): ApiObject {
  return { apiVersion: 'v1', kind, metadata: { name, namespace, uid }, ...extra } as ApiObject;
}
