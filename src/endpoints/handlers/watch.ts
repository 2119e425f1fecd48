import { apiErrors, StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { ResourceDefinition } from '../../apis/resource-definition.js';
import { buildTable, toPartialObjectMetadata } from '../../apis/table/index.js';
import {
  encodeCborWatchEvent,
  encodeJson,
  type NegotiatedMedia,
  NotAcceptableError,
  negotiateWatch,
} from '../../encoding/index.js';
import { encodeObject, encodeStatus, encodeWatchFrame } from '../../encoding/protobuf/index.js';
import type { ServedResource } from '../../registry/resource-set/index.js';
import type { EncodedObject, RequestContext, WatchEvent, WatchOptions } from '../../registry/types.js';
import type { ApiRequest, StreamResponse } from '../handler.js';
import { asBuffer, type ResponseConfig } from './response-writer.js';
import { tableIncludeObject } from './table-options.js';
import { pumpSyncWatch } from './watch-pump.js';

// kube-apiserver's default: watches end after --min-request-timeout (1800 s) times a random
// factor in [1, 2), so reconnects of many clients spread out.
const DEFAULT_WATCH_TIMEOUT_S = 1800;

export function watchTimeoutSeconds(
  query: URLSearchParams,
  minRequestTimeoutS = DEFAULT_WATCH_TIMEOUT_S,
  random: () => number = Math.random,
): number {
  const t = query.get('timeoutSeconds');
  if (t !== null && t !== '') {
    if (!/^[0-9]+$/.test(t)) throw apiErrors.badRequest(`invalid value for timeoutSeconds: "${t}"`);
    return Number(t);
  }
  return Math.floor(minRequestTimeoutS * (1 + random()));
}

/**
 * Encodes watch events in the negotiated media, as the chunks the transport takes; Table watches
 * send column headers once. An event shared by every watcher (the watch cache's) is encoded once
 * per media type and its bytes handed to each watcher as they are (a copy per watcher cost 1,000
 * copies per change at 1,000 watchers).
 */
function eventEncoder(
  def: ResourceDefinition,
  media: NegotiatedMedia,
  cfg: ResponseConfig,
  req: ApiRequest,
): (ev: WatchEvent) => Buffer {
  let headersSent = false;
  const convert = (ev: WatchEvent): unknown => {
    if (ev.type === 'ERROR' || ev.type === 'BOOKMARK' || !media.target) return ev.object;
    const apiVersion = `${media.target.group}/${media.target.version}`;
    if (media.target.as === 'Table') {
      const t = buildTable(def, ev.object, {
        now: cfg.now(),
        includeObject: tableIncludeObject(req.query),
        noHeaders: headersSent,
        apiVersion,
      });
      headersSent = true;
      return t;
    }
    return toPartialObjectMetadata(ev.object, apiVersion);
  };
  /** One event; `converted` undefined: the event's own object (copied from its bytes in JSON). */
  const encodeEvent = (ev: WatchEvent, converted: unknown): Buffer => {
    if (converted === undefined && media.encoding === 'json' && !media.pretty && ev.encoded) {
      return jsonEventFrame(ev.type, ev.encoded);
    }
    const object = converted ?? ev.object;
    switch (media.encoding) {
      case 'protobuf': {
        const raw = ev.type === 'ERROR' ? encodeStatus(object as never) : encodeObject(def.schema, object as ApiObject);
        return asBuffer(encodeWatchFrame({ type: ev.type, object: raw }));
      }
      case 'cbor':
        return asBuffer(encodeCborWatchEvent(ev.type, object));
      default:
        return Buffer.from(encodeJson({ type: ev.type, object }));
    }
  };
  const encodePlain = (ev: WatchEvent): Buffer => encodeEvent(ev, undefined);
  // Every watch of this media type names the shared frames alike, whatever the request's pretty
  // option (watch frames are compact either way).
  const frameName = `watch:${media.contentType}`;
  const cache = cfg.encodings;
  // The cache keys of this watch's media type for events that are not shared, built once.
  const cacheKeys = {
    ADDED: `watch:${media.contentType}:ADDED`,
    MODIFIED: `watch:${media.contentType}:MODIFIED`,
    DELETED: `watch:${media.contentType}:DELETED`,
  };
  const shared = !media.target;
  return (ev) => {
    if (shared && ev.type !== 'BOOKMARK' && ev.type !== 'ERROR') {
      if (ev.frame !== undefined) return ev.frame(frameName, encodePlain);
      // Other events are keyed by their object (the same object may be sent by several watches).
      if (cache) return asBuffer(cache.encode(ev.encoded ? ev : ev.object, cacheKeys[ev.type], () => encodePlain(ev)));
    }
    return encodeEvent(ev, convert(ev));
  };
}

const FRAME_END = Buffer.from('}\n');
const FRAME_HEADS: Readonly<Record<string, Buffer>> = Object.fromEntries(
  ['ADDED', 'MODIFIED', 'DELETED'].map((t) => [t, Buffer.from(`{"type":"${t}","object":`)]),
);

/** `{"type":...,"object":...}` and a newline, as encodeJson writes it, the object copied from its bytes. */
function jsonEventFrame(type: string, encoded: EncodedObject): Buffer {
  const head = FRAME_HEADS[type] ?? Buffer.from(`{"type":${JSON.stringify(type)},"object":`);
  const out = Buffer.allocUnsafe(head.length + encoded.jsonSize() + FRAME_END.length);
  head.copy(out, 0);
  FRAME_END.copy(out, encoded.writeJson(out, head.length));
  return out;
}

/**
 * A watch as a stream of events in the negotiated encoding (JSON documents, length-prefixed
 * Protobuf frames, or a CBOR sequence). The stream ends when the client goes away, the timeout
 * passes or the watch ends; an error after the stream started is sent as an ERROR event.
 */
export async function handleWatch(
  served: ServedResource,
  req: ApiRequest,
  ctx: RequestContext,
  o: WatchOptions,
  cfg: ResponseConfig,
): Promise<StreamResponse> {
  let media: NegotiatedMedia;
  try {
    media = negotiateWatch(req.headers.accept, {
      cborEnabled: cfg.cborEnabled,
      metaGroup: req.domain.metaGroup,
      protobufMediaType: req.domain.protobufMediaType,
      prettyParam: req.query.get('pretty') ?? undefined,
      userAgent: req.headers['user-agent'],
    });
  } catch (e) {
    if (e instanceof NotAcceptableError) throw e.toStatusError();
    throw e;
  }
  const timeoutS = o.timeoutSeconds ?? watchTimeoutSeconds(req.query, cfg.minRequestTimeoutSeconds);
  // A bad Table option is the request's 400, not an ERROR event inside the stream.
  if (media.target?.as === 'Table') tableIncludeObject(req.query);
  const stream = await served.store.watch(ctx, o);
  const encode = eventEncoder(served.def, media, cfg, req);
  return {
    kind: 'stream',
    status: 200,
    headers: { 'content-type': media.contentType, 'cache-control': 'no-cache, private' },
    async pump(write, signal) {
      const timer = setTimeout(() => stream.stop(), timeoutS * 1000);
      const onAbort = () => stream.stop();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        // A synchronous source (the watch cache) is written from its dispatch: one pass over
        // all watchers per change, no promise per watcher or per event unless the transport is full.
        if (stream.sync) await pumpSyncWatch(stream.sync, write, encode);
        else {
          for (let batch = await stream.nextBatch(); batch !== undefined; batch = await stream.nextBatch()) {
            for (const ev of batch) {
              const full = write(encode(ev));
              if (full !== undefined) await full;
            }
          }
        }
      } catch (e) {
        if (!signal.aborted) {
          const se = e instanceof StatusError ? e : apiErrors.internal(e);
          await write(encode({ type: 'ERROR', object: se.toStatus() as unknown as ApiObject }));
        }
      } finally {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        stream.stop();
      }
    },
  };
}
