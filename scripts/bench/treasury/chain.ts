// The treasury section's chain: the demo DAO on a fresh anvil with the Safe v1.5.0 contracts, two 2-of-3
// treasury Safes (Ada, Ben, Cleo; salts of their own) and their histories of real governance-token
// Transfers, spread over ROUNDS rounds a few days apart on the chain's clock:
// - incoming: contracts/BenchTransfers.sol's `transferEach` sends to the Safe, hundreds a transaction;
// - outgoing: the Safe approved the helper once (a Safe execution), whose `transferFromEach` then moves the
//   Safe's tokens to PAYEES payees, hundreds a transaction;
// - every EXECUTED_EVERY-th transfer leaves in a Safe execution of its own, in the shape the app queues (the
//   token's `transfer` batched through MultiSendCallOnly, signed by two owners): executions to decode.
// Every one is a Transfer log with the Safe in topic 1 or 2, as a DAO's own would be. Every
// ETH_DEPOSIT_EVERY-th round also sends the Safe 1 ETH: the page charts the native coin first.
import { MULTI_SEND_CALL_ONLY, safeTransactionForActions } from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { createSafeOfVersion, executeSafeTransaction } from '@guildhall/devchain/safe'
import {
  type Address,
  encodeFunctionData,
  getAbiItem,
  getAddress,
  type Hex,
  maxUint256,
  numberToHex,
  parseEther,
} from 'viem'
import { deployTokenHelper, startBenchChain } from '../harness/chain.ts'
import { ETH_DEPOSIT_EVERY, PAYEES, ROUND_SECONDS, ROUNDS, type TransferKind, transferPlan } from './plan.ts'

const INCOMING_AMOUNT = parseEther('10')
const OUTGOING_AMOUNT = parseEther('9')
const ETH_DEPOSIT = parseEther('1')
/** A round's batch of up to ≈ 500 transfers is ≈ 20M gas; the block gas limit is raised to fit. */
const BATCH_GAS = 100_000_000n
/** Blocks per eth_getLogs of the final count: a round's blocks hold ≈ 1000 of a Safe's Transfers. */
const LOG_RANGE = 100
/** Ada, Ben and Cleo (anvil accounts 1 to 3), 2 of 3, as the demo's treasury. */
const OWNERS = [1, 2, 3].map((i) => anvilAccounts[i]?.address as Address)

/** `createProxyWithNonce` salt nonces of the bench's Safes: far from the demo's (1, 2, …). */
const SALT_NONCES = { large: 0x7b_3e_a5_01n, small: 0x7b_3e_a5_02n }

export type TreasuryName = keyof typeof SALT_NONCES
export type BenchTreasury = {
  address: Address
  /** The block that created the Safe: the index's start block. */
  startBlock: number
  /** The block of its last transfer. */
  lastBlock: number
  transfers: number
  /** Transfers of each kind on the chain, counted while sending them. */
  kinds: Record<TransferKind, number>
  /** ETH sent to the Safe (SafeReceived rows; the Treasury page charts the native coin first). */
  ethDeposits: number
}

/** Payee `i`: a plain address, the same few on every run. */
const payee = (i: number): Address =>
  getAddress(numberToHex(0xbe7c_0000_0000n + BigInt(i % PAYEES), { size: 20 }))

