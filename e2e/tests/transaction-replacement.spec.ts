// A delegation the wallet replaces after sending it (same nonce): sped up (viem's "repriced": the same call
// with more gas), cancelled (nothing sent to itself), or another call sent in its place ("replaced"). The
// wallet does this on its own, outside the app; the app learns it from the node. Each ends as what happened
// to the delegation: in the account modal's recent transactions, in the panel and on the chain.
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import type { Page } from '@playwright/test'
import { encodeFunctionData, type Hex } from 'viem'
import { connect, expect, member, test } from '../support/fixtures.ts'
import { closeAccountModal, openAccountModal } from './connect-helpers.ts'
import {
  anvil,
  avatarSpinner,
  delegationPanel,
  expectRecentTransaction,
  progress,
  storedTransactions,
  tokenAddress,
  withoutAutomine,
} from './transaction-helpers.ts'

// A worker (and so a chain) of its own: these delegations must not meet another file's.
test.use({ appEnv: { DAO_DESCRIPTION: 'The DAO the replacement tests run against.' } })

/**
 * Resolves once the page has read `hash` from the node while it was pending (eth_getTransactionByHash)
 * and then scanned a block for a transaction with its nonce: what viem's receipt wait does before it can
 * tell a replacement. A wallet's "speed up" or "cancel" comes after the app has seen the transaction.
 */
function pendingTransactionSeen(page: Page): (hash: Hex) => Promise<boolean> {
  const calls: { method: string; params: unknown[]; body: Promise<{ result?: unknown }> }[] = []
  page.on('response', (response) => {
    const request = response.request()
    if (request.method() !== 'POST' || !new URL(request.url()).pathname.startsWith('/rpc/')) return
    const { method, params } = request.postDataJSON() as { method: string; params: unknown[] }
    // Noted in the order the answers arrive; the bodies are read later.
    calls.push({ method, params, body: response.json().catch(() => ({})) })
  })
  return async (hash) => {
    let seen = false
    for (const call of calls) {
      if (call.method === 'eth_getTransactionByHash' && call.params[0] === hash) {
        const result = (await call.body).result as { blockNumber: unknown } | null | undefined
        if (result && result.blockNumber === null) seen = true
      } else if (seen && call.method === 'eth_getBlockByNumber' && call.params[1] === true) return true
    }
    return false
  }
}

/** The transaction the wallet sent: the token's delegate(…) call. */
type Sent = { from: Hex; to: Hex; input: Hex; value: bigint }

test.describe('a delegation replaced in the wallet', () => {
  const ben = member(2)
  const cases = [
    {
      who: 'Finn',
      index: 6,
      what: 'sped up (the same call with more gas, "repriced")',
      ends: 'confirmed under the new hash: "Confirmed" in recent transactions and "Delegation confirmed."',
      replacement: (tx: { to: Hex; input: Hex; value: bigint }) => ({
        to: tx.to,
        data: tx.input,
        value: tx.value,
      }),
      status: 'Confirmed',
      panel: 'Delegation confirmed.',
      delegate: 'Yourself',
      storedHash: 'replacement',
    },
    {
      who: 'Gia',
      index: 7,
      what: 'cancelled (nothing sent to itself)',
      ends: '"Failed" in recent transactions and "The delegation was cancelled in your wallet."',
      replacement: (tx: Sent) => ({ to: tx.from, value: 0n }),
      status: 'Failed',
      panel: 'The delegation was cancelled in your wallet.',
      delegate: 'Not delegated',
      storedHash: 'original',
    },
    {
      who: 'Hugo',
      index: 8,
      what: 'replaced by another call (delegate to Ben)',
      ends: '"Failed" in recent transactions, the panel says another transaction took its place, and shows Ben',
      replacement: (tx: Sent) => ({
        to: tx.to,
        data: encodeFunctionData({ abi: governanceTokenAbi, functionName: 'delegate', args: [ben] }),
      }),
      status: 'Failed',
      panel: 'The delegation was not made: your wallet sent another transaction in its place.',
      delegate: 'ben.eth',
      storedHash: 'original',
    },
  ] as const

  for (const c of cases) {
    test.describe(`as ${c.who}, an undelegated member`, () => {
      test.use({ walletOptions: { accounts: [member(c.index)] } })

      test(`"Delegate to myself" ${c.what} in the wallet ends ${c.ends}`, async ({ page, app, chains }) => {
        const account = member(c.index)
        const client = anvil(chains)
        const seen = pendingTransactionSeen(page)
        await connect(page, app)
        await expect(page.getByTestId('my-delegate')).toHaveText('Not delegated')

        let replacementHash: Hex | undefined
        let originalHash: Hex | undefined
        await withoutAutomine(chains, async () => {
          await delegationPanel(page).getByRole('button', { name: 'Delegate to myself' }).click()
          await expect(progress(page)).toHaveText('Delegation sent; waiting for it to be confirmed…')
          await expect.poll(async () => (await storedTransactions(page, account)).length).toBe(1)
          const [stored] = await storedTransactions(page, account)
          originalHash = stored?.hash
          if (!originalHash) throw new Error('the delegation was not added to the recent transactions')
          const hash = originalHash
          await expect
            .poll(() => seen(hash), { message: 'the app has not seen the pending delegation' })
            .toBe(true)

          // The wallet sends another transaction with the same nonce and higher fees, as "speed up" and
          // "cancel" do; the node drops the original from its mempool.
          const original = await client.getTransaction({ hash })
          replacementHash = await client.sendTransaction({
            account,
            chain: null,
            nonce: original.nonce,
            gas: original.gas,
            maxFeePerGas: (original.maxFeePerGas ?? 0n) * 2n,
            maxPriorityFeePerGas: (original.maxPriorityFeePerGas ?? 0n) * 2n + 1n,
            ...c.replacement({ ...original, to: tokenAddress(app) }),
          })
          await client.mine({ blocks: 1 })
        })
        if (!replacementHash || !originalHash) throw new Error('no replacement was sent')
        expect((await client.getTransactionReceipt({ hash: replacementHash })).status).toBe('success')

        await expect(progress(page)).toHaveText(c.panel)
        await expect(avatarSpinner(page)).toHaveCount(0)
        const modal = await openAccountModal(page)
        await expectRecentTransaction(modal, 'Delegate to myself', c.status)
        await closeAccountModal(page)
        expect(await storedTransactions(page, account)).toEqual([
          {
            hash: c.storedHash === 'replacement' ? replacementHash : originalHash,
            description: 'Delegate to myself',
            status: c.status.toLowerCase(),
            confirmations: 1,
          },
        ])
        await expect(page.getByTestId('my-delegate')).toHaveText(c.delegate)
      })
    })
  }
})
