import { mentionTokens } from '@guildhall/core'
import type { Address } from 'viem'
import { fetchResolvedName } from '../../lib/resolve-name.ts'

/**
 * The address of each `@name.eth` / `@0x…` token of `body`, in order, as signed with it: a name is resolved
 * now, by the app's name service, so a name changed later cannot re-point the mention.
 */
export function resolveMentions(body: string): Promise<Address[]> {
  return Promise.all(
    mentionTokens(body).map(
      async (token) => token.address ?? (await fetchResolvedName(token.name ?? '')).address,
    ),
  )
}

/**
 * `body` with each mention made a markdown link to the member page of the address signed for it, so the
 * link follows the stored address, whatever the name says today.
 */
export function linkMentions(body: string, mentions: readonly string[]): string {
  const tokens = mentionTokens(body)
  if (tokens.length !== mentions.length) return body
  let out = ''
  let from = 0
  tokens.forEach(({ text, index }, i) => {
    out += `${body.slice(from, index)}[${text}](/members/${mentions[i]})`
    from = index + text.length
  })
  return out + body.slice(from)
}
