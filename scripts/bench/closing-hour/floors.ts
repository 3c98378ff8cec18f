// The signature floors: what one core checks per second, in this process on one thread, of the very calls the
// API makes (a vote: its EIP-712 digest, voteId, then verifyHashSignature; a sign-in: the strict SIWE parse,
// then verifyPersonalSignature), with the recovery its signature workers run (core's wasmRecoverSigner: viem's
// recoverAddress imports noble on every call, which under this process's tsx loader costs 0.4 ms and made
// the floor low, ADR 076). Timed in CPU time (process.cpuUsage), so other processes' load changes the figure
// little; the API is judged against floor × cores.

import { signedSignInMessage } from '@guildhall/api/testbed'
import {
  type GovernanceDomain,
  loadWasmKeccak,
  parseSiweMessageStrict,
  verifyHashSignature,
  verifyPersonalSignature,
  voteId,
} from '@guildhall/core'
import { wasmRecoverSigner } from '@guildhall/core/wasm-recover'
import type { Hex, PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { benchVoterKey } from '../harness/chain.ts'
import { cpuMs } from '../harness/processes.ts'
import type { SeedVote } from '../harness/vote-seed.ts'
import { FLOOR_ROUNDS } from './plan.ts'

/**
 * Checks per second of CPU time of `check` over `count` inputs, after an untimed tenth (JIT): the best of
 * FLOOR_ROUNDS rounds.
 */
async function perCoreSecond<T>(inputs: T[], check: (input: T) => Promise<boolean>) {
  for (const input of inputs.slice(0, Math.ceil(inputs.length / 10))) await check(input)
  let best = 0
  for (let round = 0; round < FLOOR_ROUNDS; round++) {
    const before = process.cpuUsage()
    for (const input of inputs) if (!(await check(input))) throw new Error('a floor check failed')
    best = Math.max(best, Math.round(inputs.length / (cpuMs(process.cpuUsage(before)) / 1000)))
  }
  return best
}

export async function signatureFloors(
  domain: GovernanceDomain,
  votes: SeedVote[],
  client: PublicClient,
  origin: string,
) {
  // The API hashes with the WebAssembly Keccak it loads at its start (ADR 086): so does its floor.
  await loadWasmKeccak()
  const recover = async (hash: Hex, signature: Hex) => wasmRecoverSigner(hash, signature)
  const voteChecksPerCoreSecond = await perCoreSecond(votes, ({ message, signature }) =>
    verifyHashSignature({
      address: message.voter,
      hash: voteId(domain, message),
      signature,
      client,
      recover,
    }),
  )
  const signIns = []
  for (let i = 0; i < votes.length; i++) {
    const account = privateKeyToAccount(benchVoterKey('closing-hour-sign-in', i))
    const nonce = `floor${String(i).padStart(12, '0')}`
    signIns.push({
      address: account.address,
      ...(await signedSignInMessage(account, { origin, nonce, daoName: 'Guildhall Bench DAO' })),
    })
  }
  const signInChecksPerCoreSecond = await perCoreSecond(signIns, async ({ address, message, signature }) => {
    if (!parseSiweMessageStrict(message).ok) return false
    return verifyPersonalSignature({ address, message, signature, client, recover })
  })
  return { voteChecksPerCoreSecond, signInChecksPerCoreSecond, samples: votes.length }
}
