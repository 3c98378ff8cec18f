import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, test } from 'vitest'
import {
  abbreviateNumber,
  abbreviateTokenAmount,
  displayName,
  formatTokenAmount,
  shortenAddress,
  shortenName,
} from './format.ts'

/**
 * RainbowKit's own formatters, taken from the installed package (they are not exported): the account
 * button shows balances and names with these, and ours must agree with them. Its `< 10 000` branch
 * formats with `new Intl.NumberFormat()` in the browser's locale; ours always uses en-US on purpose,
 * so the reference runs with en-US as its default locale.
 */
function rainbowKitFormatters() {
  const file = createRequire(import.meta.url).resolve('@rainbow-me/rainbowkit')
  const source = readFileSync(file, 'utf8')
  const start = source.indexOf('// src/components/ConnectButton/abbreviateETHBalance.ts')
  const end = source.indexOf('// src/components/Icons/Copied.tsx')
  if (start < 0 || end < start) throw new Error(`RainbowKit's formatters were not found in ${file}`)
  const EnUsIntl = {
    ...Intl,
    NumberFormat: function NumberFormat(locale?: string, options?: Intl.NumberFormatOptions) {
      return new Intl.NumberFormat(locale ?? 'en-US', options)
    },
  }
  const load = new Function(
    'Intl',
    `${source.slice(start, end)}\nreturn { abbreviateETHBalance, formatAddress, formatENS }`,
  )
  return load(EnUsIntl) as {
    abbreviateETHBalance: (value: number) => string
    formatAddress: (address: string) => string
    formatENS: (name: string) => string
  }
}
const rainbowKit = rainbowKitFormatters()

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

describe('shortenAddress', () => {
  test('an address of 8 characters or more shows its first 4 and last 4 characters around "…"', () => {
    expect(shortenAddress(ADDRESS)).toBe('0xf3…2266')
    expect(shortenAddress('abcdefgh')).toBe('abcd…efgh')
  })

  test('an address shorter than 8 characters is shown whole', () => {
    expect(shortenAddress('abcdefg')).toBe('abcdefg')
    expect(shortenAddress('0x1')).toBe('0x1')
    expect(shortenAddress('')).toBe('')
  })

  test("matches RainbowKit's formatAddress for every length from 0 to 42", () => {
    for (let length = 0; length <= ADDRESS.length; length++) {
      const address = ADDRESS.slice(0, length)
      expect(shortenAddress(address), address).toBe(rainbowKit.formatAddress(address))
    }
  })
})

describe('shortenName', () => {
  test('a name whose label part is at most 24 characters is shown whole', () => {
    expect(shortenName('vitalik.eth')).toBe('vitalik.eth')
    expect(shortenName(`${'a'.repeat(24)}.eth`)).toBe(`${'a'.repeat(24)}.eth`)
    expect(shortenName('pay.vitalik.eth')).toBe('pay.vitalik.eth')
  })

  test('a label part longer than 24 characters is cut at 24 and ends in "..." without the top-level name', () => {
    expect(shortenName(`${'a'.repeat(25)}.eth`)).toBe(`${'a'.repeat(24)}...`)
    expect(shortenName('a-very-long-subdomain-name.guildhall.eth')).toBe('a-very-long-subdomain-na...')
  })

  test("matches RainbowKit's formatENS for names with a top-level name, short and long", () => {
    const names = [
      'a.eth',
      'vitalik.eth',
      `${'x'.repeat(23)}.eth`,
      `${'x'.repeat(24)}.eth`,
      `${'x'.repeat(25)}.eth`,
      `${'x'.repeat(40)}.eth`,
      'sub.domain.of.a.name.that.is.long.eth',
      'guildhall.xyz',
    ]
    for (const name of names) expect(shortenName(name), name).toBe(rainbowKit.formatENS(name))
  })

  test('an empty name stays empty, and a name without a dot is shown whole (RainbowKit would show ".eth")', () => {
    expect(shortenName('')).toBe('')
    expect(rainbowKit.formatENS('')).toBe('')
    expect(shortenName('eth')).toBe('eth')
  })

  test('displayName prefers the name, shortened, and falls back to the shortened address', () => {
    expect(displayName(ADDRESS, 'vitalik.eth')).toBe('vitalik.eth')
    expect(displayName(ADDRESS, `${'a'.repeat(30)}.eth`)).toBe(`${'a'.repeat(24)}...`)
    expect(displayName(ADDRESS, null)).toBe('0xf3…2266')
    expect(displayName(ADDRESS, '')).toBe('0xf3…2266')
    expect(displayName(ADDRESS)).toBe('0xf3…2266')
  })
})

