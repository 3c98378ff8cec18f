// The governance section's chain: the demo DAO, the helper contract (contracts/BenchTransfers.sol, compiled
// here by solc-js) that hands out tokens 250 transfers a transaction, 1000 funded and self-delegated voters,
// and a synthetic history of 100k transfers for the index run.
import { LOCAL_CHAIN_ID } from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import {
  type Abi,
  encodeFunctionData,
  type Hash,
  type Hex,
  isAddressEqual,
  type PublicClient,
  parseEther,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { benchVoterKey, deployTokenHelper, startBenchChain } from '../harness/chain.ts'
import { pool } from '../harness/http.ts'

export const VOTERS = 1_000
export const VOTER_TOKENS = parseEther('10')
export const HISTORY_TRANSFERS = 100_000
/**
 * Per transaction (one a block). Each transfer also writes a vote checkpoint for its delegated recipient;
 * 250 fit in HISTORY_TX_GAS (a transaction that ran out would revert, and the bench stops on it).
 */
const TRANSFERS_PER_TX = 250
const HISTORY_TX_GAS = 15_000_000n
const HISTORY_AMOUNT = parseEther('0.001')

export type Account = ReturnType<typeof privateKeyToAccount>
export type Chain = {
  url: string
  pid: number | undefined
  deployment: DemoDeployment
  client: PublicClient
  helperAbi: Abi
  voters: Account[]
  send: (data: Hex, gas: bigint) => Promise<Hash>
  receipt: (hash: Hash) => Promise<Awaited<ReturnType<PublicClient['getTransactionReceipt']>>>
}

/** The demo DAO's chain with the helper contract and VOTERS funded, self-delegated voters; anvil stops with `cleanups`. */
export async function prepareChain(
  cleanups: (() => Promise<void>)[],
  log: (m: string) => void,
): Promise<Chain> {
  const bench = await startBenchChain()
  const { anvil, deployment, client, testClient, receipt } = bench
  cleanups.push(() => anvil.stop())
  log('governance: compiling contracts/BenchTransfers.sol (solc-js) and deploying it')
  // The helper gets what it hands out: the voters' tokens and the history's.
  const helper = await deployTokenHelper(
    bench,
    'BenchTransfers',
    VOTER_TOKENS * BigInt(VOTERS) + HISTORY_AMOUNT * BigInt(HISTORY_TRANSFERS),
  )
  const { abi: helperAbi, send } = helper

  log(`governance: ${VOTERS} voters: tokens from the helper, ETH, and a delegation to themselves`)
  // Fixed keys (not random), so every run has the same voters and the same history.
  const voters = Array.from({ length: VOTERS }, (_, i) => privateKeyToAccount(benchVoterKey('bench', i)))
  for (let i = 0; i < VOTERS; i += TRANSFERS_PER_TX) {
    const recipients = voters.slice(i, i + TRANSFERS_PER_TX).map((voter) => voter.address)
    const data = encodeFunctionData({
      abi: helperAbi,
      functionName: 'transferEach',
      args: [deployment.token, recipients, VOTER_TOKENS],
    })
    await receipt(await send(data, HISTORY_TX_GAS))
  }
  await pool(VOTERS, 20, async (i) => {
    await testClient.setBalance({ address: (voters[i] as Account).address, value: parseEther('1') })
  })
  // Each voter signs its own delegate(self); all are mined in one block (gas limit raised) rather than one
  // block each, which would take anvil about as many seconds as there are tens of voters.
  const gasPrice = (await client.getGasPrice()) * 2n
  const delegations = await Promise.all(
    voters.map((voter) =>
      voter.signTransaction({
        chainId: LOCAL_CHAIN_ID,
        type: 'eip1559',
        to: deployment.token,
        data: encodeFunctionData({
          abi: governanceTokenAbi,
          functionName: 'delegate',
          args: [voter.address],
        }),
        nonce: 0,
        gas: 300_000n,
        maxFeePerGas: gasPrice,
        maxPriorityFeePerGas: 1n,
      }),
    ),
  )
  await testClient.setBlockGasLimit({ gasLimit: 1_000_000_000n })
  await testClient.setAutomine(false)
  const hashes: Hash[] = []
  try {
    await pool(delegations.length, 20, async (i) => {
      hashes[i] = await client.sendRawTransaction({ serializedTransaction: delegations[i] as Hex })
    })
    await testClient.mine({ blocks: 1 })
  } finally {
    await testClient.setAutomine(true)
  }
  await pool(hashes.length, 20, async (i) => {
    await receipt(hashes[i] as Hash)
  })
  // getPastVotes (and so a snapshot) needs blocks strictly before the head.
  await testClient.mine({ blocks: 2 })
  return {
    url: anvil.url,
    pid: anvil.pid,
    deployment,
    client,
    helperAbi,
    voters,
    send,
    receipt,
  }
}

/** 100k transfers from the helper to the voters (every recipient delegated: a Transfer and a votes event each). */
export async function buildHistory(chain: Chain, log: (m: string) => void) {
  const transactions = Math.ceil(HISTORY_TRANSFERS / TRANSFERS_PER_TX)
  log(`governance: building a history of ${HISTORY_TRANSFERS} transfers (${transactions} transactions)`)
  const started = performance.now()
  const firstBlock = Number(await chain.client.getBlockNumber({ cacheTime: 0 })) + 1
  let events = 0
  for (let t = 0; t < transactions; t++) {
    const recipients = Array.from(
      { length: Math.min(TRANSFERS_PER_TX, HISTORY_TRANSFERS - t * TRANSFERS_PER_TX) },
      (_, i) => (chain.voters[(t * TRANSFERS_PER_TX + i) % VOTERS] as Account).address,
    )
    const data = encodeFunctionData({
      abi: chain.helperAbi,
      functionName: 'transferEach',
      args: [chain.deployment.token, recipients, HISTORY_AMOUNT],
    })
    const receipt = await chain.receipt(await chain.send(data, HISTORY_TX_GAS))
    events += receipt.logs.filter((l) => isAddressEqual(l.address, chain.deployment.token)).length
  }
  const lastBlock = Number(await chain.client.getBlockNumber({ cacheTime: 0 }))
  log(`governance: history built in ${Math.round((performance.now() - started) / 1000)} s`)
  return { firstBlock, lastBlock, events }
}
