import type { EndpointSlice } from '../../apis/discovery/endpoint-slice-types.js';

const DELETED = -1;

/**
 * kube's `EndpointSliceTracker`: the generation of every slice this controller wrote, per
 * service, so that it can tell its own writes from others' changes and a cache that has not
 * seen its writes yet (a sync on a stale cache would undo them).
 */
export class SliceTracker {
  private readonly byService = new Map<string, Map<string, number>>();

  private of(serviceKey: string): Map<string, number> {
    let m = this.byService.get(serviceKey);
    if (!m) {
      m = new Map();
      this.byService.set(serviceKey, m);
    }
    return m;
  }

  /** A slice this controller created or updated. */
  written(serviceKey: string, slice: EndpointSlice): void {
    if (slice.metadata.uid) this.of(serviceKey).set(slice.metadata.uid, slice.metadata.generation ?? 0);
  }

  /** A slice this controller deleted. */
  deleted(serviceKey: string, slice: EndpointSlice): void {
    if (slice.metadata.uid) this.of(serviceKey).set(slice.metadata.uid, DELETED);
  }

  /** True unless the change is one of this controller's own writes. */
  shouldSync(serviceKey: string, slice: EndpointSlice): boolean {
    const g = this.byService.get(serviceKey)?.get(slice.metadata.uid ?? '');
    return g === undefined || g === DELETED || (slice.metadata.generation ?? 0) > g;
  }

  /** A deletion was observed; true when it was not this controller's. */
  deletionObserved(serviceKey: string, slice: EndpointSlice): boolean {
    const m = this.byService.get(serviceKey);
    const g = m?.get(slice.metadata.uid ?? '');
    m?.delete(slice.metadata.uid ?? '');
    return g !== DELETED;
  }

  /** True when the cached slices miss one of this controller's writes. */
  stale(serviceKey: string, cached: readonly EndpointSlice[]): boolean {
    const m = this.byService.get(serviceKey);
    if (!m) return false;
    const seen = new Map(cached.map((s) => [s.metadata.uid ?? '', s]));
    for (const [uid, g] of m) {
      const s = seen.get(uid);
      if (g === DELETED) {
        if (s) return true;
        m.delete(uid);
      } else if (!s || (s.metadata.generation ?? 0) < g) return true;
    }
    return false;
  }

  forgetService(serviceKey: string): void {
    this.byService.delete(serviceKey);
  }
}
