export { Cacher } from './cacher.js';
export {
  CacherError,
  type CacherErrorCode,
  CacherNotReadyError,
  ResourceVersionTooOldError,
  TooLargeResourceVersionError,
  WatcherTooSlowError,
} from './cacher-errors.js';
export type { CacherOptions } from './cacher-options.js';
export type {
  CacheListOptions,
  CacheListResult,
  CacheReadOptions,
  CacherStats,
  CacheWatchOptions,
} from './cacher-requests.js';
export type { CacheBookmarkEvent, CachedItem, CacheObjectEvent, CacheWatchEvent, Decoder } from './types.js';
export type { CacheWatcher, WatcherListener } from './watcher.js';
