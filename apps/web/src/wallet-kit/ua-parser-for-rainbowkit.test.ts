import { join } from 'node:path'
import { UAParser as RealUAParser } from 'ua-parser-js'
import type { Plugin } from 'vite'
import { describe, expect, test } from 'vitest'
import viteConfig from '../../vite.config.ts'
import { operatingSystemName } from './ua-parser-for-rainbowkit.ts'

// RainbowKit's dist/index.js (src/utils/platforms.ts): how it reads `os.name`.
function rainbowKitPlatform(osName: string | undefined): string {
  if (osName === 'Windows') return 'Windows'
  if (osName === 'macOS') return 'macOS'
  if (['Ubuntu', 'Mint', 'Fedora', 'Debian', 'Arch', 'Linux'].includes(osName ?? '')) return 'Linux'
  return 'Desktop'
}

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  'Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (X11; Fedora; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
  'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (iPad; CPU OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.7 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows Phone 10.0; Android 6.0.1; Microsoft; Lumia 950) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/52.0.2743.116 Mobile Safari/537.36 Edge/15.15063',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  '',
]

describe('the ua-parser-js stand-in inside RainbowKit', () => {
  test.each(USER_AGENTS)(
    'behavior: RainbowKit picks the same desktop platform as with ua-parser-js: %s',
    (ua) => {
      expect(rainbowKitPlatform(operatingSystemName(ua))).toBe(rainbowKitPlatform(RealUAParser(ua).os.name))
    },
  )

  test('behavior: names Windows, macOS and Linux as ua-parser-js does', () => {
    const desktop = USER_AGENTS.map((ua) => [ua, RealUAParser(ua).os.name] as const).filter(([, name]) =>
      ['Windows', 'macOS', 'Linux'].includes(name ?? ''),
    )
    expect(desktop.length).toBeGreaterThanOrEqual(9)
    for (const [ua, name] of desktop) expect(operatingSystemName(ua)).toBe(name)
  })
})

test('parameters: the build swaps ua-parser-js for the stand-in in RainbowKit only', () => {
  const plugin = (viteConfig.plugins as Plugin[]).find((p) => p.name === 'guildhall:rainbowkit-ua-parser')
  const resolveId = plugin?.resolveId as ((source: string, importer?: string) => unknown) | undefined
  const standIn = join(import.meta.dirname, 'ua-parser-for-rainbowkit.ts')
  expect(resolveId?.('ua-parser-js', '/app/node_modules/@rainbow-me/rainbowkit/dist/index.js')).toBe(standIn)
  expect(resolveId?.('ua-parser-js', '/app/node_modules/some-wallet-sdk/dist/index.js')).toBeUndefined()
  expect(resolveId?.('viem', '/app/node_modules/@rainbow-me/rainbowkit/dist/index.js')).toBeUndefined()
})
