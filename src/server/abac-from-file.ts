import type { ApiDomain } from '../apis/api-domain.js';
import { abacAuthorizer } from '../authz/abac/abac-authorizer.js';
import { loadPolicyFile, unversionedPolicyWarning } from '../authz/abac/load-policy-file.js';
import type { Authorizer } from '../authz/authorizer.js';
import { AuthorizationModeError } from '../authz/index.js';
import type { Logger } from '../util/logger.js';

/**
 * The `ABAC` authorizer of `--authorization-policy-file`, read once at start-up, or undefined
 * when `ABAC` is not a mode. Warns, as kube does, when the file holds unversioned lines.
 * @throws AuthorizationModeError for a mode without its file or a file without its mode (kube's
 *   wording), AbacPolicyError for a file that cannot be read or a line that does not decode.
 */
export async function abacFromFile(
  modes: readonly string[],
  policyFile: string | undefined,
  o: { readonly domain: ApiDomain; readonly logger: Logger },
): Promise<Authorizer | undefined> {
  const wanted = modes.includes('ABAC');
  if (policyFile && !wanted) {
    throw new AuthorizationModeError('cannot specify --authorization-policy-file without mode ABAC');
  }
  if (!wanted) return undefined;
  if (!policyFile) throw new AuthorizationModeError("authorization-mode ABAC's authorization policy file not passed");
  const file = await loadPolicyFile(policyFile, o.domain);
  if (file.unversionedLines > 0) o.logger.warn(unversionedPolicyWarning(policyFile));
  return abacAuthorizer(file.policies);
}
