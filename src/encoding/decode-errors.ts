/**
 * kube-apiserver's wording for bodies it cannot decode (`transformDecodeError`), for the 400
 * answers of create and update. Pure.
 */

/** kube's `summarizeData`: `<empty>`, the text up to 30 bytes when it starts with `{`, else hex. */
export function summarizeData(body: Uint8Array, maxLength = 30): string {
  if (body.length === 0) return '<empty>';
  const cut = body.length > maxLength;
  const head = Buffer.from(body.subarray(0, maxLength));
  const shown = body[0] === 0x7b ? head.toString('utf8') : head.toString('hex');
  return cut ? `${shown} ...` : shown;
}

/**
 * The message when the body's kind is known: `ConfigMap in version "v1" cannot be handled as a
 * ConfigMap: strict decoding error: unknown field "x"`.
 */
export function cannotBeHandledMessage(args: {
  kind: string;
  version: string;
  targetKind: string;
  cause: string;
}): string {
  return `${args.kind} in version ${JSON.stringify(args.version)} cannot be handled as a ${args.targetKind}: ${args.cause}`;
}

/**
 * The message when the body could not even be read for its kind: `the object provided is
 * unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error:
 * unexpected end of JSON input ({"apiVersion": ...)`.
 */
export function unrecognizedObjectMessage(args: { targetKind: string; cause: string; body: Uint8Array }): string {
  return `the object provided is unrecognized (must be of type ${args.targetKind}): ${args.cause} (${summarizeData(args.body)})`;
}
