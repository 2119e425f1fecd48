/** Orch as a library: start the API server in this process. */

export type { AdmissionAttributes, AdmissionPlugin, Operation } from './admission/index.js';
export type { ApiDomainName } from './apis/api-domain.js';
export type { ResourceDefinition, ResourceStrategy, SubresourceDefinition } from './apis/resource-definition.js';
export { RuntimeConfigError } from './featuregate/errors.js';
export { type RunningServer, type ServerOptions, startServer } from './server/start-server.js';
export type { Store } from './storage/store.js';
