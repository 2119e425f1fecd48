import type { Service } from '../../../apis/core/service-types.js';
import { type KeyScheme, resourcePrefix } from '../../../storage/keys.js';
import type { Store } from '../../../storage/store.js';
import { decodeStored } from '../../generic/stored-object.js';

const PAGE = 500;

/**
 * Every stored core/v1 Service, read from the store (not a watch cache, which may lag behind
 * the allocations it is compared with). Values that cannot be read are skipped (they hold
 * nothing the repair could know of).
 */
export async function storedServices(store: Store, keys: KeyScheme, signal?: AbortSignal): Promise<Service[]> {
  const prefix = resourcePrefix(keys, '', 'services');
  const out: Service[] = [];
  let startAfter: string | undefined;
  let revision: bigint | undefined;
  for (;;) {
    const page = await store.range(prefix, { limit: PAGE, startAfter, revision, signal });
    revision = page.revision;
    for (const kv of page.kvs) {
      try {
        out.push(decodeStored(kv) as Service);
      } catch {
        // A corrupt object holds nothing the repair could use.
      }
    }
    if (!page.more || page.kvs.length === 0) return out;
    startAfter = page.kvs[page.kvs.length - 1].key;
  }
}
