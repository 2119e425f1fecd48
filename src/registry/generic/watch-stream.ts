import type { WatchEvent, WatchStream } from '../types.js';

/**
 * A WatchStream over an iterator of events that arrive one at a time: each batch is the next
 * event. (The watch cache hands out real batches; see cached-watch.)
 */
export function watchStreamOf(events: AsyncIterator<WatchEvent>, stop: () => void): WatchStream {
  return {
    [Symbol.asyncIterator]: () => events,
    async nextBatch() {
      const next = await events.next();
      return next.done ? undefined : [next.value];
    },
    stop,
  };
}
