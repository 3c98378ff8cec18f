/**
 * Mentions in a markdown body: `@name.eth` and `@0x…` tokens outside code. A signed message carries one
 * checksummed address per token, in order (an `@0x…` token's own address, a name's as the client resolved
 * it when signing), so a name re-pointed later cannot change whom a comment mentioned.
 */
import { type Address, getAddress } from 'viem'

export type MentionToken = {
  /** As written, with its `@`. */
  text: string
  /** Where it starts in the body (UTF-16 index of the `@`). */
  index: number
  /** `ada.eth` for a name token, else null. */
  name: string | null
  /** An `@0x…` token's own address, checksummed; null for a name. */
  address: Address | null
}

// After the start or a character that cannot end a word, an e-mail address or a path: `@` then 40 hex
// digits, or dot-separated labels ending `.eth`, not followed by more of a name.
const TOKEN =
  /(?<![\p{L}\p{N}_.@/-])@(?:(0x[0-9a-fA-F]{40})(?![\p{L}\p{N}_])|((?:[\p{L}\p{N}_-]+\.)+eth)(?![\p{L}\p{N}_-]|\.[\p{L}\p{N}_-]))/gu

/**
 * `body` with its code blanked out (same length, so indexes still point into the body): fenced blocks
 * (``` or ~~~), indented blocks (4 spaces or a tab after a blank line) and inline code spans, where a
 * markdown renderer shows `@` as text.
 */
function withoutCode(body: string): string {
  const lines = body.split('\n')
  let fence: { char: string; length: number } | null = null
  let previousBlank = true
  let inIndented = false
  const kept = lines.map((line) => {
    const blank = line.trim() === ''
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line)
    if (fence) {
      const closer = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line)
      if (closer?.[1]?.[0] === fence.char && (closer[1]?.length ?? 0) >= fence.length) fence = null
      previousBlank = false
      return ' '.repeat(line.length)
    }
    if (opener?.[1]) {
      fence = { char: opener[1][0] ?? '`', length: opener[1].length }
      previousBlank = false
      return ' '.repeat(line.length)
    }
    const indented = /^(?: {4}|\t)/.test(line) && !blank
    inIndented = indented && (previousBlank || inIndented)
    if (!blank) previousBlank = false
    else previousBlank = true
    if (blank) return line
    return inIndented ? ' '.repeat(line.length) : line
  })
  const text = kept.join('\n')
  // Inline code: a run of n backticks up to the next run of exactly n (CommonMark); an unclosed run is text.
  return text.replace(/(?<!`)(`+)(?!`)([\s\S]*?)(?<!`)\1(?!`)/g, (span) => ' '.repeat(span.length))
}

/** The mention tokens of `body`, in order, outside code. */
export function mentionTokens(body: string): MentionToken[] {
  const tokens: MentionToken[] = []
  for (const match of withoutCode(body).matchAll(TOKEN)) {
    const [text, hex, name] = match
    tokens.push({
      text,
      index: match.index,
      name: name ?? null,
      address: hex ? getAddress(hex) : null,
    })
  }
  return tokens
}

/**
 * Why `mentions` (as signed) does not fit `body`, or null: one address per token, in order, each `@0x…`
 * token's being its own. A name's address cannot be checked here: it is whatever the name resolved to.
 */
export function mentionsProblem(body: string, mentions: readonly Address[]): string | null {
  const tokens = mentionTokens(body)
  if (tokens.length !== mentions.length) {
    return `The text mentions ${tokens.length} member${tokens.length === 1 ? '' : 's'} but ${mentions.length} address${mentions.length === 1 ? ' is' : 'es are'} signed with it: one address for each mention, in order.`
  }
  for (const [index, token] of tokens.entries()) {
    const signed = mentions[index]
    if (token.address && signed !== token.address) {
      return `Mention ${index + 1} (${token.text}) is signed as ${signed}, not as its own address.`
    }
  }
  return null
}
