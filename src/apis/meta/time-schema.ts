import { namedType } from '../schema/named.js';
import type { Schema } from '../schema/schema.js';

/**
 * The two timestamp types of apimachinery `meta/v1`, which have a JSON form of their own (a
 * string) and travel in protobuf as `{int64 seconds = 1; int32 nanos = 2}`.
 */
const META = 'io.orch.apimachinery.pkg.apis.meta.v1';

/** `Time`: RFC 3339 timestamp in UTC, whole seconds. */
export const timeSchema: Schema = namedType(
  `${META}.Time`,
  'A point in time, written in RFC 3339 form to the second.',
  {
    type: 'string',
    format: 'date-time',
    'x-orch-time-precision': 'second',
    'x-orch-protobuf-message': 'Time',
  },
);

/** `MicroTime`: RFC 3339 timestamp in UTC with microseconds. */
export const microTimeSchema: Schema = namedType(
  `${META}.MicroTime`,
  'A point in time, written in RFC 3339 form to the microsecond.',
  {
    type: 'string',
    format: 'date-time',
    'x-orch-time-precision': 'microsecond',
    'x-orch-protobuf-message': 'MicroTime',
  },
);
