/** Orch as a library: start the API server in this process. */

export { RuntimeConfigError } from './featuregate/errors.js';
export { type RunningServer, type ServerOptions, startServer } from './server/start-server.js';
export type { Store } from './storage/store.js';
