import { formatIP, parseCIDR, parseIP } from '../../../apis/core/ip-address.js';
import { addressAt, serviceIPRange } from '../../../apis/core/service-ranges.js';
import type { Service } from '../../../apis/core/service-types.js';
import { type Logger, silentLogger } from '../../../util/logger.js';
import { AllocationBitmap } from './allocation-bitmap.js';
import type { ClusterIPAllocator } from './cluster-ip-allocator.js';
import type { NodePortAllocator } from './node-port-allocator.js';
import type { RangeAllocator, RangeSnapshot } from './range-allocator.js';

/** kube's `numRepairsBeforeLeakCleanup`: a value unused in this many runs in a row is freed. */
export const REPAIRS_BEFORE_LEAK_CLEANUP = 3;
/** Runs that lose a race with another writer are retried this many times. */
const MAX_RACES = 16;

/** One service's values of a range: what the service holds, keyed to name it in logs. */
interface Held {
  readonly values: readonly string[];
  readonly service: string;
}

/** How a range's values map to bitmap offsets and back. */
interface RangeCodec {
  readonly allocator: RangeAllocator;
  /** The offset of a value in the configured range, undefined when outside it. */
  offsetOf(value: string): number | undefined;
  /** The values a stored bitmap holds, read in the range it was stored for. */
  storedValues(snapshot: RangeSnapshot): string[];
  readonly what: string;
}

/**
 * Rebuilds a range's stored state from the values services hold, as kube's repair controllers
 * do: every value a service holds is marked (duplicates and values outside the range are
 * logged); a value marked in the stored state that no service holds may belong to a write in
 * flight (allocated, service not stored yet), so it is kept until it has been found unused in
 * `REPAIRS_BEFORE_LEAK_CLEANUP` runs in a row. The state is replaced only if it did not change
 * since it was read (another server's allocation restarts the run).
 */
class RangeRepair {
  /** Leaked value → runs left before it is freed. */
  private readonly leaks = new Map<string, number>();

  constructor(
    private readonly codec: RangeCodec,
    private readonly logger: Logger,
  ) {}

  async run(services: () => Promise<Held[]>, signal?: AbortSignal): Promise<void> {
    for (let race = 0; race < MAX_RACES; race++) {
      const snapshot = await this.codec.allocator.readSnapshot(signal);
      const stored = new Set(snapshot ? this.codec.storedValues(snapshot) : []);
      const held = await services();
      const rebuilt = this.rebuild(held, stored);
      if (await this.codec.allocator.replace(rebuilt, snapshot, signal)) return;
    }
    throw new Error(`could not repair the ${this.codec.what} allocations: the stored state kept changing`);
  }

  private rebuild(held: Held[], stored: Set<string>): AllocationBitmap {
    let bitmap = this.codec.allocator.emptyBitmap();
    for (const { values, service } of held) {
      for (const value of new Set(values)) {
        const offset = this.codec.offsetOf(value);
        if (offset === undefined) {
          this.logger.warn(
            `the ${this.codec.what} of a service is outside the configured range; please recreate the service`,
            {
              service,
              value,
              range: this.codec.allocator.rangeSpec,
            },
          );
          continue;
        }
        const next = bitmap.set(offset);
        if (!next) {
          this.logger.warn(`the ${this.codec.what} was assigned to multiple services; please recreate the service`, {
            service,
            value,
          });
          continue;
        }
        bitmap = next;
        if (!stored.delete(value))
          this.logger.info(`the ${this.codec.what} of a service was not allocated; repairing`, { service, value });
        this.leaks.delete(value);
      }
    }
    // What is left in the stored state is unused.
    for (const key of [...this.leaks.keys()]) if (!stored.has(key)) this.leaks.delete(key);
    for (const value of stored) {
      const left = this.leaks.get(value) ?? REPAIRS_BEFORE_LEAK_CLEANUP - 1;
      const offset = this.codec.offsetOf(value);
      if (left > 0 && offset !== undefined) {
        this.leaks.set(value, left - 1);
        bitmap = bitmap.set(offset) ?? bitmap;
      } else {
        this.leaks.delete(value);
        this.logger.info(`the ${this.codec.what} appears to have leaked: freeing it`, { value });
      }
    }
    return bitmap;
  }
}

