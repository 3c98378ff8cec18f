/** What the API's lists share: their page links, their page sizes and the searches' patterns. */
import { z } from '../zod.ts'

/** The longest page link the server writes. */
export const CURSOR_MAX_LENGTH = 200
/** A page link the server wrote (opaque to clients). */
export const cursorSchema = z.string().check(z.minLength(1), z.maxLength(CURSOR_MAX_LENGTH))
/**
 * A page link as a client sends it back: any text here; the server decodes it and answers 400 `bad_cursor`
 * for anything it did not write, too long included, so every bad link gets the same answer.
 */
export const cursorParamSchema = z.string()
export const pageLimit = (fallback: number, max: number) =>
  z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(max)), fallback)

/** The start of an address, as the votes list's and the directory's searches take it. */
export const ADDRESS_START_PATTERN = /^0x[0-9a-fA-F]{0,40}$/
/**
 * The start of a name, as the directory's search takes it: what an ENS name is made of (letters, marks and
 * digits of any script, emoji, `.`, `-`, `_`, `$`), never spaces, quotes or the search's own wildcards.
 */
export const NAME_START_PATTERN = /^[\p{L}\p{M}\p{N}\p{Extended_Pictographic}\p{Emoji_Component}$._-]+$/u
