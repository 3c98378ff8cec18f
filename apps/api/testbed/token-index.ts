// Shared by the token index tests: the demo chain's clients and transactions, the check that the index says
// what the token says, and a stand-in for a hosted RPC provider (an HTTP proxy in front of anvil that
// records every JSON-RPC call and can refuse some, as providers refuse wide eth_getLogs ranges).
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { LOCAL_CHAIN_ID } from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import {
  type Address,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  type PublicClient,
  parseEther,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { expect } from 'vitest'
import type { TokenIndex } from '../src/token/token-index.ts'

/** Anvil's ten accounts: the deployer (0), the demo members Ada … Hugo (1–8) and Iris (9, no tokens). */
export const demoAccounts = anvilAccounts.slice(0, 10).map((account) => account.address)
export const demoAccount = (index: number) => demoAccounts[index] as Address

const devchain = defineChain({
  id: LOCAL_CHAIN_ID,
  name: 'anvil',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1'] } },
})

/** Sends a token call from anvil account `fromIndex` and waits for it to be mined. */
async function tokenCall(
  chain: { client: PublicClient; url: string; token: Address },
  fromIndex: number,
  call: { functionName: 'transfer'; args: [Address, bigint] } | { functionName: 'delegate'; args: [Address] },
) {
  const account = privateKeyToAccount(anvilAccounts[fromIndex]?.privateKey as Hex)
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

export type RpcCall = { method: string; params: unknown[] }
/** A call the node answered, with the size of its answer in bytes. */
type ForwardedCall = RpcCall & { responseBytes: number }
/** How the double answers a call instead of the node: an HTTP status and a body (JSON, or text as is). */
export type Refusal = { status: number; body: unknown }

export type ProviderDouble = {
  url: string
  /** Every call that reached the node, in order. */
  forwarded: ForwardedCall[]
  /** Every call the double answered itself with a refusal. */
  refused: RpcCall[]
  /** Decides, per call, whether to refuse it (undefined: forward it to the node). */
  refuse: (call: RpcCall) => Refusal | undefined
  /** Changes the node's JSON answer to a call before it is passed on (an older node's answer); absent: as is. */
  rewrite?: ((call: RpcCall, answer: { result?: unknown }) => unknown) | undefined
  close(): Promise<void>
}

/**
 * Our test double of a hosted RPC provider: an HTTP server on 127.0.0.1 that forwards JSON-RPC to anvil,
 * records each call, answers a call itself whenever `refuse` returns a refusal for it, and passes the node's
 * answer on through `rewrite`.
 */
export async function startProviderDouble(upstream: string): Promise<ProviderDouble> {
  const double: ProviderDouble = {
    url: '',
    forwarded: [],
    refused: [],
    refuse: () => undefined,
    close: async () => {},
  }
  const server = createServer(async (request, response) => {
    try {
      const text = await readBody(request)
      const body = JSON.parse(text) as { id: unknown; method: string; params?: unknown[] }
      // viem's http transport sends single requests here (no batching configured).
      const call = { method: body.method, params: body.params ?? [] }
      const refusal = double.refuse(call)
      if (refusal) {
        double.refused.push(call)
        const payload =
          typeof refusal.body === 'string'
            ? refusal.body
            : JSON.stringify({ jsonrpc: '2.0', id: body.id, ...(refusal.body as object) })
        response.writeHead(refusal.status, {
          'content-type': typeof refusal.body === 'string' ? 'text/plain' : 'application/json',
        })
        response.end(payload)
        return
      }
      const answer = await fetch(upstream, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
      })
      const raw = Buffer.from(await answer.arrayBuffer())
      const payload = double.rewrite
        ? Buffer.from(JSON.stringify(double.rewrite(call, JSON.parse(raw.toString('utf8')))))
        : raw
      double.forwarded.push({ ...call, responseBytes: payload.length })
      response.writeHead(answer.status, { 'content-type': 'application/json' })
      response.end(payload)
    } catch (error) {
      response.writeHead(502, { 'content-type': 'text/plain' })
      response.end(String(error))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  double.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  double.close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections()
      server.close((error) => (error ? reject(error) : resolve()))
    })
  return double
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** The block span [from, to] of an eth_getLogs call. */
export function logsRange(call: RpcCall): { from: number; to: number } {
  const filter = call.params[0] as { fromBlock: Hex; toBlock: Hex }
  return { from: Number(filter.fromBlock), to: Number(filter.toBlock) }
}