describe('abbreviateNumber', () => {
  test('below 1: cut (not rounded) to 3 decimals, trailing zeros dropped', () => {
    expect(abbreviateNumber(0)).toBe('0')
    expect(abbreviateNumber(0.1239)).toBe('0.123')
    expect(abbreviateNumber(0.9999)).toBe('0.999')
    expect(abbreviateNumber(0.5)).toBe('0.5')
    expect(abbreviateNumber(0.1001)).toBe('0.1')
    expect(abbreviateNumber(0.0001)).toBe('0')
  })

  test('from 1 to below 100: cut to 2 decimals', () => {
    expect(abbreviateNumber(1)).toBe('1')
    expect(abbreviateNumber(1.239)).toBe('1.23')
    expect(abbreviateNumber(99.999)).toBe('99.99')
    expect(abbreviateNumber(12.1)).toBe('12.1')
    expect(abbreviateNumber(1.001)).toBe('1')
  })

  test('decimals are cut from the number as written, so binary floating point never loses a digit (4.35, 1.13, 9.7)', () => {
    // 4.35 * 100 is 434.99999999999994 in binary floating point.
    expect(abbreviateNumber(4.35)).toBe('4.35')
    expect(abbreviateNumber(1.13)).toBe('1.13')
    expect(abbreviateNumber(9.7)).toBe('9.7')
    expect(abbreviateNumber(0.29)).toBe('0.29')
  })

  test('from 100 to below 10 000: cut to 1 decimal, with en-US thousands separators', () => {
    expect(abbreviateNumber(100)).toBe('100')
    expect(abbreviateNumber(123.456)).toBe('123.4')
    expect(abbreviateNumber(1234.56)).toBe('1,234.5')
    expect(abbreviateNumber(9999.99)).toBe('9,999.9')
    expect(abbreviateNumber(5000)).toBe('5,000')
  })

  test('from 10 000: k, m, b and t with one decimal, cut not rounded', () => {
    expect(abbreviateNumber(10_000)).toBe('10k')
    expect(abbreviateNumber(12_345)).toBe('12.3k')
    expect(abbreviateNumber(999_999)).toBe('999.9k')
    expect(abbreviateNumber(1_000_000)).toBe('1m')
    expect(abbreviateNumber(4_560_000)).toBe('4.5m')
    expect(abbreviateNumber(6_789_000_000)).toBe('6.7b')
    expect(abbreviateNumber(8_900_000_000_000)).toBe('8.9t')
    expect(abbreviateNumber(1_234_000_000_000_000)).toBe('1234t')
  })

  test("matches RainbowKit's abbreviateETHBalance in every branch, on a sweep of 30 000 values", () => {
    const values: number[] = [0, 1e-7, 0.0501, 0.0109, 10.05, 10_050, 20_500, 1.005, 99.995, 9_999.95]
    // Values with 0 to 4 decimals spread over 0.0001 … 10^15: every branch and suffix, and many
    // decimals that binary floating point cannot hold exactly.
    let seed = 42
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
      return seed / 2 ** 31
    }
    for (let i = 0; i < 30_000; i++) {
      const decimals = Math.floor(random() * 5)
      values.push(Math.round(random() * 10 ** (random() * 15 + decimals)) / 10 ** decimals)
    }
    const mismatches = values
      .map((value) => ({
        value,
        ours: abbreviateNumber(value),
        rainbowKit: rainbowKit.abbreviateETHBalance(value),
      }))
      .filter(({ ours, rainbowKit }) => ours !== rainbowKit)
    expect(mismatches).toEqual([])
  })

  test("keeps RainbowKit's quirks: a zero after the first decimal stays (0.0501 → 0.050), tiny values in exponent form", () => {
    expect(abbreviateNumber(0.0501)).toBe('0.050')
    expect(abbreviateNumber(1e-7)).toBe('1e-7')
    expect(rainbowKit.abbreviateETHBalance(0.0501)).toBe('0.050')
  })

  test('abbreviateTokenAmount shortens a bigint amount in base units', () => {
    expect(abbreviateTokenAmount(1_500n * 10n ** 18n, 18)).toBe('1,500')
    expect(abbreviateTokenAmount(15_000n * 10n ** 18n, 18)).toBe('15k')
    expect(abbreviateTokenAmount(123_456_789n, 6)).toBe('123.4')
    expect(abbreviateTokenAmount(0n, 18)).toBe('0')
  })
})

describe('formatTokenAmount', () => {
  test('groups thousands (en-US) and is never abbreviated', () => {
    expect(formatTokenAmount(1_000n * 10n ** 18n, 18)).toBe('1,000')
    expect(formatTokenAmount(1_234_567_890n * 10n ** 18n, 18)).toBe('1,234,567,890')
    expect(formatTokenAmount(0n, 18)).toBe('0')
  })

  test('keeps at most 2 decimals by default, cut (not rounded), trailing zeros dropped', () => {
    expect(formatTokenAmount(1_999_999n * 10n ** 12n, 18)).toBe('1.99')
    expect(formatTokenAmount(1_500_000_000_000_000_000n, 18)).toBe('1.5')
    expect(formatTokenAmount(1_000_000_000_000_000_001n, 18)).toBe('1')
    expect(formatTokenAmount(5n * 10n ** 15n, 18)).toBe('0')
  })

  test('maxFraction sets the number of decimals kept', () => {
    expect(formatTokenAmount(1_234_567n, 6, 4)).toBe('1.2345')
    expect(formatTokenAmount(1_234_567n, 6, 0)).toBe('1')
    expect(formatTokenAmount(1n, 18, 18)).toBe('0.000000000000000001')
  })

  test('works with 0 decimals and with amounts beyond Number precision', () => {
    expect(formatTokenAmount(1_234n, 0)).toBe('1,234')
    expect(formatTokenAmount(2n ** 96n, 18)).toBe('79,228,162,514.26')
  })
})
