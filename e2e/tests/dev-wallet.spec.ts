// The Development wallet end to end, in a browser without a wallet extension: it signs in and delegates.
// It signs in the page with anvil's test keys and sends raw transactions through the app's /rpc proxy,
// which serves no method that would use the node's unlocked accounts.
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import type { Page, Request } from '@playwright/test'
import { createPublicClient, type Hex, http } from 'viem'
import { connectButton, expect, member, test } from '../support/fixtures.ts'
import { walletOption } from './connect-helpers.ts'

// Its own worker (and so chain): the delegation below must not meet another file's.
test.use({
  walletOptions: { absent: true },
  appEnv: {
    SIGN_IN: 'on',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    DAO_DESCRIPTION: 'The DAO the development wallet tests run against.',
  },
})

/** Methods of every JSON-RPC call the page posts to the app's /rpc proxy. */
function proxiedMethods(page: Page): string[] {
  const methods: string[] = []
  page.on('request', (request: Request) => {
    if (request.method() !== 'POST' || !new URL(request.url()).pathname.startsWith('/rpc/')) return
    const body = request.postDataJSON() as { method: string } | { method: string }[]
    methods.push(...(Array.isArray(body) ? body : [body]).map((call) => call.method))
  })
  return methods
}

test('the Development wallet signs in with its own signature and its delegation is mined through the proxy', async ({
  page,
  app,
  chains,
}) => {
  const deployer = member(0)
  const methods = proxiedMethods(page)
  await page.goto(app.url)
  await connectButton(page).click()
  await walletOption(page, 'development').click()
  const verify = page.getByRole('dialog').filter({ hasText: 'Verify your account' })
  await expect(verify).toBeVisible()
  await expect(page.getByTestId('rk-auth-message-button')).toHaveText('Sign message')
  await page.getByTestId('rk-auth-message-button').click()
  await expect(page.getByTestId('signed-in-as')).toContainText('Signed in as 0xf3…2266')
  const session = await page.evaluate(async () => (await fetch('/api/auth/session')).json())
  expect(session.session?.address).toBe(deployer)

  const panel = page.getByTestId('delegation')
  await panel.getByRole('button', { name: 'Delegate to myself' }).click()
  await expect(page.getByTestId('delegation-progress')).toHaveText('Delegation confirmed.')
  await expect(page.getByTestId('delegate-status')).toHaveText('You vote with your own tokens.')

  const token = app.settings.publicConfig.token?.address as Hex
  const node = createPublicClient({ transport: http(chains.dao.url) })
  expect(
    await node.readContract({
      address: token,
      abi: governanceTokenAbi,
      functionName: 'delegates',
      args: [deployer],
    }),
  ).toBe(deployer)
  expect(methods).toContain('eth_sendRawTransaction')
  for (const nodeSigned of ['eth_sendTransaction', 'personal_sign', 'eth_signTypedData_v4', 'eth_accounts']) {
    expect(methods).not.toContain(nodeSigned)
  }
})
