import type { Page } from '@playwright/test'
import { connect, connectButton, expect, member, test } from '../support/fixtures.ts'

test('overview shows the DAO and live token figures', async ({ page, app }) => {
  await page.goto(app.url)
  await expect(page.getByRole('heading', { level: 1, name: 'Guildhall Test DAO' })).toBeVisible()
  await expect(page.getByTestId('token-name')).toHaveText('Guildhall Demo Token')
  await expect(page.getByTestId('token-symbol')).toHaveText('GHD')
  await expect(page.getByTestId('token-supply')).toHaveText('2,661 GHD')
  await expect(page.getByTestId('token-holders')).toHaveText('8')
  await expect(connectButton(page)).toBeVisible()
})

test.describe('as Dev, who delegates to Ada', () => {
  test.use({ walletOptions: { accounts: [member(4)] } })

  test('connected overview shows balance, voting power and delegate', async ({ page, app }) => {
    await connect(page, app)
    await expect(page.getByTestId('my-balance')).toHaveText('250 GHD')
    await expect(page.getByTestId('my-votes')).toHaveText('0 GHD')
    await expect(page.getByTestId('my-delegate')).toHaveText('ada.eth')
  })
})

test('navigation reaches every section', async ({ page, app }) => {
  await page.goto(app.url)
  const nav = page.getByRole('navigation', { name: 'Main' })
  for (const name of ['Proposals', 'Discussions', 'Members', 'Treasury', 'Overview']) {
    await nav.getByRole('link', { name }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      name === 'Overview' ? 'Guildhall Test DAO' : name,
    )
  }
})

/** Where the shell's parts are on the page, to the tenth of a pixel. */
async function shellBoxes(page: Page, path: string) {
  const selectors = ['header.header', '.brand', '.nav a', '.connect-slot', 'main.main']
  if (path === '/') selectors.push('.page-header h1', '.page-header p.lead')
  const boxes: Record<string, string[]> = {}
  for (const selector of selectors) {
    boxes[selector] = await page.locator(selector).evaluateAll((elements) =>
      elements.map((element) => {
        const { x, y, width } = element.getBoundingClientRect()
        // Main's height grows with the page's content; its top and width are what must not move.
        const height = element.matches('main') ? 0 : element.getBoundingClientRect().height
        return [x, y, width, height].map((n) => n.toFixed(1)).join(' ')
      }),
    )
  }
  return boxes
}

test('the server-rendered shell paints before the app runs, and nothing moves when the app replaces it', async ({
  page,
  app,
  browser,
}) => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 800 },
  ]) {
    await page.setViewportSize(viewport)
    for (const path of ['/', '/proposals']) {
      const label = `${path} at ${viewport.width} px`
      const withoutScript = await browser.newContext({ javaScriptEnabled: false, viewport })
      const shell = await withoutScript.newPage()
      await shell.goto(`${app.url}${path}`)
      const nav = shell.getByRole('navigation', { name: 'Main' })
      await expect(nav.getByRole('link'), label).toHaveText([
        'Overview',
        'Proposals',
        'Discussions',
        'Members',
        'Treasury',
      ])
      await expect(
        nav.getByRole('link', { name: path === '/' ? 'Overview' : 'Proposals' }),
        label,
      ).toHaveAttribute('aria-current', 'page')
      // The connect button's place is kept, but nothing there can be pressed before the app can handle it.
      await expect(shell.getByRole('button'), label).toHaveCount(0)
      if (path === '/') {
        await expect(shell.getByRole('heading', { level: 1 }), label).toHaveText('Guildhall Test DAO')
        await expect(shell.locator('p.lead'), label).toHaveText('The DAO the end-to-end tests run against.')
      }
      const shellLayout = await shellBoxes(shell, path)
      await withoutScript.close()

      await page.goto(`${app.url}${path}`)
      await expect(connectButton(page), label).toBeVisible()
      await expect(page.locator('header.header'), label).toHaveCount(1)
      expect(await shellBoxes(page, path), label).toEqual(shellLayout)
    }
  }
})
