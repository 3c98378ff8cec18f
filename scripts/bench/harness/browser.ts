// The browser profiles every section measures pages with (desktop, and a throttled phone), and how a
// profile's throttling is applied to a page.
import type { BrowserContextOptions, CDPSession } from 'playwright-core'

export type ProfileName = 'desktop' | 'phone'

export type Profile = {
  name: ProfileName
  context: BrowserContextOptions
  /** CPU slowdown and network shaping through the DevTools protocol; none = the machine as it is. */
  throttle?: { cpuRate: number; latencyMs: number; bytesPerSecond: number }
}

const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36'

export const PROFILES: Profile[] = [
  { name: 'desktop', context: { viewport: { width: 1280, height: 800 } } },
  {
    name: 'phone',
    context: {
      viewport: { width: 390, height: 844 },
      userAgent: PHONE_UA,
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 3,
    },
    throttle: { cpuRate: 4, latencyMs: 150, bytesPerSecond: 200_000 },
  },
]

export async function applyThrottle(cdp: CDPSession, throttle: Profile['throttle']) {
  if (!throttle) return
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle.cpuRate })
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: throttle.latencyMs,
    downloadThroughput: throttle.bytesPerSecond,
    uploadThroughput: throttle.bytesPerSecond,
  })
}