function clusterIPCodec(allocator: ClusterIPAllocator): RangeCodec {
  return {
    allocator: allocator.allocator,
    what: 'cluster IP',
    offsetOf: (value) => {
      try {
        return allocator.offsetOf(value);
      } catch {
        return undefined;
      }
    },
    storedValues: (snapshot) => {
      const network = parseCIDR(snapshot.rangeSpec);
      if (!network) return [];
      const range = serviceIPRange(network);
      // A state stored for another range (the flag changed) is read in that range's terms.
      const stored = AllocationBitmap.fromBytes(range.size, 0, snapshot.data);
      return stored.offsets().map((o) => formatIP(addressAt(range, o)));
    },
  };
}

function nodePortCodec(allocator: NodePortAllocator): RangeCodec {
  return {
    allocator: allocator.allocator,
    what: 'node port',
    offsetOf: (value) => {
      const port = Number(value);
      return allocator.contains(port) ? port - allocator.range.base : undefined;
    },
    storedValues: (snapshot) => {
      const match = /^(\d+)-(\d+)$/.exec(snapshot.rangeSpec);
      if (!match) return [];
      const base = Number(match[1]);
      const size = Number(match[2]) - base + 1;
      return AllocationBitmap.fromBytes(size, 0, snapshot.data)
        .offsets()
        .map((o) => String(base + o));
    },
  };
}

function serviceName(svc: Service): string {
  return `${svc.metadata?.namespace ?? ''}/${svc.metadata?.name ?? ''}`;
}

/** The cluster IPs of a service of one family (none for ExternalName or headless services). */
function clusterIPsOf(svc: Service, is4: boolean): string[] {
  const spec = svc.spec ?? {};
  if (spec.type === 'ExternalName' || !spec.clusterIP || spec.clusterIP === 'None') return [];
  const ips = spec.clusterIPs && spec.clusterIPs.length > 0 ? spec.clusterIPs : [spec.clusterIP];
  return ips.filter((ip) => parseIP(ip)?.is4 === is4);
}

/** The node ports a service holds, its health check node port included. */
export function nodePortsOf(svc: Service): number[] {
  const spec = svc.spec ?? {};
  const ports = (spec.ports ?? []).map((p) => p.nodePort ?? 0).filter((p) => p !== 0);
  if (spec.healthCheckNodePort) ports.push(spec.healthCheckNodePort);
  return ports;
}

/**
 * The repair of every service allocation range: the cluster IPs of each configured family and
 * the node ports. Keeps its leak counts between runs (one instance per server).
 */
export class ServiceAllocationRepair {
  private readonly ipRepairs: { readonly is4: boolean; readonly repair: RangeRepair }[];
  private readonly portRepair: RangeRepair;

  constructor(o: {
    readonly clusterIPs: readonly ClusterIPAllocator[];
    readonly nodePorts: NodePortAllocator;
    /** Every stored service (read from the store, not a cache). */
    readonly services: (signal?: AbortSignal) => Promise<Service[]>;
    readonly logger?: Logger;
  }) {
    const logger = o.logger ?? silentLogger;
    this.services = o.services;
    this.ipRepairs = o.clusterIPs.map((a) => ({
      is4: a.family === 'IPv4',
      repair: new RangeRepair(clusterIPCodec(a), logger),
    }));
    this.portRepair = new RangeRepair(nodePortCodec(o.nodePorts), logger);
  }

  private readonly services: (signal?: AbortSignal) => Promise<Service[]>;

  /** One repair of every range. @throws when the store fails or a range keeps changing. */
  async runOnce(signal?: AbortSignal): Promise<void> {
    for (const { is4, repair } of this.ipRepairs) {
      await repair.run(
        async () =>
          (await this.services(signal)).map((s) => ({ service: serviceName(s), values: clusterIPsOf(s, is4) })),
        signal,
      );
    }
    await this.portRepair.run(
      async () =>
        (await this.services(signal)).map((s) => ({ service: serviceName(s), values: nodePortsOf(s).map(String) })),
      signal,
    );
  }
}
