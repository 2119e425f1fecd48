import type { ApiDomain } from '../apis/api-domain.js';
import { apiErrors } from '../apis/meta/status.js';
import { internalRequestContext } from '../apis/request/request-context.js';
import type { SecretLabelWriter } from '../authn/service-account/legacy-token-authenticator.js';
import type { ResourceSet } from '../registry/resource-set/index.js';
import { API_SERVER_USER } from './bootstrap-namespaces.js';

const SECRETS = { group: '', resource: 'secrets' };

/**
 * Adds labels to Secrets as the API server itself (field manager `ApiDomain.apiServerManager`),
 * for legacy token tracking: the Secret must still have the given uid (else 409 Conflict, as a
 * merge patch naming `metadata.uid` fails). `resources` is bound late, as the authenticators are
 * built before the set.
 */
export function secretLabelWriter(resources: () => ResourceSet | undefined, domain: ApiDomain): SecretLabelWriter {
  return {
    async setLabels(namespace, name, uid, labels, signal) {
      const served = resources()?.lookup('', 'v1', 'secrets');
      if (!served) return;
      const ctx = internalRequestContext({
        user: API_SERVER_USER,
        signal,
        verb: 'patch',
        group: '',
        version: 'v1',
        resource: 'secrets',
        namespace,
        name,
      });
      await served.store.update(
        ctx,
        name,
        {
          retryOnConflict: true,
          compute: (live) => {
            if (!live) throw apiErrors.notFound(SECRETS, name);
            if (live.metadata.uid !== uid) {
              throw apiErrors.conflict(SECRETS, name, 'the object has been replaced');
            }
            return { ...live, metadata: { ...live.metadata, labels: { ...(live.metadata.labels ?? {}), ...labels } } };
          },
        },
        { dryRun: false, fieldManager: domain.apiServerManager },
      );
    },
  };
}
