// The demo DAO's token for the tests: its transfers and delegations, a TokenIndex of it (built one way for
// every test), and the check that the index says what the token says.
import { LOCAL_CHAIN_ID } from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { type Address, createWalletClient, defineChain, http, type PublicClient, parseEther } from 'viem'
import { expect } from 'vitest'
import type { Db } from '../src/platform/db/client.ts'
import { TokenIndex, type TokenIndexOptions } from '../src/token/token-index.ts'
import { member } from './signers.ts'

/** Anvil's ten accounts: the deployer (0), the demo members Ada … Hugo (1–8) and Iris (9, no tokens). */
export const demoAccounts = anvilAccounts.slice(0, 10).map((account) => account.address)
export const demoAccount = (index: number) => demoAccounts[index] as Address

const devchain = defineChain({
  id: LOCAL_CHAIN_ID,
  name: 'anvil',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1'] } },
})

/**
 * A TokenIndex of the demo token on `client` into `db`, from the token's deployment, counting blocks as soon
 * as they are mined; `options` add to or override that (confirmations, Multicall3, chunk sizes...).
 */
export function demoTokenIndex(
  { db, client, deployment }: { db: Db; client: PublicClient; deployment: DemoDeployment },
  options: Partial<Omit<TokenIndexOptions, 'db' | 'client'>> = {},
): TokenIndex {
  return new TokenIndex({
    db,
    client,
    chainId: LOCAL_CHAIN_ID,
    token: deployment.token,
    fromBlock: deployment.deployBlock,
    confirmations: 0,
    ...options,
  })
}

/** Sends a token call from anvil account `fromIndex` and waits for it to be mined. */
async function tokenCall(
  chain: { client: PublicClient; url: string; token: Address },
  fromIndex: number,
  call: { functionName: 'transfer'; args: [Address, bigint] } | { functionName: 'delegate'; args: [Address] },
) {
  const account = member(fromIndex)
  const wallet = createWalletClient({ account, chain: devchain, transport: http(chain.url) })
  const hash = await wallet.writeContract({
    address: chain.token,
    abi: governanceTokenAbi,
    ...call,
    gas: 300_000n,
  } as Parameters<typeof wallet.writeContract>[0])
  const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  if (receipt.status !== 'success') throw new Error(`${call.functionName} from account ${fromIndex} reverted`)
  return receipt
}

export const transfer = (
  chain: { client: PublicClient; url: string; token: Address },
  fromIndex: number,
  to: Address,
  amount: string,
) => tokenCall(chain, fromIndex, { functionName: 'transfer', args: [to, parseEther(amount)] })

export const delegate = (
  chain: { client: PublicClient; url: string; token: Address },
  fromIndex: number,
  to: Address,
) => tokenCall(chain, fromIndex, { functionName: 'delegate', args: [to] })

/**
 * Every demo account at every block from the deployment to `last`: the index's votes, balance and delegate
 * must be the token's own getPastVotes, balanceOf and delegates at that block, and come from the index.
 */
export async function expectIndexEqualsChain(
  index: TokenIndex,
  chain: PublicClient,
  deployment: DemoDeployment,
  last: number,
) {
  const token = { address: deployment.token, abi: governanceTokenAbi } as const
  for (let block = deployment.deployBlock; block <= last; block++) {
    const n = BigInt(block)
    for (const account of demoAccounts) {
      const [votes, balance, delegatee, chainVotes, chainBalance, chainDelegatee] = await Promise.all([
        index.votesAt(account, block),
        index.balanceAt(account, block),
        index.delegateAt(account, block),
        chain.readContract({ ...token, functionName: 'getPastVotes', args: [account, n] }),
        chain.readContract({ ...token, functionName: 'balanceOf', args: [account], blockNumber: n }),
        chain.readContract({ ...token, functionName: 'delegates', args: [account], blockNumber: n }),
      ])
      expect({ votes, balance, delegatee }, `${account} at block ${block}`).toEqual({
        votes: { source: 'index', value: chainVotes },
        balance: { source: 'index', value: chainBalance },
        delegatee: { source: 'index', value: chainDelegatee },
      })
    }
  }
}
