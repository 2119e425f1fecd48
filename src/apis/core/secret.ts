import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isConfigMapKey, nameIsDNSSubdomain } from '../meta/name-validation.js';
import { nativeValidationSchema } from '../meta/native-validation-schema.js';
import { standardFinalizers, validateImmutableField } from '../meta/object-meta-validation.js';
import { schemaStrategy } from '../meta/resource-strategy.js';
import type { ApiObject } from '../object.js';
import { keyPath } from '../schema/field-path.js';
import { base64DecodedLength } from '../schema/formats.js';
import { isPlainObject } from '../schema/json-value.js';
import { secretFieldLabels } from '../selectors/builtin-field-labels.js';
import { secretTableColumns } from '../table/builtin-columns.js';
import { IMMUTABLE_WHEN_SET, MAX_CONFIG_DATA_SIZE_BYTES, sameData } from './config-map.js';
import { secretSchema } from './core-v1-schemas.js';
import { goJsonObjectError } from './go-json-error.js';

/** Secret types with server-side rules. The strings are kube's, since clients send them as is. */
export const SecretType = {
  Opaque: 'Opaque',
  ServiceAccountToken: 'kubernetes.io/service-account-token',
  Dockercfg: 'kubernetes.io/dockercfg',
  DockerConfigJson: 'kubernetes.io/dockerconfigjson',
  BasicAuth: 'kubernetes.io/basic-auth',
  SSHAuth: 'kubernetes.io/ssh-auth',
  TLS: 'kubernetes.io/tls',
  BootstrapToken: 'bootstrap.kubernetes.io/token',
} as const;

/** Annotation naming the ServiceAccount a token Secret belongs to (required for that type). */
export const SERVICE_ACCOUNT_NAME_ANNOTATION = 'kubernetes.io/service-account.name';

export interface Secret extends ApiObject {
  immutable?: boolean;
  /** Base64-encoded values. */
  data?: Record<string, string>;
  /** Write-only plain-text values, folded into `data` before validation. */
  stringData?: Record<string, string>;
  type?: string;
}

/**
 * kube's defaulting of a Secret's `type` (Go code, not in the schema it publishes): an empty or
 * absent type becomes `Opaque`. Leaves an ill-typed value for validation to report.
 */
function defaultSecretType(secret: Secret): void {
  const type: unknown = secret.type;
  if (type === undefined || type === null || type === '') secret.type = SecretType.Opaque;
}

/** What kube does to a Secret as it decodes one: `stringData` folded into `data`, `type` defaulted. */
function prepareSecret(secret: Secret): void {
  foldStringData(secret);
  defaultSecretType(secret);
}

/**
 * Folds `stringData` into `data` (UTF-8, base64-encoded; stringData wins) and removes it, as
 * kube's v1→internal conversion does. Leaves an ill-typed `stringData` for validation to report.
 */
export function foldStringData(secret: Secret): void {
  const raw: unknown = secret.stringData;
  if (raw === undefined || raw === null) {
    delete secret.stringData;
    return;
  }
  if (!isPlainObject(raw) || !Object.values(raw).every((v) => typeof v === 'string')) return;
  if (secret.data !== undefined && !isPlainObject(secret.data)) return;
  const data: Record<string, string> = { ...(secret.data ?? {}) };
  for (const [key, value] of Object.entries(raw as Record<string, string>)) {
    data[key] = Buffer.from(value, 'utf8').toString('base64');
  }
  secret.data = data;
  delete secret.stringData;
}

function decodedSize(data: Record<string, string>, key: string): number {
  return Object.hasOwn(data, key) ? base64DecodedLength(data[key]) : 0;
}

/**
 * kube's `ValidateSecret` beyond metadata: keys, total size ≤ 1 MiB, rules of the standard types.
 * The service-account token type is also the domain's (`orch.io/service-account-token`, with its
 * `orch.io/service-account.name` annotation), the type Orch's token controller fills.
 */
export function validateSecretData(secret: Secret, domain: ApiDomain = ORCH_DOMAIN): FieldError[] {
  const errs: FieldError[] = [];
  const data = secret.data ?? {};
  let total = 0;
  for (const [key, value] of Object.entries(data)) {
    for (const msg of isConfigMapKey(key)) errs.push(fieldErrors.invalid(keyPath('data', key), key, msg));
    total += base64DecodedLength(value);
  }
  if (total > MAX_CONFIG_DATA_SIZE_BYTES) errs.push(fieldErrors.tooLong('data', MAX_CONFIG_DATA_SIZE_BYTES));
  errs.push(...validateSecretType(secret, data, domain));
  return errs;
}

