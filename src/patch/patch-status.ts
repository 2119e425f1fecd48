import { StatusError } from '../apis/meta/status.js';
import { JsonPatchError, type StrategicMergePatchError } from './errors.js';

/**
 * kube's `NewGenericServerResponse(422, …)` message: what clients see for a JSON patch that does
 * not apply and for the 422 strategic-merge failures. The library's own message is not sent.
 */
export const UNPROCESSABLE_PATCH_MESSAGE = 'the server rejected our request due to an error in our request';

/**
 * The `Status` kube-apiserver v1.32 answers for a patch failure:
 * - JSON patch `invalid-patch`: 400 BadRequest with the decode message;
 * - JSON patch `too-many-operations`: 413 RequestEntityTooLarge, `Request entity too large: …`;
 * - JSON patch `invalid-operation`, `invalid-path`, `test-failed`: 422 Invalid, generic message,
 *   empty `details`;
 * - strategic merge: 400 BadRequest with the message, 422 as above, or 500 with no reason and
 *   the message (kube passes those errors through untranslated).
 */
export function patchErrorToStatusError(err: JsonPatchError | StrategicMergePatchError): StatusError {
  if (err instanceof JsonPatchError) {
    switch (err.kind) {
      case 'invalid-patch':
        return new StatusError(400, 'BadRequest', err.message, undefined, { cause: err });
      case 'too-many-operations':
        return new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: ${err.message}`, undefined, {
          cause: err,
        });
      default:
        return new StatusError(422, 'Invalid', UNPROCESSABLE_PATCH_MESSAGE, {}, { cause: err });
    }
  }
  switch (err.code) {
    case 400:
      return new StatusError(400, 'BadRequest', err.message, undefined, { cause: err });
    case 422:
      return new StatusError(422, 'Invalid', UNPROCESSABLE_PATCH_MESSAGE, {}, { cause: err });
    default:
      return new StatusError(500, '', err.message, undefined, { cause: err });
  }
}
