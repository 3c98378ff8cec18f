// The connect button on a desktop browser: labelled "Connect Wallet", absent until the app has mounted, and
// a stand-in (ADR 008) until RainbowKit's takes over, without a blink and without losing a press.
import { connectButton, expect, test } from '../support/fixtures.ts'
import { connectDialog } from './connect-helpers.ts'

test('connect button is labelled "Connect Wallet", absent until the app has mounted, and never blinks when RainbowKit takes over', async ({
  page,
  app,
}) => {
  // Record which "Connect Wallet" button is on screen, from before the app runs until RainbowKit's is
  // usable: the stand-in (ADR 008) first, RainbowKit's once its kit has loaded; never none in between.
  await page.addInitScript(() => {
    const states: string[] = []
    ;(window as unknown as { __connectButtonStates: string[] }).__connectButtonStates = states
    const opaque = (element: Element | null) =>
      element !== null &&
      getComputedStyle(element).visibility === 'visible' &&
      getComputedStyle(element).opacity === '1' &&
      getComputedStyle(element.parentElement as Element).opacity === '1'
    // Where the stand-in sits: it must never move.
    const positions: string[] = []
    ;(window as unknown as { __standInPositions: string[] }).__standInPositions = positions
    const record = () => {
      const rainbowKit = document.querySelector('[data-testid="rk-connect-button"]')
      const standIn = document.querySelector<HTMLElement>('.connect-stand-in')
      // Once its label is there: the HTML parser may insert the shell's button before its text, and an
      // empty button sits lower and narrower (measured: 1246,25 against 1189,28 at 1280 px).
      if (standIn?.textContent === 'Connect Wallet') {
        // Its centre: the hover transform scales it about the centre.
        const box = standIn.getBoundingClientRect()
        const position = `${Math.round(box.left + box.width / 2)},${Math.round(box.top + box.height / 2)}`
        if (!positions.includes(position)) positions.push(position)
      }
      // The stand-in is aria-hidden while it covers RainbowKit's button (one accessible button at a time),
      // so only its looks count; RainbowKit's counts once it is neither transparent nor aria-hidden.
      const state =
        opaque(rainbowKit) && rainbowKit?.closest('[aria-hidden="true"]') === null
          ? 'RainbowKit'
          : opaque(standIn)
            ? 'stand-in'
            : 'none'
      if (states.at(-1) !== state) states.push(state)
    }
    record()
    new MutationObserver(record).observe(document, { subtree: true, childList: true, attributes: true })
    // Opacity transitions change no attribute: sample every frame too.
    const everyFrame = () => {
      record()
      requestAnimationFrame(everyFrame)
    }
    requestAnimationFrame(everyFrame)
  })
  // Hold the app's own chunk, the entry module index.html names (vite.config.ts groups the first page's
  // code into vendor and the app's own): until it runs there is no usable button.
  const indexHtml = await (await fetch(app.url)).text()
  const entry = /<script type="module"[^>]*\bsrc="([^"]+)"/.exec(indexHtml)?.[1]
  expect(entry).toMatch(/^\/assets\/[\w-]+\.js$/)
  let releaseBundle = () => {}
  const bundleHeld = new Promise<void>((resolve) => {
    releaseBundle = resolve
  })
  let bundleRequested = () => {}
  const requested = new Promise<void>((resolve) => {
    bundleRequested = resolve
  })
  await page.route(new URL(entry ?? '', app.url).href, async (route) => {
    bundleRequested()
    await bundleHeld
    await route.continue()
  })
  await page.goto(app.url, { waitUntil: 'commit' })
  await requested
  // The server's page is there with its app shell, whose stand-in only holds the button's place (hidden):
  // the app has not rendered into it yet, so there is no button to press.
  await expect(page.locator('header.header')).toBeVisible()
  await expect(page.locator('.connect-stand-in')).toBeHidden()
  await expect(connectButton(page)).toHaveCount(0)

  releaseBundle()
  await expect(connectButton(page)).toBeVisible()
  await expect(connectButton(page)).toHaveText('Connect Wallet')
  // The wallet kit loads right after the first render (ADR 013); RainbowKit's own button takes the
  // stand-in's place.
  await expect(page.getByTestId('rk-connect-button')).toHaveAccessibleName('Connect Wallet')
  await expect(page.locator('.connect-stand-in')).toHaveCount(0)
  const states = await page.evaluate(
    () => (window as unknown as { __connectButtonStates: string[] }).__connectButtonStates,
  )
  expect(states).toEqual(['none', 'stand-in', 'RainbowKit'])
  // A click aimed at the stand-in while RainbowKit mounts beneath it must still land on it; and the app's
  // stand-in takes exactly the place the shell's held.
  const positions = await page.evaluate(
    () => (window as unknown as { __standInPositions: string[] }).__standInPositions,
  )
  expect(positions).toHaveLength(1)
})

test('a press on "Connect Wallet" under way while RainbowKit takes over still opens the connect modal', async ({
  page,
  app,
}) => {
  // The kit is held back until the button is pressed, then loads while it is held down (on a slow phone
  // a tap can start just before the kit is ready). If the stand-in went away under the press, the
  // release would land on its replacement, the click on their common ancestor, and nothing would open.
  let release = () => {}
  const pressed = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route(/\/assets\/wallet-kit-[^/]*\.js$/, async (route) => {
    await pressed
    await route.continue()
  })
  await page.goto(app.url)
  await connectButton(page).hover()
  await page.mouse.down()
  release()
  await expect(page.getByTestId('rk-connect-button')).toBeAttached()
  // RainbowKit shows its button two frames after mounting; give it many more.
  await page.waitForTimeout(500)
  await expect(page.locator('.connect-stand-in')).toBeVisible()
  await page.mouse.up()
  await expect(connectDialog(page)).toBeVisible()
  await expect(page.locator('.connect-stand-in')).toHaveCount(0)
})
