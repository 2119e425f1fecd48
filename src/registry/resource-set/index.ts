export {
  type BuiltResource,
  type ResourceFactory,
  type ResourceFactoryDeps,
  resourceFactory,
} from './resource-factory.js';
export { ResourceSet, type ResourceSetChange, type ResourceSetListener } from './resource-set.js';
export type { ServedResource } from './served-resource.js';