export async function prepareTreasuryChain({
  sizes,
  log,
}: {
  sizes: Record<TreasuryName, number>
  log: (message: string) => void
}) {
  const bench = await startBenchChain()
  const { anvil, deployment, client, testClient, wallet, receipt } = bench
  try {
    await testClient.setBlockGasLimit({ gasLimit: 1_000_000_000n })
    const target = { rpcUrl: anvil.url, chainId: await client.getChainId() }
    const plans = {
      large: transferPlan(sizes.large),
      small: transferPlan(sizes.small),
    }
    const incoming = (name: TreasuryName) => plans[name].filter((t) => t.kind === 'incoming').length
    log('treasury: compiling contracts/BenchTransfers.sol (solc-js), deploying it and the two Safes')
    const helper = await deployTokenHelper(
      bench,
      'BenchTransfers',
      INCOMING_AMOUNT * BigInt(incoming('large') + incoming('small')),
    )

    const treasuries = {} as Record<TreasuryName, BenchTreasury>
    for (const name of Object.keys(SALT_NONCES) as TreasuryName[]) {
      const created = await createSafeOfVersion(target, {
        version: '1.5.0',
        owners: OWNERS,
        threshold: 2,
        saltNonce: SALT_NONCES[name],
      })
      const { blockNumber } = await receipt(created.transactionHash)
      treasuries[name] = {
        address: created.address,
        startBlock: Number(blockNumber),
        lastBlock: Number(blockNumber),
        transfers: sizes[name],
        kinds: { incoming: 0, outgoing: 0, executed: 0 },
        ethDeposits: 0,
      }
    }

    /**
     * Executes a call of the token from the Safe in the shape the app queues (one action batched through
     * MultiSendCallOnly, gas fields 0), signed by Ada and Ben; the block it landed in.
     */
    const execute = async (safe: Address, data: Hex) => {
      const batch = safeTransactionForActions({
        actions: [{ target: deployment.token, value: '0', data }],
        nonce: 0, // executeSafeTransaction signs at the Safe's current nonce
        multiSend: MULTI_SEND_CALL_ONLY['1.5.0'].address,
      })
      const executed = await executeSafeTransaction(target, {
        safe,
        signers: OWNERS.slice(0, 2),
        to: batch.to,
        data: batch.data,
        operation: 1,
      })
      // safeTxGas 0: a failing inner call reverts the whole transaction.
      if (executed.status !== 'success') throw new Error(`the Safe execution ${executed.safeTxHash} reverted`)
      return Number((await receipt(executed.transactionHash)).blockNumber)
    }
    const tokenCall = (functionName: 'approve' | 'transfer', args: readonly [Address, bigint]) =>
      encodeFunctionData({ abi: governanceTokenAbi, functionName, args })

    for (const name of Object.keys(treasuries) as TreasuryName[]) {
      // The helper may move the Safe's outgoing tokens: one execution, one Approval (no Transfer).
      await execute(treasuries[name].address, tokenCall('approve', [helper.address, maxUint256]))
    }

    const started = performance.now()
    const firstRound = await client.getBlock({ blockTag: 'latest' })
    let payees = 0
    for (let round = 0; round < ROUNDS; round++) {
      await testClient.setNextBlockTimestamp({
        timestamp: firstRound.timestamp + BigInt((round + 1) * ROUND_SECONDS),
      })
      for (const name of Object.keys(treasuries) as TreasuryName[]) {
        const treasury = treasuries[name]
        const inRound = plans[name].filter((t) => t.round === round)
        const count = (kind: TransferKind) => inRound.filter((t) => t.kind === kind).length
        const safe = treasury.address
        if (round % ETH_DEPOSIT_EVERY === 0) {
          const sent = await wallet.sendTransaction({ to: safe, value: ETH_DEPOSIT, gas: 100_000n })
          treasury.lastBlock = Number((await receipt(sent)).blockNumber)
          treasury.ethDeposits++
        }
        if (count('incoming') > 0) {
          const data = encodeFunctionData({
            abi: helper.abi,
            functionName: 'transferEach',
            args: [deployment.token, Array(count('incoming')).fill(safe), INCOMING_AMOUNT],
          })
          treasury.lastBlock = Number((await receipt(await helper.send(data, BATCH_GAS))).blockNumber)
        }
        if (count('outgoing') > 0) {
          const recipients = Array.from({ length: count('outgoing') }, () => payee(payees++))
          const data = encodeFunctionData({
            abi: helper.abi,
            functionName: 'transferFromEach',
            args: [deployment.token, safe, recipients, OUTGOING_AMOUNT],
          })
          treasury.lastBlock = Number((await receipt(await helper.send(data, BATCH_GAS))).blockNumber)
        }
        for (let i = 0; i < count('executed'); i++) {
          const paid = tokenCall('transfer', [payee(payees++), OUTGOING_AMOUNT])
          treasury.lastBlock = await execute(safe, paid)
        }
        for (const kind of ['incoming', 'outgoing', 'executed'] as const) treasury.kinds[kind] += count(kind)
      }
      if ((round + 1) % 20 === 0) log(`treasury: ${round + 1} of ${ROUNDS} rounds on the chain`)
    }
    const head = Number(await client.getBlockNumber({ cacheTime: 0 }))
    // A figure for a wrong history is worthless: the chain's own count of each Safe's Transfer logs.
    const transferEvent = getAbiItem({ abi: governanceTokenAbi, name: 'Transfer' })
    for (const treasury of Object.values(treasuries)) {
      let incoming = 0
      let outgoing = 0
      for (let from = treasury.startBlock; from <= head; from += LOG_RANGE) {
        const range = { fromBlock: BigInt(from), toBlock: BigInt(Math.min(head, from + LOG_RANGE - 1)) }
        const logs = (args: { from: Address } | { to: Address }) =>
          client.getLogs({ address: deployment.token, event: transferEvent, args, ...range })
        incoming += (await logs({ to: treasury.address })).length
        outgoing += (await logs({ from: treasury.address })).length
      }
      const { kinds } = treasury
      if (incoming !== kinds.incoming || outgoing !== kinds.outgoing + kinds.executed)
        throw new Error(
          `${treasury.address}: ${incoming} incoming and ${outgoing} outgoing Transfers on the chain, not ${kinds.incoming} and ${kinds.outgoing + kinds.executed}`,
        )
    }
    return {
      anvil,
      deployment,
      client,
      treasuries,
      head,
      setupSeconds: (performance.now() - started) / 1000,
    }
  } catch (error) {
    await anvil.stop()
    throw error
  }
}

export type TreasuryChain = Awaited<ReturnType<typeof prepareTreasuryChain>>
