// The account button and modal per spec on a DAO that is not on mainnet: the name-service name (or the
// shortened address) and the avatar, here from the server's lookups on the local name service (ADR 031).
import { type NameList, shortenAddress } from '@guildhall/core'
import type { Locator, Page } from '@playwright/test'
import { type App, connect, expect, member, test } from '../support/fixtures.ts'

const ADA = member(1)
const DEV = member(4)
const GIA = member(7)

/** Waits until the server's refresher has looked `address` up. */
async function resolved(page: Page, app: App, address: string) {
  await expect
    .poll(async () => {
      const answer = (await (
        await page.request.get(`${app.url}/api/names?addresses=${address}`)
      ).json()) as NameList
      return answer.names[0]?.pending
    })
    .toBe(false)
}

const accountButton = (page: Page) => page.getByTestId('rk-account-button')

/** The avatar image `within` shows has loaded (a broken one has no natural width). */
async function expectLoadedImage(within: Locator) {
  const image = within.locator('img.avatar').first()
  await expect(image).toBeVisible()
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0)
}

test.describe('Ada, named ada.eth with an avatar', () => {
  test.use({ walletOptions: { accounts: [ADA] } })

  test('the account button and the account modal show ada.eth and her avatar', async ({ page, app }) => {
    await resolved(page, app, ADA)
    await connect(page, app)
    await expect(accountButton(page)).toContainText('ada.eth')
    await expect(accountButton(page)).not.toContainText(shortenAddress(ADA))
    await expectLoadedImage(accountButton(page))

    await accountButton(page).click()
    const modal = page.getByRole('dialog')
    await expect(modal).toContainText('ada.eth')
    await expectLoadedImage(modal)
  })
})

test.describe('Dev, named dev.eth with a broken avatar record', () => {
  test.use({ walletOptions: { accounts: [DEV] } })

  test('the button shows dev.eth with the generated avatar in place of the broken one', async ({
    page,
    app,
  }) => {
    await resolved(page, app, DEV)
    await connect(page, app)
    await expect(accountButton(page)).toContainText('dev.eth')
    await expect(accountButton(page).locator('svg.avatar')).toBeVisible()
    await expect(accountButton(page).locator('img')).toHaveCount(0)
  })
})

test.describe('Gia, without a name', () => {
  test.use({ walletOptions: { accounts: [GIA] } })

  test('the button and modal show the shortened address and a generated avatar', async ({ page, app }) => {
    await resolved(page, app, GIA)
    await connect(page, app)
    await expect(accountButton(page)).toContainText(shortenAddress(GIA))
    await expect(accountButton(page).locator('svg.avatar')).toBeVisible()

    await accountButton(page).click()
    const modal = page.getByRole('dialog')
    await expect(modal).toContainText(shortenAddress(GIA))
    await expect(modal.locator('svg.avatar')).toBeVisible()
  })
})
