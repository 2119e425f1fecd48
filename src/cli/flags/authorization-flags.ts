import { ORCH_DOMAIN } from '../../apis/api-domain.js';
import {
  type AuthorizationOptions,
  DEFAULT_WEBHOOK_AUTHORIZED_TTL_MS,
  DEFAULT_WEBHOOK_UNAUTHORIZED_TTL_MS,
  DEFAULT_WEBHOOK_VERSION,
} from '../../authz/authorization-options.js';
import {
  SUBJECT_ACCESS_REVIEW_VERSIONS,
  type SubjectAccessReviewVersion,
} from '../../authz/webhook/subject-access-review.js';
import type { FlagValues } from './flag-parser.js';
import { durationFlag, stringFlag } from './flag-spec.js';

const SECTION = 'Authorization';

/** The value keys of the flags `--authorization-config` excludes, besides `--authorization-mode`. */
const WEBHOOK_FLAGS = [
  'authorizationWebhookConfigFile',
  'authorizationWebhookVersion',
  'authorizationWebhookCacheAuthorizedTtlMs',
  'authorizationWebhookCacheUnauthorizedTtlMs',
] as const;

/** The authorization flags of `orch-apiserver` beyond `--authorization-mode`. */
export function authorizationFlagTable() {
  return {
    authorizationConfig: stringFlag({
      name: 'authorization-config',
      section: SECTION,
      usage:
        'File with Authorization Configuration to configure the authorizer chain. Requires feature gate StructuredAuthorizationConfiguration. This flag is mutually exclusive with the other --authorization-mode and --authorization-webhook-* flags.',
    }),
    authorizationWebhookConfigFile: stringFlag({
      name: 'authorization-webhook-config-file',
      section: SECTION,
      usage:
        "File with webhook configuration in kubeconfig format, used with --authorization-mode=Webhook. The API server will query the remote service to determine access on the API server's secure port.",
    }),
    authorizationWebhookVersion: stringFlag({
      name: 'authorization-webhook-version',
      default: DEFAULT_WEBHOOK_VERSION,
      section: SECTION,
      usage: `The API version of the ${ORCH_DOMAIN.group('authorization')} SubjectAccessReview to send to and expect from the webhook.`,
    }),
    authorizationWebhookCacheAuthorizedTtlMs: durationFlag({
      name: 'authorization-webhook-cache-authorized-ttl',
      default: DEFAULT_WEBHOOK_AUTHORIZED_TTL_MS,
      section: SECTION,
      usage: "The duration to cache 'authorized' responses from the webhook authorizer.",
    }),
    authorizationWebhookCacheUnauthorizedTtlMs: durationFlag({
      name: 'authorization-webhook-cache-unauthorized-ttl',
      default: DEFAULT_WEBHOOK_UNAUTHORIZED_TTL_MS,
      section: SECTION,
      usage: "The duration to cache 'unauthorized' responses from the webhook authorizer.",
    }),
  };
}

type AuthorizationFlagValues = FlagValues<ReturnType<typeof authorizationFlagTable>>;

/**
 * The authorization options the flags describe, with every problem of their combination in
 * kube-apiserver's words: `--authorization-config` excludes `--authorization-mode` and the
 * webhook flags (`changed` names the flags given); mode `Webhook` needs the webhook file and the
 * file needs the mode; the SubjectAccessReview version is `v1` or `v1beta1`. A negative TTL
 * caches nothing, as in kube.
 */
export function authorizationOptionsFromFlags(
  v: AuthorizationFlagValues,
  modes: readonly string[],
  changed: ReadonlySet<string>,
): { readonly options: AuthorizationOptions; readonly problems: readonly string[] } {
  const problems: string[] = [];
  if (v.authorizationConfig !== '') {
    if (changed.has('authorizationModes') || WEBHOOK_FLAGS.some((f) => changed.has(f))) {
      problems.push(
        '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined',
      );
    }
    return { options: { configFile: v.authorizationConfig }, problems };
  }
  const webhookMode = modes.includes('Webhook');
  const file = v.authorizationWebhookConfigFile;
  if (webhookMode && file === '') problems.push("authorization-mode Webhook's authorization config file not passed");
  if (file !== '' && !webhookMode)
    problems.push('cannot specify --authorization-webhook-config-file without mode Webhook');
  const version = v.authorizationWebhookVersion;
  if (!(SUBJECT_ACCESS_REVIEW_VERSIONS as readonly string[]).includes(version)) {
    problems.push(
      `unsupported webhook authorizer version ${JSON.stringify(version)}, supported versions are "v1", "v1beta1"`,
    );
  }
  if (!webhookMode || file === '') return { options: {}, problems };
  return {
    options: {
      webhook: {
        configFile: file,
        version: version as SubjectAccessReviewVersion,
        cacheAuthorizedTtlMs: v.authorizationWebhookCacheAuthorizedTtlMs,
        cacheUnauthorizedTtlMs: v.authorizationWebhookCacheUnauthorizedTtlMs,
      },
    },
    problems,
  };
}
