import type { ApiObject } from '../object.js';
import type { Schema } from '../schema/schema.js';
import {
  AGE_COLUMN,
  column,
  describeField,
  NAME_COLUMN,
  objectName,
  stringAt,
  valueAt,
} from '../table/column-helpers.js';
import { humanDuration, translateTimestampSince } from '../table/human-duration.js';
import type { TableColumns } from '../table/table-types.js';

/** kube's `extractCSRStatus`: Denied, else Approved, else Pending; then `,Failed` and `,Issued`. */
export function csrCondition(obj: ApiObject): string {
  const conditions = valueAt(obj, 'status', 'conditions');
  const types = new Set(Array.isArray(conditions) ? conditions.map((c) => stringAt(c, 'type')) : []);
  let status = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) status += ',Failed';
  if (stringAt(obj, 'status', 'certificate').length > 0) status += ',Issued';
  return status;
}

/**
 * kube's CertificateSigningRequest printer: `Name`, `Age`, `SignerName` (`<none>` when unset),
 * `Requestor` (the recorded username), `RequestedDuration` (`<none>` when unset), `Condition`.
 */
export function csrTableColumns(schema: Schema): TableColumns {
  const spec = (field: string) => describeField(schema, 'spec', field);
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      AGE_COLUMN,
      column('SignerName', 'string', spec('signerName') || 'The signer the request is for.'),
      column('Requestor', 'string', spec('request') || 'The user who created the request.'),
      column(
        'RequestedDuration',
        'string',
        spec('expirationSeconds') || 'The validity duration requested for the certificate.',
      ),
      column(
        'Condition',
        'string',
        describeField(schema, 'status', 'conditions') || 'The approval and issuance state of the request.',
      ),
    ]),
    cells: (obj: ApiObject, now: Date) => {
      const expiration = valueAt(obj, 'spec', 'expirationSeconds');
      return [
        objectName(obj),
        translateTimestampSince(valueAt(obj, 'metadata', 'creationTimestamp'), now),
        stringAt(obj, 'spec', 'signerName') || '<none>',
        stringAt(obj, 'spec', 'username'),
        typeof expiration === 'number' ? humanDuration(expiration * 1000) : '<none>',
        csrCondition(obj),
      ];
    },
  });
}
