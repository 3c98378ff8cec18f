// The bench's chain, one way for its governance and scale sections: the demo DAO on a fresh anvil
// (startDemoChain), viem clients on it, a helper contract of contracts/ (compiled here by solc-js) that the
// token's owner deploys and mints tokens to, for it to hand out a few hundred holders per transaction; and the
// bench's voter keys, fixed so every run has the same voters.

import { startDemoChain } from '@guildhall/api/demo'
import { LOCAL_CHAIN_ID } from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import {
  type Abi,
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hash,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  toHex,
} from 'viem'
import { foundry } from 'viem/chains'
import { compileContract } from '../../build-contracts.ts'

/** Voter `i` of a bench section's voters (`label`: "bench", "scale"): keccak256("guildhall-<label>-voter-<i>"). */
export const benchVoterKey = (label: string, i: number): Hex =>
  keccak256(toHex(`guildhall-${label}-voter-${i}`))

/** The demo DAO's chain and clients on it, the wallet being the deployer's (the token's owner). */
export async function startBenchChain() {
  const { anvil, deployment } = await startDemoChain()
  const chain = { ...foundry, id: LOCAL_CHAIN_ID }
  const transport = http(anvil.url)
  const client = createPublicClient({ chain, transport }) as PublicClient
  const testClient = createTestClient({ chain, transport, mode: 'anvil' })
  const wallet = createWalletClient({ chain, transport, account: anvilAccounts[0]?.address as Address })
  /** A setup transaction's receipt; one that reverted stops the bench. */
  const receipt = async (hash: Hash) => {
    const found = await client.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 120_000 })
    if (found.status !== 'success') throw new Error(`bench setup transaction ${hash} reverted`)
    return found
  }
  return { anvil, deployment, client, testClient, wallet, receipt }
}

type BenchChain = Awaited<ReturnType<typeof startBenchChain>>

/**
 * Deploys `contracts/<name>.sol` from the deployer (a block) and mints `tokens` to it (another); it never
 * delegates them (a treasury's, counted for no one).
 */
export async function deployTokenHelper(
  { deployment, wallet, receipt }: BenchChain,
  name: 'BenchTransfers' | 'BenchHolders',
  tokens: bigint,
) {
  const compiled = compileContract(`contracts/${name}.sol`, name)
  const abi = compiled.abi as Abi
  const deployed = await receipt(await wallet.deployContract({ abi, bytecode: compiled.bytecode }))
  const address = deployed.contractAddress as Address
  await receipt(
    await wallet.writeContract({
      address: deployment.token,
      abi: governanceTokenAbi,
      functionName: 'mint',
      args: [address, tokens],
      gas: 300_000n,
    }),
  )
  /** Sends `data` to the helper with a gas limit of its own. */
  const send = (data: Hex, gas: bigint) => wallet.sendTransaction({ to: address, data, gas })
  return { address, abi, send }
}
