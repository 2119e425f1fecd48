import type { ApiObject } from '../object.js';
import type { Schema } from '../schema/schema.js';
import { describeField, stringAt, valueAt } from '../table/column-helpers.js';
import { AGE_SPEC, declarativeTableColumns } from '../table/declarative-columns.js';
import { humanDuration } from '../table/human-duration.js';
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
  return declarativeTableColumns([
    AGE_SPEC,
    {
      name: 'SignerName',
      type: 'string',
      description: spec('signerName') || 'The signer the request is for.',
      cell: (obj) => stringAt(obj, 'spec', 'signerName') || '<none>',
    },
    {
      name: 'Requestor',
      type: 'string',
      description: spec('request') || 'The user who created the request.',
      jsonPath: '.spec.username',
      zero: '',
    },
    {
      name: 'RequestedDuration',
      type: 'string',
      description: spec('expirationSeconds') || 'The validity duration requested for the certificate.',
      cell: (obj) => {
        const expiration = valueAt(obj, 'spec', 'expirationSeconds');
        return typeof expiration === 'number' ? humanDuration(expiration * 1000) : '<none>';
      },
    },
    {
      name: 'Condition',
      type: 'string',
      description: describeField(schema, 'status', 'conditions') || 'The approval and issuance state of the request.',
      cell: csrCondition,
    },
  ]);
}
