// The page chrome on a phone and on a desktop: nothing wider than the screen, every navigation link
// readable, the signed-in line on one line, and a header of one height whatever the wallet's state, so
// the page below never jumps when a visitor connects or signs in.
import type { Browser, Page } from '@playwright/test'
import { connectButton, expect, member, test } from '../support/fixtures.ts'

test.use({
  appEnv: { SIGN_IN: 'on', AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
  walletOptions: { accounts: [member(1)] },
})

const WIDTHS = [390, 1280]
const PAGES = [
  '/',
  '/proposals',
  '/proposals/new',
  '/discussions',
  '/members',
  '/treasury',
  '/account/sessions',
  '/nowhere',
]

// Each signed-in test signs in first, and visits half the pages, to stay well inside the time limit.
const SIGNED_IN_PAGES: [string, string[]][] = [
  ['the first four pages', PAGES.slice(0, 4)],
  ['the last four pages', PAGES.slice(4)],
]

const headerHeight = async (page: Page) => (await page.locator('header.header').boundingBox())?.height

/** Nothing on the page is wider than the viewport: no sideways scrolling. */
async function expectNoHorizontalOverflow(page: Page, label: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement?.scrollWidth ?? 0,
    innerWidth: window.innerWidth,
  }))
  expect(scrollWidth, `${label}: page width`).toBeLessThanOrEqual(innerWidth)
}

/** Every navigation link lies wholly inside the navigation and the viewport, and the nav does not scroll. */
async function expectNavFullyVisible(page: Page, label: string) {
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav.getByRole('link'), label).toHaveText([
    'Overview',
    'Proposals',
    'Discussions',
    'Members',
    'Treasury',
  ])
  const { navBox, links, scrolls, viewport } = await nav.evaluate((element) => {
    const box = (el: Element) => {
      const r = el.getBoundingClientRect()
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }
    }
    return {
      navBox: box(element),
      links: [...element.querySelectorAll('a')].map((a) => ({ text: a.textContent, ...box(a) })),
      scrolls: element.scrollWidth > element.clientWidth,
      viewport: window.innerWidth,
    }
  })
  expect(scrolls, `${label}: the nav has hidden links to scroll to`).toBe(false)
  for (const link of links) {
    expect(link.left, `${label}: ${link.text} left`).toBeGreaterThanOrEqual(Math.max(0, navBox.left) - 0.5)
    expect(link.right, `${label}: ${link.text} right`).toBeLessThanOrEqual(
      Math.min(viewport, navBox.right) + 0.5,
    )
    expect(link.bottom, `${label}: ${link.text} bottom`).toBeLessThanOrEqual(navBox.bottom + 0.5)
  }
}

const verifyDialog = (page: Page) => page.getByRole('dialog').filter({ hasText: 'Verify your account' })

/** Connects the test wallet on the overview, which opens the verify modal (sign-in is on). */
async function connectToVerify(page: Page, url: string) {
  await page.goto(url)
  await connectButton(page).click()
  await page.getByTestId('rk-wallet-option-dev.guildhall.testwallet').click()
  await expect(verifyDialog(page)).toBeVisible()
}

/** The server's shell, before any script: the header every state must keep (the session line's place included). */
async function serverShellHeight(browser: Browser, url: string, width: number) {
  const withoutScript = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width, height: 844 },
  })
  const shell = await withoutScript.newPage()
  await shell.goto(`${url}/proposals`)
  const height = await headerHeight(shell)
  await withoutScript.close()
  expect(height).toBeGreaterThan(0)
  // Compact: on a phone, under a sixth of the screen.
  if (width <= 390) expect(height).toBeLessThan(844 / 6)
  return height
}

/** Every state's header is as tall as the server's shell, so nothing below it moves. */
function expectOneHeight(heights: Record<string, number | undefined>, shell: number | undefined) {
  for (const [state, height] of Object.entries(heights)) expect(height, state).toBe(shell)
}

// Each width's states are split over four tests (disconnected, connected, signed in on half the pages each),
// each held to the server shell's height: one test visiting every page in every state ran past the time
// limit on a loaded CI machine.
for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 844 } })

    test(`disconnected, every page keeps the server shell's header height and nothing overflows (${width} px)`, async ({
      page,
      app,
      browser,
    }) => {
      const shell = await serverShellHeight(browser, app.url, width)
      const heights: Record<string, number | undefined> = {}
      for (const path of PAGES) {
        await page.goto(`${app.url}${path}`)
        await expect(connectButton(page)).toBeVisible()
        await expectNoHorizontalOverflow(page, `disconnected ${path}`)
        await expectNavFullyVisible(page, `disconnected ${path}`)
        heights[`disconnected ${path}`] = await headerHeight(page)
      }
      expectOneHeight(heights, shell)
    })

    test(`connected, with the verify modal open and after a reload, the header keeps the server shell's height and nothing overflows (${width} px)`, async ({
      page,
      app,
      browser,
    }) => {
      const shell = await serverShellHeight(browser, app.url, width)
      const heights: Record<string, number | undefined> = {}

      // Connected, not signed in: the wallet connects and the verify modal asks; after a reload the
      // wallet is back without a session.
      await connectToVerify(page, app.url)
      await expect(page.getByTestId('rk-auth-message-button')).toHaveText('Sign message')
      heights['connected, verify modal open'] = await headerHeight(page)
      await page.reload()
      await page.waitForLoadState('networkidle')
      await expectNoHorizontalOverflow(page, 'connected')
      await expectNavFullyVisible(page, 'connected')
      heights['connected, after a reload'] = await headerHeight(page)
      expectOneHeight(heights, shell)
    })

    for (const [part, paths] of SIGNED_IN_PAGES)
      test(`signed in, ${part} keep the server shell's header height, the signed-in line is one line, and nothing overflows (${width} px)`, async ({
        page,
        app,
        browser,
      }) => {
        const shell = await serverShellHeight(browser, app.url, width)
        const heights: Record<string, number | undefined> = {}
        await connectToVerify(page, app.url)
        await page.getByTestId('rk-auth-message-button').click()
        const signedIn = page.getByTestId('signed-in-as')
        await expect(signedIn).toContainText('Signed in as ada.eth')
        for (const path of paths) {
          await page.goto(`${app.url}${path}`)
          await expect(signedIn).toBeVisible()
          await expectNoHorizontalOverflow(page, `signed in ${path}`)
          await expectNavFullyVisible(page, `signed in ${path}`)
          heights[`signed in ${path}`] = await headerHeight(page)
        }

        // The signed-in line is one line: its parts share a line and none is cut off.
        const parts = await signedIn.evaluate((element) =>
          [...element.children]
            .filter((child) => child.getClientRects().length > 0)
            .map((child) => {
              const r = child.getBoundingClientRect()
              return { text: child.textContent, top: r.top, bottom: r.bottom, left: r.left, right: r.right }
            }),
        )
        const firstMiddle = ((parts[0]?.top ?? 0) + (parts[0]?.bottom ?? 0)) / 2
        for (const part of parts) {
          expect(
            Math.abs((part.top + part.bottom) / 2 - firstMiddle),
            `"${part.text}" on the first line`,
          ).toBeLessThan(2)
          expect(part.right, `"${part.text}" inside the viewport`).toBeLessThanOrEqual(width)
        }

        expectOneHeight(heights, shell)
      })
  })
}
