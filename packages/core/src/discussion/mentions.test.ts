import { getAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { mentionsProblem, mentionTokens } from './mentions.ts'
import { ada, ben } from './thread-test-kit.ts'

const lower = ada.address.toLowerCase()

describe('mentions', () => {
  test('behavior: names ending .eth and 0x addresses are tokens, in order, with their positions; an address token carries its checksummed address', () => {
    const body = `Thanks @ada.eth and @${lower}, (@sub.ben.eth)!`
    expect(mentionTokens(body)).toEqual([
      { text: '@ada.eth', index: 7, name: 'ada.eth', address: null },
      { text: `@${lower}`, index: 20, name: null, address: ada.address },
      { text: '@sub.ben.eth', index: 66, name: 'sub.ben.eth', address: null },
    ])
  })

  test('behavior: e-mail addresses, longer hex, other top-level names and paths are not mentions', () => {
    expect(
      mentionTokens(`mail ada@ada.eth, @${lower}ff, @ada.xyz, @ada.ethereum, site.com/@ada.eth, @ada`),
    ).toEqual([])
  })

  test('behavior: mentions inside inline code, fenced and indented code blocks are ignored', () => {
    const body = [
      'Ask `@ada.eth` or ``@ben.eth ` here``, really @cleo.eth',
      '```',
      '@dan.eth',
      '```',
      '~~~~md',
      '@eve.eth',
      '~~~~',
      '',
      '    @fay.eth in an indented block',
      '',
      'and @gus.eth',
    ].join('\n')
    expect(mentionTokens(body).map((token) => token.text)).toEqual(['@cleo.eth', '@gus.eth'])
  })

  test('behavior: mentionsProblem accepts one address per token in order, and names a count mismatch or an @0x token signed as another address', () => {
    const body = `@ada.eth meet @${lower}`
    expect(mentionsProblem(body, [ben.address, ada.address])).toBeNull()
    expect(mentionsProblem('no mentions', [])).toBeNull()
    expect(mentionsProblem(body, [ada.address])).toBe(
      'The text mentions 2 members but 1 address is signed with it: one address for each mention, in order.',
    )
    expect(mentionsProblem('`@ada.eth` in code', [ada.address])).toBe(
      'The text mentions 0 members but 1 address is signed with it: one address for each mention, in order.',
    )
    expect(mentionsProblem(body, [ada.address, ben.address])).toBe(
      `Mention 2 (@${lower}) is signed as ${getAddress(ben.address)}, not as its own address.`,
    )
  })
})
