// Delegate statements in the browser: a member writes one in markdown, previews it, signs and publishes
// it; it is shown rendered and sanitised; an edit is signed as a new version that replaces it.

import { connect, expect, member, test } from '../support/fixtures.ts'

test.use({ walletOptions: { accounts: [member(3)] } })

test('a member signs a statement, sees it rendered without its script, and edits it into a new version', async ({
  page,
  app,
}) => {
  await connect(page, app, '/')
  const editor = page.getByTestId('statement-editor')
  const textarea = editor.getByLabel(/Who you are/)
  await expect(textarea).toBeEnabled()
  await textarea.fill(
    '## Cleo for delegate\n\nI read **every** proposal. <img src=x onerror="window.hacked = true">',
  )
  await expect(editor.getByTestId('statement-size')).toContainText('/ 10,000 characters')
  await editor.getByRole('button', { name: 'Preview' }).click()
  await expect(
    editor.getByTestId('statement-preview').getByRole('heading', { name: 'Cleo for delegate' }),
  ).toBeVisible()
  await editor.getByRole('button', { name: 'Sign and publish' }).click()
  await expect(editor.getByRole('status')).toHaveText(
    'Your statement is published. Sign a new version to change it.',
  )

  const shown = editor.getByTestId('delegate-statement')
  await expect(shown.getByRole('heading', { name: 'Cleo for delegate' })).toBeVisible()
  await expect(shown.locator('strong')).toHaveText('every')
  await expect(shown.locator('[onerror]')).toHaveCount(0)
  expect(await page.evaluate(() => (window as { hacked?: boolean }).hacked)).toBeUndefined()
  const firstEntry = await shown.getByText(/governance log entry \d+/).textContent()

  await editor.getByRole('button', { name: 'Edit statement' }).click()
  await editor.getByLabel(/Who you are/).fill('## Cleo for delegate\n\nI explain each vote.')
  await editor.getByRole('button', { name: 'Sign and publish new version' }).click()
  await expect(shown.getByText('I explain each vote.')).toBeVisible()
  await expect(shown.getByText(/governance log entry \d+/)).not.toHaveText(firstEntry ?? '')
  // The server answers the latest version.
  const answer = await page.request.get(`${app.url}/api/delegates/${member(3)}/statement`)
  expect((await answer.json()).message.statement).toBe('## Cleo for delegate\n\nI explain each vote.')
})