function validateDockerConfig(data: Record<string, string>, key: string): FieldError[] {
  if (!Object.hasOwn(data, key)) return [fieldErrors.required(keyPath('data', key))];
  const problem = goJsonObjectError(Buffer.from(data[key], 'base64').toString('utf8'));
  return problem ? [fieldErrors.invalid(keyPath('data', key), '<secret contents redacted>', problem)] : [];
}

function validateSecretType(secret: Secret, data: Record<string, string>, domain: ApiDomain): FieldError[] {
  if (secret.type === domain.key('', 'service-account-token')) {
    const annotation = domain.key('', 'service-account.name');
    return secret.metadata?.annotations?.[annotation]
      ? []
      : [fieldErrors.required(keyPath('metadata.annotations', annotation))];
  }
  switch (secret.type) {
    case SecretType.ServiceAccountToken:
      // Only the name is required; the uid and token are filled in later by a controller.
      if (!secret.metadata?.annotations?.[SERVICE_ACCOUNT_NAME_ANNOTATION]) {
        return [fieldErrors.required(keyPath('metadata.annotations', SERVICE_ACCOUNT_NAME_ANNOTATION))];
      }
      return [];
    case SecretType.Dockercfg:
      return validateDockerConfig(data, '.dockercfg');
    case SecretType.DockerConfigJson:
      return validateDockerConfig(data, '.dockerconfigjson');
    case SecretType.BasicAuth:
      // Either may be empty, but at least one key must be present.
      if (!Object.hasOwn(data, 'username') && !Object.hasOwn(data, 'password')) {
        return [fieldErrors.required(keyPath('data', 'username')), fieldErrors.required(keyPath('data', 'password'))];
      }
      return [];
    case SecretType.SSHAuth:
      return decodedSize(data, 'ssh-privatekey') === 0 ? [fieldErrors.required(keyPath('data', 'ssh-privatekey'))] : [];
    case SecretType.TLS: {
      const errs: FieldError[] = [];
      if (!Object.hasOwn(data, 'tls.crt')) errs.push(fieldErrors.required(keyPath('data', 'tls.crt')));
      if (!Object.hasOwn(data, 'tls.key')) errs.push(fieldErrors.required(keyPath('data', 'tls.key')));
      return errs;
    }
    default:
      // Opaque, bootstrap tokens and custom types have no server-side content rules.
      return [];
  }
}

/** kube's `ValidateSecretUpdate` rules: `type` immutable; nothing changes once `immutable`. */
export function validateSecretImmutability(secret: Secret, old: Secret): FieldError[] {
  const errs = validateImmutableField(secret.type ?? '', old.type ?? '', 'type');
  if (old.immutable === true) {
    if (secret.immutable !== true) errs.push(fieldErrors.forbidden('immutable', IMMUTABLE_WHEN_SET));
    // stringData has already been folded into data by now.
    if (!sameData(secret.data, old.data)) errs.push(fieldErrors.forbidden('data', IMMUTABLE_WHEN_SET));
  }
  return errs;
}

/** core/v1 `secrets`. */
export function secretResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  return {
    group: '',
    version: 'v1',
    kind: 'Secret',
    listKind: 'SecretList',
    resource: 'secrets',
    singular: 'secret',
    namespaced: true,
    shortNames: [],
    categories: [],
    verbs: STANDARD_VERBS,
    subresources: [],
    allowCreateOnUpdate: false,
    hasGeneration: false,
    schema: secretSchema,
    fieldLabels: secretFieldLabels,
    tableColumns: secretTableColumns(),
    listDescription: 'A list of secrets.',
    listItemsDescription: 'The secrets.',
    strategy: schemaStrategy<Secret>({
      schema: nativeValidationSchema(secretSchema),
      namespaced: true,
      nameValidator: nameIsDNSSubdomain,
      standardFinalizers: standardFinalizers(domain),
      // Decode-time in kube: the field manager sees `data`, never `stringData`.
      defaults: prepareSecret,
      validateCreate: (secret) => validateSecretData(secret, domain),
      validateUpdate: (secret, old) => [
        ...validateSecretImmutability(secret, old),
        ...validateSecretData(secret, domain),
      ],
    }),
  };
}
