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
    await expect(page.getByTestId('my-delegate')).toHaveText('0x70…79C8')
  })
})

test('navigation reaches every section', async ({ page, app }) => {
  await page.goto(app.url)
  const nav = page.getByRole('navigation', { name: 'Main' })
  for (const name of ['Proposals', 'Members', 'Treasury', 'Overview']) {
    await nav.getByRole('link', { name }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      name === 'Overview' ? 'Guildhall Test DAO' : name,
    )
  }
})
