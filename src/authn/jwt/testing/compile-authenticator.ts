import { apiDomain } from '../../../apis/api-domain.js';
import { formatFieldError } from '../../../apis/meta/field-error.js';
import { CelEnvironmentSet } from '../../../cel/environment-set.js';
import { versionedCelLibraries } from '../../../cel/library/index.js';
import { AuthenticationCelCompiler } from '../../authentication-config/authentication-cel-compiler.js';
import type { CompiledJwtAuthenticator } from '../../authentication-config/compiled-jwt-authenticator.js';
import type { JwtAuthenticatorConfig } from '../../authentication-config/types.js';
import { validateJwtAuthenticator } from '../../authentication-config/validate-jwt-authenticator.js';

const compiler = new AuthenticationCelCompiler(new CelEnvironmentSet({ libraries: versionedCelLibraries() }));

/** The parts of a JWT authenticator a test writes; the rest defaults to a valid `sub` mapping. */
export interface AuthenticatorSketch {
  readonly issuer?: string;
  readonly audiences?: readonly string[];
  readonly username?: Partial<JwtAuthenticatorConfig['claimMappings']['username']>;
  readonly groups?: Partial<JwtAuthenticatorConfig['claimMappings']['groups']>;
  readonly uid?: Partial<JwtAuthenticatorConfig['claimMappings']['uid']>;
  readonly extra?: JwtAuthenticatorConfig['claimMappings']['extra'];
  readonly claimRules?: Partial<JwtAuthenticatorConfig['claimValidationRules'][number]>[];
  readonly userRules?: Partial<JwtAuthenticatorConfig['userValidationRules'][number]>[];
}

/** A validated, compiled authenticator for unit tests; throws listing the problems when invalid. */
export function compileAuthenticator(s: AuthenticatorSketch = {}): CompiledJwtAuthenticator {
  const config: JwtAuthenticatorConfig = {
    issuer: {
      url: s.issuer ?? 'https://idp.example',
      discoveryURL: '',
      certificateAuthority: '',
      audiences: s.audiences ?? ['orch'],
      audienceMatchPolicy: (s.audiences?.length ?? 1) > 1 ? 'MatchAny' : '',
    },
    claimValidationRules: (s.claimRules ?? []).map((r) => ({
      claim: '',
      requiredValue: '',
      expression: '',
      message: '',
      ...r,
    })),
    claimMappings: {
      username: { claim: 'sub', prefix: '', expression: '', ...s.username },
      groups: { claim: '', prefix: undefined, expression: '', ...s.groups },
      uid: { claim: '', expression: '', ...s.uid },
      extra: s.extra ?? [],
    },
    userValidationRules: (s.userRules ?? []).map((r) => ({ expression: '', message: '', ...r })),
  };
  const r = validateJwtAuthenticator(config, '', { compiler, disallowedIssuers: [], domain: apiDomain() });
  if (r.errors.length > 0) throw new Error(r.errors.map(formatFieldError).join('\n'));
  return r.compiled;
}
