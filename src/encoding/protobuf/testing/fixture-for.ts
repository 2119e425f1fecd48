import type { ApiObject } from '../../../apis/object.js';
import { apiVersionOf, type ResourceDefinition } from '../../../apis/resource-definition.js';
import { richObjects } from './fixtures.js';
import { sampleObject } from './sample-object.js';

/**
 * The codec fixture of a definition: its hand-written rich object when there is one for its
 * group version, else a fully populated sample of its schema (the generated kinds).
 */
export function fixtureFor(def: ResourceDefinition, rich: Record<string, ApiObject> = richObjects()): ApiObject {
  const apiVersion = apiVersionOf(def);
  const hand = rich[def.kind];
  if (hand && hand.apiVersion === apiVersion) return hand;
  return sampleObject(def.schema, def.kind, apiVersion) as ApiObject;
}
