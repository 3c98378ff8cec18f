// The connect flow on a desktop browser: the connect button, the "Connect a Wallet" modal (CONNECT and
// GET views), recent wallets, connect errors and rejections, modals closing on connect and disconnect,
// and the compact layout below 768 px. Phones: connect-mobile.spec.ts; no wallet: connect-no-wallet.spec.ts.
// Strings, test ids and sizes are RainbowKit 2.2.11's (node_modules/@rainbow-me/rainbowkit/dist/index.js), as
// patched in patches/ (ADR 018).
import type { TestWallet } from '@guildhall/devchain/wallet/playwright'
import type { Page } from '@playwright/test'
import { connect, connectButton, expect, test } from '../support/fixtures.ts'
import {
  backArrow,
  connectDialog,
  disconnectFromAccountModal,
  expectNotWhatYoureLookingFor,
  modalLayout,
  TEST_WALLET_ID,
  walletGroups,
  walletOption,
} from './connect-helpers.ts'

const DISCLAIMER = 'By connecting you agree to the test terms.'
const LEARN_MORE_URL = 'https://example.org/learn-about-wallets'

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
      if (standIn) {
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

test('CONNECT view lists the Popular wallets available in Chromium, the EIP-6963 wallet and the Development wallet', async ({
  page,
  app,
}) => {
  await page.goto(app.url)
  await connectButton(page).click()
  const dialog = connectDialog(page)
  await expect(dialog.getByRole('heading', { name: 'Connect a Wallet' })).toBeVisible()
  await expect(page.getByTestId('rk-connect-header-label')).toHaveText('Connect a Wallet')
  // Safe is offered only inside a Safe app iframe and Brave Wallet only in Brave: neither shows here.
  await expect
    .poll(() => walletGroups(page))
    .toEqual([
      { group: 'Installed', wallets: [{ id: TEST_WALLET_ID, lines: ['Test Wallet'] }] },
      {
        group: 'Popular',
        wallets: [
          { id: 'injected', lines: ['Browser Wallet'] },
          { id: 'rainbow', lines: ['Rainbow'] },
          { id: 'coinbase', lines: ['Coinbase Wallet'] },
          { id: 'metaMask', lines: ['MetaMask'] },
          { id: 'walletConnect', lines: ['WalletConnect'] },
        ],
      },
      { group: 'Development', wallets: [{ id: 'development', lines: ['Development wallet'] }] },
    ])
  await expect(walletOption(page, 'safe')).toHaveCount(0)
  await expect(walletOption(page, 'brave')).toHaveCount(0)
})

test('CONNECT view explains wallets and offers "Get a Wallet", "Learn More" (configured URL) and the configured disclaimer', async ({
  page,
  app,
}) => {
  await page.goto(app.url)
  await connectButton(page).click()
  const dialog = connectDialog(page)
  await expect(dialog.getByText('What is a Wallet?', { exact: true })).toBeVisible()
  await expect(dialog.getByText('A Home for your Digital Assets', { exact: true })).toBeVisible()
  await expect(
    dialog.getByText(
      'Wallets are used to send, receive, store, and display digital assets like Ethereum and NFTs.',
      { exact: true },
    ),
  ).toBeVisible()
  await expect(dialog.getByText('A New Way to Log In', { exact: true })).toBeVisible()
  await expect(
    dialog.getByText(
      'Instead of creating new accounts and passwords on every website, just connect your wallet.',
      { exact: true },
    ),
  ).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Get a Wallet' })).toBeVisible()
  const learnMore = dialog.getByRole('link', { name: 'Learn More' })
  await expect(learnMore).toHaveAttribute('href', LEARN_MORE_URL)
  await expect(learnMore).toHaveAttribute('target', '_blank')
  await expect(dialog.getByText(DISCLAIMER, { exact: true })).toBeVisible()
})

test('GET view lists wallets with GET buttons and the "Not what you\'re looking for?" text; the back arrow (named "Back") returns to CONNECT', async ({
  page,
  app,
}) => {
  await page.goto(app.url)
  await connectButton(page).click()
  const dialog = connectDialog(page)
  await dialog.getByRole('button', { name: 'Get a Wallet' }).click()
  await expect(dialog.getByText('Get a Wallet', { exact: true })).toBeVisible()
  // Desktop: the first five RainbowKit wallets that have an extension, desktop app or mobile QR download.
  const rows = dialog.getByRole('button', { name: 'GET', exact: true })
  await expect(rows).toHaveCount(3)
  for (const name of ['Rainbow', 'Coinbase Wallet', 'MetaMask']) {
    await expect(dialog.getByText(name, { exact: true }).last()).toBeVisible()
  }
  await expect(dialog.getByText('Mobile Wallet and Extension', { exact: true })).toHaveCount(3)
  await expectNotWhatYoureLookingFor(dialog)

  await backArrow(dialog).click()
  await expect(dialog.getByText("Not what you're looking for?", { exact: true })).toHaveCount(0)
  await expect(dialog.getByRole('button', { name: 'GET', exact: true })).toHaveCount(0)
  await expect(dialog.getByText('What is a Wallet?', { exact: true })).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Get a Wallet' })).toBeVisible()
  await expect(dialog.getByRole('heading', { name: 'Connect a Wallet' })).toBeVisible()
})

test('a connect error other than a rejection (-32603) shows RETRY, and RETRY then connects', async ({
  page,
  app,
  wallet,
}) => {
  await page.goto(app.url)
  await connectButton(page).click()
  // wagmi asks wallet_requestPermissions first and falls back to eth_requestAccounts on any error but
  // 4001/-32002, so a wallet with an internal error fails both.
  await wallet.failNext('wallet_requestPermissions', { code: -32603, message: 'Internal error' })
  await wallet.failNext('eth_requestAccounts', { code: -32603, message: 'Internal error' })
  await walletOption(page, TEST_WALLET_ID).click()
  const dialog = connectDialog(page)
  await expect(dialog.getByText('Opening Test Wallet...', { exact: true })).toBeVisible()
  const retry = dialog.getByRole('button', { name: 'RETRY' })
  await expect(retry).toBeVisible()
  expect((await wallet.state()).connected).toBe(false)

  await retry.click()
  await expect(page.getByTestId('rk-account-button')).toBeVisible()
  await expect(dialog).toHaveCount(0)
  expect((await wallet.state()).connected).toBe(true)
})

/**
 * Waits until the wallet has answered the connect request and RainbowKit has dealt with the answer: the
 * "Opening …" view either goes (silent) or gets its RETRY button.
 */
async function clickWalletAndWaitForAnswer(page: Page, wallet: TestWallet) {
  await walletOption(page, TEST_WALLET_ID).click()
  await wallet.waitForRequest('wallet_requestPermissions')
  // The test wallet answers after its error delay; RainbowKit reacts in the same task.
  await page.waitForTimeout(500)
}

// A user who says no in the wallet meant it: RainbowKit's dialog goes back to where it was before the
// wallet was picked, with nothing to acknowledge (RainbowKit 2 itself answers an injected wallet's
// rejection with RETRY; the patch in patches/ makes it silent, ADR 018), in the wide layout and in the
// compact one below 768 px.
for (const { width, layout, list, explainer } of [
  { width: 1280, layout: { width: 720, maxHeight: '504px' }, list: 'wide', explainer: true },
  { width: 767, layout: { width: 368, maxHeight: '468px' }, list: 'compact', explainer: false },
]) {
  test.describe(`at ${width} px wide`, () => {
    test.use({ viewport: { width, height: 800 } })

    for (const { reason, fail } of [
      { reason: 'a user rejection (4001)', fail: (wallet: TestWallet) => wallet.rejectNext('connect', 4001) },
      {
        reason: 'WalletConnect\'s "Connection request reset. Please try again."',
        fail: async (wallet: TestWallet) => {
          const error = { code: -32603, message: 'Connection request reset. Please try again.' }
          // wagmi falls back from wallet_requestPermissions to eth_requestAccounts on any other code.
          await wallet.failNext('wallet_requestPermissions', error)
          await wallet.failNext('eth_requestAccounts', error)
        },
      },
    ]) {
      test(`${reason} on connect is ignored silently: back to the ${list} wallet list, no RETRY, no alert, still disconnected; the wallet can be picked again`, async ({
        page,
        app,
        wallet,
      }) => {
        await page.goto(app.url)
        await connectButton(page).click()
        await expect.poll(() => modalLayout(page)).toEqual(layout)
        await fail(wallet)
        await clickWalletAndWaitForAnswer(page, wallet)
        const dialog = connectDialog(page)
        await expect(dialog.getByText('Opening Test Wallet...', { exact: true })).toHaveCount(0)
        await expect(dialog.getByRole('button', { name: 'RETRY' })).toHaveCount(0)
        await expect(dialog.getByRole('heading', { name: 'Connect a Wallet' })).toBeVisible()
        await expect(walletOption(page, TEST_WALLET_ID)).toBeVisible()
        // The wide layout shows the explainer beside the list; the compact one only the list.
        const whatIsAWallet = dialog.getByText('What is a Wallet?', { exact: true })
        if (explainer) await expect(whatIsAWallet).toBeVisible()
        else await expect(whatIsAWallet).toHaveCount(0)
        expect(await modalLayout(page)).toEqual(layout)
        await expect(page.getByRole('alert')).toHaveCount(0)
        expect((await wallet.state()).connected).toBe(false)

        await walletOption(page, TEST_WALLET_ID).click()
        await expect(page.getByTestId('rk-account-button')).toBeVisible()
        await expect(dialog).toHaveCount(0)
        expect((await wallet.state()).connected).toBe(true)
      })
    }
  })
}

// Any other connect error keeps RainbowKit's RETRY (the -32603 case is above).
test('a request already pending (-32002) on connect shows RETRY and nothing else: no alert, still disconnected, closing returns to "Connect Wallet"', async ({
  page,
  app,
  wallet,
}) => {
  await page.goto(app.url)
  await connectButton(page).click()
  await wallet.rejectNext('connect', -32002)
  await walletOption(page, TEST_WALLET_ID).click()
  const dialog = connectDialog(page)
  await expect(dialog.getByRole('button', { name: 'RETRY' })).toBeVisible()
  await expect(dialog.getByText('Opening Test Wallet...', { exact: true })).toBeVisible()
  await expect(dialog.getByText('Confirm connection in the extension', { exact: true })).toBeVisible()
  await expect(page.getByRole('alert')).toHaveCount(0)
  expect((await wallet.state()).connected).toBe(false)

  await dialog.getByRole('button', { name: 'Close' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(connectButton(page)).toBeVisible()
  await expect(page.getByTestId('rk-account-button')).toHaveCount(0)
  await expect(page.getByRole('alert')).toHaveCount(0)
  expect((await wallet.state()).connected).toBe(false)
})

test('after a request already pending (-32002) on connect, RETRY connects', async ({ page, app, wallet }) => {
  await page.goto(app.url)
  await connectButton(page).click()
  await wallet.rejectNext('connect', -32002)
  await walletOption(page, TEST_WALLET_ID).click()
  const dialog = connectDialog(page)
  await dialog.getByRole('button', { name: 'RETRY' }).click()
  await expect(page.getByTestId('rk-account-button')).toBeVisible()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByRole('alert')).toHaveCount(0)
  expect((await wallet.state()).connected).toBe(true)
})

test('the connect modal closes once a wallet has connected', async ({ page, app }) => {
  await page.goto(app.url)
  await connectButton(page).click()
  const dialog = connectDialog(page)
  await expect(dialog).toBeVisible()
  await walletOption(page, TEST_WALLET_ID).click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByTestId('rk-account-button')).toBeVisible()
  await expect(connectButton(page)).toHaveCount(0)
})

test('disconnecting from the account modal closes it and brings back "Connect Wallet"', async ({
  page,
  app,
  wallet,
}) => {
  await connect(page, app)
  await disconnectFromAccountModal(page)
  await expect(page.getByTestId('rk-account-button')).toHaveCount(0)
  expect((await wallet.state()).connected).toBe(false)
})

test.describe('at 767 px wide', () => {
  test.use({ viewport: { width: 767, height: 800 } })

  test('the connect modal uses the compact layout (368 px wide, max height 468), and its GET view says "on the main screen"', async ({
    page,
    app,
  }) => {
    await page.goto(app.url)
    await connectButton(page).click()
    // RainbowKit measures the window 500 ms (debounced) after load: wait for the layout, not a time.
    await expect.poll(() => modalLayout(page)).toEqual({ width: 368, maxHeight: '468px' })
    const dialog = connectDialog(page)
    // Compact: only the list; the explainer is one step away behind the info button.
    await expect(dialog.getByText('What is a Wallet?', { exact: true })).toHaveCount(0)
    await expect(dialog.getByText(DISCLAIMER, { exact: true })).toBeVisible()
    await dialog.getByRole('button', { name: 'Info' }).click()
    await expect(dialog.getByText('What is a Wallet?', { exact: true })).toBeVisible()
    await dialog.getByRole('button', { name: 'Get a Wallet' }).click()
    await expectNotWhatYoureLookingFor(dialog)
  })
})

test.describe('at 390 px wide (a desktop browser)', () => {
  test.use({ viewport: { width: 390, height: 800 } })

  test('the GET view says "on the main screen" and its back arrow is named "Back"', async ({ page, app }) => {
    await page.goto(app.url)
    await connectButton(page).click()
    await expect.poll(() => modalLayout(page)).toEqual({ width: 368, maxHeight: '468px' })
    const dialog = connectDialog(page)
    await dialog.getByRole('button', { name: 'Info' }).click()
    await dialog.getByRole('button', { name: 'Get a Wallet' }).click()
    await expectNotWhatYoureLookingFor(dialog)
    await backArrow(dialog).click()
    await expect(dialog.getByText('What is a Wallet?', { exact: true })).toBeVisible()
  })
})

test.describe('at 768 px wide', () => {
  test.use({ viewport: { width: 768, height: 800 } })

  test('the connect modal uses the wide layout (720 px wide, max height 504)', async ({ page, app }) => {
    await page.goto(app.url)
    await connectButton(page).click()
    await expect.poll(() => modalLayout(page)).toEqual({ width: 720, maxHeight: '504px' })
    await expect(connectDialog(page).getByText('What is a Wallet?', { exact: true })).toBeVisible()
  })
})

test('the connect modal switches from wide to compact when the window shrinks below 768 px', async ({
  page,
  app,
}) => {
  await page.goto(app.url)
  await connectButton(page).click()
  await expect.poll(() => modalLayout(page)).toEqual({ width: 720, maxHeight: '504px' })
  await page.setViewportSize({ width: 767, height: 800 })
  await expect.poll(() => modalLayout(page)).toEqual({ width: 368, maxHeight: '468px' })
  await page.setViewportSize({ width: 768, height: 800 })
  await expect.poll(() => modalLayout(page)).toEqual({ width: 720, maxHeight: '504px' })
})
