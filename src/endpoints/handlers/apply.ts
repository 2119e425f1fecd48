import { apiErrors, StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { pruneUnknownFields } from '../../apis/schema/prune.js';
import { ApplyConflictError, FieldManagerError } from '../../apply/index.js';
import {
  CborDecodeError,
  decodeCbor,
  decodeJsonStrict,
  decodeUtf8Lenient,
  decodeYamlStrict,
  type FieldValidationDirective,
  fieldValidation,
  JsonSyntaxError,
  StrictDecodingError,
  UnsupportedValueError,
  YamlSyntaxError,
  yamlStrictErrorText,
} from '../../encoding/index.js';
import type { ServedResource } from '../../registry/resource-set/index.js';
import type { RequestContext } from '../../registry/types.js';
import type { ApiRequest } from '../handler.js';
import { fieldValidationOf, MAX_REQUEST_BODY_BYTES } from './decode-body.js';
import { patchManager } from './field-managers.js';
import { parseDryRun } from './request-options.js';

/** The apply patch media types: YAML (JSON is YAML) and, on CBOR-enabled servers, CBOR. */
export type ApplyPatchType = 'apply-yaml' | 'apply-cbor';

/** The outcome of a write: the object, whether it was created (201), and `Warning` texts. */
export interface WriteResult {
  readonly obj: ApiObject;
  readonly created: boolean;
  readonly warnings: string[];
}

function goTypeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/**
 * A body that is a well-formed JSON object without repeated keys (what kubectl and the client
 * libraries send), read by the much faster JSON decoder: YAML reads such text to the same value.
 * Undefined for anything else, which then goes through the YAML decoder so that errors and
 * duplicate-key reports keep go-yaml's wording.
 */
function jsonObjectOf(text: string): Record<string, unknown> | undefined {
  if (!/^\s*\{/.test(text)) return undefined;
  try {
    const r = decodeJsonStrict(text, { detectDuplicates: true });
    const ok = r.duplicates.length === 0 && typeof r.value === 'object' && r.value !== null && !Array.isArray(r.value);
    return ok ? (r.value as Record<string, unknown>) : undefined;
  } catch (e) {
    if (e instanceof JsonSyntaxError) return undefined;
    throw e;
  }
}

/**
 * The configuration in an apply body, as kube reads it into a map: a syntax error or a body
 * that is not an object is a 400 `error decoding YAML: …`; an empty body is an empty object.
 */
function decodeConfig(raw: Buffer, type: ApplyPatchType): { config: Record<string, unknown>; duplicates: string[] } {
  let value: unknown;
  let duplicates: string[] = [];
  try {
    if (type === 'apply-cbor') {
      value = decodeCbor(raw);
    } else {
      const text = decodeUtf8Lenient(raw);
      value = jsonObjectOf(text);
      if (value === undefined) {
        const r = decodeYamlStrict(text);
        value = r.value;
        duplicates = [...r.duplicates];
      }
    }
  } catch (e) {
    if (e instanceof YamlSyntaxError || e instanceof UnsupportedValueError) {
      throw new StatusError(
        400,
        'BadRequest',
        `error decoding YAML: error converting YAML to JSON: ${e.message}`,
        undefined,
        {
          cause: e,
        },
      );
    }
    if (e instanceof CborDecodeError) {
      throw new StatusError(400, 'BadRequest', `error decoding CBOR: ${e.message}`, undefined, { cause: e });
    }
    throw e;
  }
  if (value === null || value === undefined) return { config: {}, duplicates };
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw apiErrors.badRequest(
      `error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${goTypeName(value)} into Go value of type map[string]interface {}`,
    );
  }
  return { config: value as Record<string, unknown>, duplicates };
}

/**
 * Unknown fields are pruned from the configuration and, like duplicate YAML keys, reported per
 * `fieldValidation`: warnings, nothing, or 400 `error strict decoding YAML: …` under Strict.
 */
function validateFields(
  directive: FieldValidationDirective,
  unknown: readonly string[],
  duplicates: readonly string[],
): string[] {
  const errors: string[] = [];
  if (duplicates.length > 0) errors.push(`error converting YAML to JSON: ${yamlStrictErrorText(duplicates)}`);
  for (const path of unknown) errors.push(`unknown field "${path}"`);
  try {
    return fieldValidation(directive, errors).warnings;
  } catch (e) {
    if (e instanceof StrictDecodingError) {
      throw new StatusError(400, 'BadRequest', `error strict decoding YAML: ${errors.join(', ')}`, undefined, {
        cause: e,
      });
    }
    throw e;
  }
}

/**
 * Server-side apply (`PATCH` with `application/apply-patch+yaml`, or `+cbor` when enabled):
 * merges the configuration into the live object inside the registry's retry loop, so each retry
 * merges against the freshest object; creates the object when it is missing (main resource
 * only). `fieldManager` is required (422 otherwise), `force` takes over conflicting fields; an
 * apply changing fields another manager owns answers 409 `Conflict` with one cause per field. A
 * `metadata.resourceVersion` in the configuration makes the apply conditional (409 on mismatch,
 * no retry). The registry then validates and defaults as for any update.
 */
export async function handleApply(
  served: ServedResource,
  req: ApiRequest,
  ctx: RequestContext,
  o: { readonly type: ApplyPatchType },
): Promise<WriteResult> {
  const info = req.info!;
  const { manager, force } = patchManager(req, true);
  const dryRun = parseDryRun(req.query.getAll('dryRun'));
  const directive = fieldValidationOf(req, 'PatchOptions');
  const { config, duplicates } = decodeConfig(await req.readBody(MAX_REQUEST_BODY_BYTES), o.type);
  const unknown = pruneUnknownFields(served.def.schema, config);
  const warnings = validateFields(directive, unknown, duplicates);
  const subresource = info.subresource || undefined;
  const writeOptions = served.fields.writeOptions(subresource);
  const fm = served.fields.fieldManager;
  const meta = config.metadata as { resourceVersion?: unknown; uid?: unknown } | undefined;
  const pinned = typeof meta === 'object' && meta !== null && !!meta.resourceVersion;
  const r = await served.store.update(
    ctx,
    info.name,
    {
      retryOnConflict: !pinned,
      compute(live) {
        if (!live && typeof meta?.uid === 'string' && meta.uid !== '') {
          throw apiErrors.conflict(
            { group: served.def.group, resource: served.def.resource },
            info.name,
            `uid mismatch: the provided object specified uid ${meta.uid}, and no existing object was found`,
          );
        }
        try {
          return fm.apply(live, config as ApiObject, manager, force, writeOptions);
        } catch (e) {
          if (e instanceof ApplyConflictError || e instanceof FieldManagerError) throw e.toStatusError();
          throw e;
        }
      },
    },
    // Sub-resources never create (kube's status stores pass forceAllowCreate=false).
    { dryRun, subresource, createIfMissing: !subresource },
  );
  return { obj: r.obj, created: r.created, warnings };
}
