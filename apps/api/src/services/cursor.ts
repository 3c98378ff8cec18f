// Page links for keyset pagination: the last row's sort key, opaque to clients (base64url), checked on return.
import { ApiError } from '../errors.ts'

export function encodeCursor(parts: readonly (string | number | bigint)[]): string {
  return Buffer.from(parts.join(':')).toString('base64url')
}

/** The parts of a cursor this list wrote (`shape` matches its whole text), or a 400. */
export function decodeCursor(text: string, shape: RegExp): string[] {
  const match = shape.exec(Buffer.from(text, 'base64url').toString('utf8'))
  if (!match) {
    throw new ApiError(
      400,
      'bad_cursor',
      'This page link is not valid for this list (it may belong to another order or filter); start from the first page.',
    )
  }
  return match.slice(1).map((part) => part ?? '')
}
