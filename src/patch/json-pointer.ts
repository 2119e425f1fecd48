import { JsonPatchError } from './errors.js';

/**
 * Parses an RFC 6901 JSON pointer into its reference tokens: `''` is the whole document, every
 * other pointer starts with `/`; `~1` decodes to `/` and `~0` to `~` (in one pass, so `~01` is
 * `~1`). Throws `JsonPatchError('invalid-path')` on any other `~` escape or a missing leading `/`.
 */
export function parseJsonPointer(pointer: string, operationIndex?: number): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) {
    throw new JsonPatchError(
      'invalid-path',
      `JSON pointer must be empty or start with "/": "${pointer}"`,
      operationIndex,
    );
  }
  return pointer
    .slice(1)
    .split('/')
    .map((token) => {
      if (/~(?![01])/.test(token)) {
        throw new JsonPatchError('invalid-path', `invalid escape in JSON pointer "${pointer}"`, operationIndex);
      }
      return token.replace(/~[01]/g, (seq) => (seq === '~1' ? '/' : '~'));
    });
}

/**
 * The array index a reference token names: decimal digits without leading zeros, or `-` (one
 * past the end) where `allowEnd` permits it. An index may equal `length` only with `allowEnd`
 * (insertion); otherwise it must name an existing element.
 */
export function parseArrayIndex(
  token: string,
  length: number,
  options: { allowEnd: boolean; pointer: string; operationIndex?: number },
): number {
  const { allowEnd, pointer, operationIndex } = options;
  if (token === '-' && allowEnd) return length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) {
    throw new JsonPatchError(
      'invalid-path',
      `value was not a proper array index: '${token}' (path "${pointer}")`,
      operationIndex,
    );
  }
  const index = Number(token);
  if (index > length || (index === length && !allowEnd)) {
    throw new JsonPatchError(
      'invalid-path',
      `Unable to access invalid index: ${token} (path "${pointer}"): invalid index referenced`,
      operationIndex,
    );
  }
  return index;
}
