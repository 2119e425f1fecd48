import type { ApiObject } from '../object.js';

/** discovery/v1 EndpointSlice as the rules of this folder read it (schema-valid JSON). */
export interface EndpointSliceEndpoint {
  addresses?: string[];
  conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean };
  hostname?: string;
  targetRef?: Record<string, unknown>;
  deprecatedTopology?: Record<string, string>;
  nodeName?: string;
  zone?: string;
  hints?: { forZones?: { name?: string }[] };
}

export interface EndpointSlicePort {
  name?: string;
  protocol?: string;
  port?: number;
  appProtocol?: string;
}

export interface EndpointSlice extends ApiObject {
  addressType?: string;
  endpoints?: EndpointSliceEndpoint[] | null;
  ports?: EndpointSlicePort[] | null;
}
