/**
 * CertificateSigningRequest from certificates.<domain>/v1beta1 into v1. v1beta1 defaulted what v1
 * requires: `usages` to `digital signature` and `key encipherment`, each condition's `status` to
 * `True`; the conversion makes them explicit. An unset `signerName` gets v1beta1's default (see
 * `defaultV1beta1Signer`): the node-agent signers for a node's requests, otherwise the
 * legacy-unknown signer, which v1 refuses; such a request (named or defaulted) is not converted,
 * with the server's own message.
 */
import type { ApiDomain } from '../api-domain.js';
import { legacyUnknownSignerName } from '../certificates/csr-validation.js';
import { ConversionRefusedError, type KindFamily } from './conversion-types.js';
import { defaultV1beta1Signer } from './csr-default-signer.js';
import { defaultField, isSet, obj, withSpec } from './json-helpers.js';

/** v1beta1's default key usages. */
export const V1BETA1_DEFAULT_USAGES: readonly string[] = ['digital signature', 'key encipherment'];

/** CertificateSigningRequest in certificates.<domain>/v1 and v1beta1. */
export function certificatesFamilies(domain: ApiDomain): KindFamily[] {
  const group = domain.group('certificates');
  const legacy = legacyUnknownSignerName(domain);
  return [
    {
      kind: 'CertificateSigningRequest',
      internal: 'certificates.CertificateSigningRequest',
      served: [{ group, version: 'v1' }],
      removed: [
        {
          group,
          version: 'v1beta1',
          toHub: (o) => {
            const out = withSpec(o, (spec) => {
              const usages =
                Array.isArray(spec.usages) && spec.usages.length > 0 ? spec.usages : [...V1BETA1_DEFAULT_USAGES];
              const signer =
                isSet(spec.signerName) && spec.signerName !== ''
                  ? spec.signerName
                  : defaultV1beta1Signer(domain, spec.request, usages as string[]);
              if (signer === legacy) {
                throw new ConversionRefusedError(o.kind, o.metadata?.name ?? '', [
                  `spec.signerName: Invalid value: "${legacy}": the legacy signerName is not allowed via this API version`,
                ]);
              }
              return { ...spec, signerName: signer, usages };
            });
            if (isSet(out.status) && Array.isArray(obj(out.status).conditions)) {
              const status = obj(out.status);
              out.status = {
                ...status,
                conditions: (status.conditions as unknown[]).map((c) => defaultField({ ...obj(c) }, 'status', 'True')),
              };
            }
            out.apiVersion = `${group}/v1`;
            return out;
          },
        },
      ],
    },
  ];
}
