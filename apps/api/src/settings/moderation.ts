// The variables of moderation (ADR 054): who the moderators are, and how many flags from members with power
// hide a comment until a moderator decides.
import { type Address, getAddress, isAddress } from 'viem'
import { z } from 'zod'
import { csv } from './csv.ts'

const address = z
  .string()
  .refine((v) => isAddress(v, { strict: false }), 'must be a 0x-prefixed 20-byte address')
  .transform((v) => getAddress(v))

export const moderationVariables = z.object({
  /** The addresses that may hide, unhide, lock and unlock (comma-separated); empty: no moderators. */
  MODERATORS: z
    .string()
    .default('')
    .transform(csv)
    .pipe(z.array(address).refine((list) => new Set(list).size === list.length, 'lists a moderator twice')),
  /** Flags from members with voting power or tokens that hide a comment until a moderator decides. */
  DISCUSSION_FLAGS_TO_HIDE: z.coerce.number().int().min(1).max(1000).default(3),
})

export interface ModerationSettings {
  /** Checksummed, each once. */
  moderators: Address[]
  flagsToHide: number
}

export const moderationSettings = (e: z.output<typeof moderationVariables>): ModerationSettings => ({
  moderators: e.MODERATORS,
  flagsToHide: e.DISCUSSION_FLAGS_TO_HIDE,
})
