// Holders with real voting power, for the scale and closing-hour sections: the demo DAO on a fresh anvil,
// then `holders` holders each holding tokens and delegating to themselves by their own signature (ERC20Votes
// delegateBySig), applied a few hundred per transaction by contracts/BenchHolders.sol. The setup takes the
// same blocks on every run, so the proposal's snapshot (the setup's last block), and with it the proposal id
// and every vote's digest, are the same: the signatures (a key, a delegation and a vote per holder, minutes
// of CPU) are made once and kept in the section's cache folder under bench-results/.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { demoDomain } from '@guildhall/api/testbed'
import { type GovernanceDomain, LOCAL_CHAIN_ID, type ProposalMessage } from '@guildhall/core'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { type Address, encodeFunctionData, type Hex, type PublicClient, parseSignature } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { deployTokenHelper, startBenchChain } from './chain.ts'
import {
  scaleHolderTokens,
  scaleProposalMessage,
  scaleVoteMessage,
  scaleVoterKey,
  signScaleProposal,
  signScaleVote,
} from './holder-votes.ts'
import type { SeedVote } from './vote-seed.ts'

/** Holders per transaction: about 110k gas each (a signature check, two checkpoints, a balance). */
const HOLDERS_PER_TX = 250
const HOLDERS_TX_GAS = 60_000_000n
const DELEGATION_EXPIRY = 4_102_444_800n // 2100-01-01

type Cached = {
  chainId: number
  token: Address
  proposalId: Hex
  holders: { address: Address; delegation: Hex; voteId: Hex; vote: Hex }[]
}

export type ScaleChain = {
  anvil: AnvilInstance
  deployment: DemoDeployment
  client: PublicClient
  domain: GovernanceDomain
  proposal: { id: Hex; message: ProposalMessage; signature: Hex }
  /** Every holder's signed vote on the proposal, with the power the chain gives it. */
  votes: SeedVote[]
  /** What the setup cost: signing (0 when cached) and the holders' transactions. */
  seconds: { signing: number; holders: number }
}

const delegationTypedData = (token: Address, tokenName: string, delegatee: Address) =>
  ({
    domain: { name: tokenName, version: '1', chainId: LOCAL_CHAIN_ID, verifyingContract: token },
    types: {
      Delegation: [
        { name: 'delegatee', type: 'address' },
        { name: 'nonce', type: 'uint256' },
        { name: 'expiry', type: 'uint256' },
      ],
    },
    primaryType: 'Delegation',
    message: { delegatee, nonce: 0n, expiry: DELEGATION_EXPIRY },
  }) as const

export async function prepareScaleChain({
  holders: count,
  cacheDir,
  log,
  title,
}: {
  holders: number
  cacheDir: string
  log: (message: string) => void
  /** The proposal's title (the scale proposal's by default): a section's own proposal is another id. */
  title?: string
}): Promise<ScaleChain> {
  const bench = await startBenchChain()
  const { anvil, deployment, client, testClient, receipt } = bench
  try {
    const domain = demoDomain(deployment)
    // The helper's deployment, the mint, then a transaction per batch of holders: a block each.
    const setupStart = Number(await client.getBlockNumber({ cacheTime: 0 }))
    const snapshot = setupStart + 2 + Math.ceil(count / HOLDERS_PER_TX)
    const proposal = await signScaleProposal(domain, scaleProposalMessage(snapshot, title))

    // The signatures: reused when the chain, token and proposal are the ones they were made for.
    const cachePath = join(cacheDir, `signatures-${count}.json`)
    let cached: Cached | undefined = existsSync(cachePath)
      ? (JSON.parse(readFileSync(cachePath, 'utf8')) as Cached)
      : undefined
    if (
      cached &&
      (cached.chainId !== LOCAL_CHAIN_ID ||
        cached.token !== deployment.token ||
        cached.proposalId !== proposal.id ||
        cached.holders.length !== count)
    ) {
      log('scale: the cached signatures are for another chain, token or proposal: signing again')
      cached = undefined
    }
    const signingStarted = performance.now()
    if (!cached) {
      log(
        `scale: signing ${count.toLocaleString('en-US')} delegations and votes (once; cached in ${cachePath})`,
      )
      const holders: Cached['holders'] = []
      for (let i = 0; i < count; i++) {
        const account = privateKeyToAccount(scaleVoterKey(i))
        const vote = await signScaleVote(domain, proposal, i, account)
        holders.push({
          address: account.address,
          delegation: await account.signTypedData(
            delegationTypedData(deployment.token, deployment.tokenName, account.address),
          ),
          voteId: vote.id,
          vote: vote.signature,
        })
        if ((i + 1) % 10_000 === 0) log(`scale: signed ${i + 1} of ${count}`)
      }
      cached = { chainId: LOCAL_CHAIN_ID, token: deployment.token, proposalId: proposal.id, holders }
      mkdirSync(cacheDir, { recursive: true })
      writeFileSync(cachePath, JSON.stringify(cached))
    }
    const signing = (performance.now() - signingStarted) / 1000
    const holders = cached.holders

    const holdersStarted = performance.now()
    log(
      `scale: ${count.toLocaleString('en-US')} holders on the chain (${Math.ceil(count / HOLDERS_PER_TX)} transactions of contracts/BenchHolders.sol)`,
    )
    await testClient.setBlockGasLimit({ gasLimit: 1_000_000_000n })
    const amounts = holders.map((_, i) => scaleHolderTokens(i))
    const helper = await deployTokenHelper(
      bench,
      'BenchHolders',
      amounts.reduce((sum, amount) => sum + amount, 0n),
    )
    for (let start = 0; start < count; start += HOLDERS_PER_TX) {
      const batch = holders.slice(start, start + HOLDERS_PER_TX)
      const signatures = batch.map((holder) => parseSignature(holder.delegation))
      const data = encodeFunctionData({
        abi: helper.abi,
        functionName: 'delegateAndFund',
        args: [
          deployment.token,
          batch.map((holder) => holder.address),
          amounts.slice(start, start + HOLDERS_PER_TX),
          DELEGATION_EXPIRY,
          signatures.map((signature) => Number(signature.v ?? BigInt(27 + (signature.yParity ?? 0)))),
          signatures.map((signature) => signature.r),
          signatures.map((signature) => signature.s),
        ],
      })
      await receipt(await helper.send(data, HOLDERS_TX_GAS))
      if ((start / HOLDERS_PER_TX + 1) % 40 === 0) log(`scale: ${start + batch.length} holders on the chain`)
    }
    const head = Number(await client.getBlockNumber({ cacheTime: 0 }))
    if (head !== snapshot) throw new Error(`the holders' setup ended at block ${head}, not ${snapshot}`)
    // getPastVotes needs the snapshot strictly before the head.
    await testClient.mine({ blocks: 2 })

    const votes: SeedVote[] = holders.map((holder, i) => ({
      id: holder.voteId,
      message: scaleVoteMessage(i, holder.address, proposal.id, proposal.message.start),
      signature: holder.vote,
      power: amounts[i] as bigint,
    }))
    return {
      anvil,
      deployment,
      client,
      domain,
      proposal,
      votes,
      seconds: { signing, holders: (performance.now() - holdersStarted) / 1000 },
    }
  } catch (error) {
    await anvil.stop()
    throw error
  }
}
