import { formatUnits } from 'viem'
import { ADDRESS_SHORTEN_KEEP, ADDRESS_SHORTEN_MIN_LENGTH, NAME_MAX_LENGTH } from './constants.ts'

/** `0x1234…abcd`: first and last 4 characters; anything shorter than 8 characters is shown whole. */
export function shortenAddress(address: string): string {
  if (address.length < ADDRESS_SHORTEN_MIN_LENGTH) return address
  return `${address.slice(0, ADDRESS_SHORTEN_KEEP)}…${address.slice(-ADDRESS_SHORTEN_KEEP)}`
}

/** Names (ENS) whose label part is longer than 24 characters are cut there, as the account button does. */
export function shortenName(name: string): string {
  const parts = name.split('.')
  const tld = parts.pop()
  const label = parts.join('.')
  if (label.length > NAME_MAX_LENGTH) return `${label.slice(0, NAME_MAX_LENGTH)}...`
  return label ? `${label}.${tld}` : (tld ?? '')
}

/** A name if there is one, else the shortened address. */
export function displayName(address: string, name?: string | null): string {
  return name ? shortenName(name) : shortenAddress(address)
}

const SUFFIXES = ['k', 'm', 'b', 't'] as const

/**
 * RainbowKit's `toPrecision`: cuts (never rounds) the decimal text of `value` to `precision` digits,
 * then drops trailing zeros the way RainbowKit does. Working on the text, not on `value * 10 ** n`,
 * keeps 4.35 from becoming 4.34 through binary floating point.
 */
function toPrecision(value: number, precision: number): string {
  return value
    .toString()
    .replace(new RegExp(`(.+\\.\\d{${precision}})\\d+`), '$1')
    .replace(/(\.[1-9]*)0+$/, '$1')
    .replace(/\.$/, '')
}

/**
 * Shortens a balance exactly like the account button (RainbowKit's `abbreviateETHBalance`): 0.123,
 * 12.34, 1,234.5, then 12.3k, 4.5m, 6.7b, 8.9t. Unlike RainbowKit the thousands separator is always
 * en-US, not the browser's locale.
 */
export function abbreviateNumber(value: number): string {
  if (value < 1) return toPrecision(value, 3)
  if (value < 100) return toPrecision(value, 2)
  if (value < 10_000) return new Intl.NumberFormat('en-US').format(Number.parseFloat(toPrecision(value, 1)))
  for (let i = SUFFIXES.length - 1; i >= 0; i--) {
    const size = 10 ** ((i + 1) * 3)
    // Same arithmetic as RainbowKit, so the same float comes out.
    if (value >= size) return `${toPrecision((value * 10) / size / 10, 1)}${SUFFIXES[i]}`
  }
  return String(value)
}

/** A token amount (bigint in base units) shortened for display, e.g. 1500 GHD → "1.5k". */
export function abbreviateTokenAmount(amount: bigint, decimals: number): string {
  return abbreviateNumber(Number(formatUnits(amount, decimals)))
}

/** A token amount with thousands separators and at most `maxFraction` decimals, never abbreviated. */
export function formatTokenAmount(amount: bigint, decimals: number, maxFraction = 2): string {
  const [whole = '0', fraction = ''] = formatUnits(amount, decimals).split('.')
  const grouped = BigInt(whole).toLocaleString('en-US')
  const cut = fraction.slice(0, maxFraction).replace(/0+$/, '')
  return cut ? `${grouped}.${cut}` : grouped
}
