// Shared by the governance specs: a connected member writes a proposal, and votes on it.
import type { Page } from '@playwright/test'
import { type App, connect, expect } from '../support/fixtures.ts'

/** Connects the injected test wallet on the proposals list and writes a proposal; ends on its page. */
export async function connectAndPropose(page: Page, app: App, title: string, description?: string) {
  await connect(page, app, '/proposals')
  await page.getByRole('link', { name: 'New proposal' }).click()
  await page.getByLabel('Title').fill(title)
  if (description !== undefined) await page.getByLabel(/Description/).fill(description)
  await page.getByRole('button', { name: 'Sign and submit' }).click()
  await expect(page).toHaveURL(/\/proposals\/0x[0-9a-f]{64}$/)
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
}

export const votePanel = (page: Page) => page.getByTestId('vote-panel')

/** Votes one choice in the proposal page's vote panel and waits until the server has recorded it. */
export async function vote(page: Page, choice: 'For' | 'Against' | 'Abstain') {
  await votePanel(page).getByLabel(choice).check()
  await votePanel(page).getByRole('button', { name: 'Vote' }).click()
  await expect(votePanel(page).getByRole('status')).toHaveText(
    'Your vote is recorded. You can change it until voting ends.',
  )
}
