// Shared by the governance specs: a connected member writes a proposal, and votes on it; or a demo member's key
// signs one and it is sent over HTTP, as its wallet would.
import { anvilAccounts } from '@guildhall/devchain/accounts'
import type { Page } from '@playwright/test'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { type App, connect, expect } from '../support/fixtures.ts'

/** The demo member's key at anvil's account `index`. */
export const account = (index: number) => privateKeyToAccount(anvilAccounts[index]?.privateKey as Hex)

/** POSTs a signed message from outside the app (its own origin, as the browser sends); it must answer 201. */
export async function postAccepted(app: App, path: string, body: unknown) {
  const response = await fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: app.url },
    body: JSON.stringify(body),
  })
  expect(response.status, await response.clone().text()).toBe(201)
}

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
