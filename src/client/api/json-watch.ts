import type { ApiObject } from '../../apis/object.js';
import type { ClientWatchEvent, ClientWatchEventType } from './api-client.js';

const TYPES: ReadonlySet<string> = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/** A watch stream line that is not a watch event. */
export class WatchDecodeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WatchDecodeError';
  }
}

/** Decodes one line of a JSON watch stream (`{"type":…,"object":…}`). */
export function decodeWatchLine(line: string, fill?: (obj: ApiObject) => ApiObject): ClientWatchEvent {
  let ev: { type?: unknown; object?: unknown };
  try {
    ev = JSON.parse(line) as typeof ev;
  } catch (e) {
    throw new WatchDecodeError('watch stream: a line is not JSON', { cause: e });
  }
  if (!ev || typeof ev.type !== 'string' || !TYPES.has(ev.type) || !ev.object || typeof ev.object !== 'object') {
    throw new WatchDecodeError('watch stream: a line is not a watch event');
  }
  const object = ev.object as ApiObject;
  const type = ev.type as ClientWatchEventType;
  return { type, object: fill && type !== 'ERROR' ? fill(object) : object };
}
