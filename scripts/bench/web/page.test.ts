import { type Browser, chromium } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { CHROMIUM_ARGS, findChromium } from '../../../e2e/support/chromium.ts'
import { probe, RAINBOWKIT_SELECTORS } from './probe.ts'

// Guildhall's header in the order a phone sees it: the server's shell holds the button's place with an
// invisible copy, the app's stand-in then shows, and RainbowKit's button takes over, rendered hidden
// (aria-hidden, opacity 0) until it has mounted.
const page = `<!doctype html><html><body><div id="slot">
<button type="button" style="visibility:hidden" tabindex="-1">Connect Wallet</button></div>
<script>
  const slot = document.getElementById('slot');
  setTimeout(() => { slot.innerHTML = '<button type="button" id="stand-in">Connect Wallet</button>'; }, 300);
  setTimeout(() => {
    document.getElementById('stand-in').setAttribute('aria-hidden', 'true');
    slot.insertAdjacentHTML('beforeend', '<div id="kit" aria-hidden="true" style="opacity:0"><button type="button" data-testid="rk-connect-button">Connect Wallet</button></div>');
  }, 600);
  setTimeout(() => { const kit = document.getElementById('kit'); kit.removeAttribute('aria-hidden'); kit.style.opacity = '1'; }, 900);
</script></body></html>`

let browser: Browser
beforeAll(async () => {
  const executablePath = findChromium()
  if (!executablePath) throw new Error('no Chromium found: install one or set CHROMIUM_PATH')
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS })
})
afterAll(() => browser?.close())

test('"Connect Wallet" is visible when a person can see it and ready when the real button shows, not when the shell\'s invisible copy arrives', async () => {
  const tab = await browser.newPage()
  await tab.route('http://bench.test/', (route) => route.fulfill({ contentType: 'text/html', body: page }))
  await tab.addInitScript({ content: probe(RAINBOWKIT_SELECTORS) })
  await tab.goto('http://bench.test/')
  await expect.poll(() => tab.evaluate('window.__bench.connectReady'), { timeout: 10_000 }).not.toBeNull()
  const { connectVisible, connectReady } = (await tab.evaluate('window.__bench')) as Record<string, number>
  expect(connectVisible).toBeGreaterThanOrEqual(300)
  expect(connectVisible).toBeLessThan(600)
  expect(connectReady).toBeGreaterThanOrEqual(900)
  // A tap at first sight aims at the button shown: the real one now, the stand-in being aria-hidden.
  const box = await tab.getByTestId('rk-connect-button').boundingBox()
  expect(await tab.evaluate('window.__benchConnectAt()')).toEqual({
    x: (box?.x ?? 0) + (box?.width ?? 0) / 2,
    y: (box?.y ?? 0) + (box?.height ?? 0) / 2,
  })
  await tab.close()
})
