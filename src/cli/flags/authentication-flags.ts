import type { AuthenticationOptions } from '../../authn/authentication-options.js';
import type { FlagValues } from './flag-parser.js';
import { boolFlag, stringListFlag } from './flag-spec.js';
import { serviceAccountFlagTable, serviceAccountOptionsFromFlags } from './service-account-flags.js';

const SECTION = 'Authentication';

/** The authentication flags of `orch-apiserver`, one per method option. */
export function authenticationFlagTable() {
  return {
    anonymousAuth: boolFlag({
      name: 'anonymous-auth',
      default: true,
      section: SECTION,
      usage:
        'Enables anonymous requests to the secure port of the API server. Requests that are not rejected by another authentication method are treated as anonymous requests. Anonymous requests have a username of system:anonymous, and a group name of system:unauthenticated.',
    }),
    apiAudiences: stringListFlag({
      name: 'api-audiences',
      section: SECTION,
      usage:
        'Identifiers of the API. The service account token authenticator will validate that tokens used against the API are bound to at least one of these audiences. If the --service-account-issuer flag is configured and this flag is not, this field defaults to a single element list containing the issuer URL.',
    }),
    ...serviceAccountFlagTable(),
  };
}

type AuthenticationFlagValues = FlagValues<ReturnType<typeof authenticationFlagTable>>;

/**
 * The authentication options the flags describe, with every problem of their combination.
 * `changed` names the flags given on the command line.
 */
export function authenticationOptionsFromFlags(
  v: AuthenticationFlagValues,
  changed: ReadonlySet<string>,
): { readonly options: AuthenticationOptions; readonly problems: readonly string[] } {
  const problems: string[] = [];
  const options: AuthenticationOptions = {
    anonymous: changed.has('anonymousAuth') ? v.anonymousAuth : undefined,
    apiAudiences: v.apiAudiences.length > 0 ? v.apiAudiences : undefined,
    ...serviceAccountOptionsFromFlags(v, changed),
  };
  return { options, problems };
}
