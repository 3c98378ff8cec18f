// Core's Safe transaction derivation (packages/core/src/treasury, ADR 048) against real Safe v1.5.0
// contracts on anvil: the hashes a signer compares are the Safe's own, and the derived batch executes.
import { createRequire } from 'node:module'
import {
  decodeMultiSend,
  isCanonicalMultiSendCallOnly,
  MULTI_SEND_CALL_ONLY,
  type ProposalAction,
  safeTransactionForActions,
  safeTransactionHashes,
} from '@guildhall/core'
import {
  concatHex,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  keccak256,
  parseAbi,
  parseEther,
  parseEventLogs,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { anvilAccounts } from './accounts.ts'
import { type AnvilInstance, getFreePort, startAnvil } from './anvil.ts'
import { SAFE_SINGLETON_FACTORY, ZERO_SALT } from './safe/contracts.ts'
import { type Clients, clients, safeRelayer, successfulReceipt } from './safe/relayer.ts'
import { DETERMINISTIC_DEPLOYMENT_PROXY } from './safe/versions.ts'
import { deploySafes, type SafeDeployment, safeAbi } from './safe.ts'

const chainId = 31337
const require = createRequire(import.meta.url)
/** A build artifact's creation and runtime code. */
type Artifact = { bytecode: Hex; deployedBytecode: Hex }
const multiSendArtifact: Artifact = require('@safe-global/safe-smart-account/build/artifacts/contracts/libraries/MultiSendCallOnly.sol/MultiSendCallOnly.json')
const multiSend = MULTI_SEND_CALL_ONLY['1.5.0'].address

function key(index: number) {
  const found = anvilAccounts[index]
  if (!found) throw new Error(`no anvil account ${index}`)
  return privateKeyToAccount(found.privateKey)
}
/** Two of the 2-of-3 Safe's owners (anvil accounts 1 and 3). */
const [ada, cleo] = [key(1), key(3)]
/** Not owners: who receives the payouts. */
const payee = key(7).address
const other = key(8).address

let anvil: AnvilInstance
let c: Clients
let deployment: SafeDeployment

beforeAll(async () => {
  anvil = await startAnvil({ port: await getFreePort(), chainId, quiet: true })
  c = clients({ rpcUrl: anvil.url, chainId })
  deployment = await deploySafes({ rpcUrl: anvil.url, chainId })
  // The demo deploys MultiSendCallOnly too; here it is deployed the same way (Safe's singleton factory,
  // salt 0) so this test needs nothing beyond the Safe.
  const code = await c.publicClient.getCode({ address: multiSend })
  if (!code || code === '0x') {
    const hash = await c.walletClient.sendTransaction({
      account: safeRelayer(),
      to: SAFE_SINGLETON_FACTORY,
      data: concatHex([ZERO_SALT, multiSendArtifact.bytecode]),
    })
    await successfulReceipt(c, hash, 'deploying MultiSendCallOnly')
  }
}, 60_000)
afterAll(async () => {
  await anvil?.stop()
})

const readNonce = (safe: Hex) =>
  c.publicClient.readContract({ address: safe, abi: safeAbi, functionName: 'nonce' })

describe('MultiSendCallOnly of each release', () => {
  test("behavior: the 1.3.0 and 1.4.1 npm artifacts land at MULTI_SEND_CALL_ONLY's addresses, as Safe deployed them, with its code hashes", () => {
    const landing = (from: Hex, bytecode: Hex) =>
      getContractAddress({ opcode: 'CREATE2', from, salt: ZERO_SALT, bytecode })
    const v130: Artifact = require('@gnosis.pm/safe-contracts/build/artifacts/contracts/libraries/MultiSendCallOnly.sol/MultiSendCallOnly.json')
    const v141: Artifact = require('@safe-global/safe-contracts/build/artifacts/contracts/libraries/MultiSendCallOnly.sol/MultiSendCallOnly.json')
    // 1.3.0 went through Arachnid's proxy first, then through Safe's singleton factory too.
    expect([
      landing(DETERMINISTIC_DEPLOYMENT_PROXY, v130.bytecode),
      landing(SAFE_SINGLETON_FACTORY, v130.bytecode),
    ]).toEqual([MULTI_SEND_CALL_ONLY['1.3.0'].address, ...MULTI_SEND_CALL_ONLY['1.3.0'].otherAddresses])
    expect(keccak256(v130.deployedBytecode)).toBe(MULTI_SEND_CALL_ONLY['1.3.0'].codeHash)
    expect(landing(SAFE_SINGLETON_FACTORY, v141.bytecode)).toBe(MULTI_SEND_CALL_ONLY['1.4.1'].address)
    expect(keccak256(v141.deployedBytecode)).toBe(MULTI_SEND_CALL_ONLY['1.4.1'].codeHash)
  })

  test('behavior: the npm artifact lands at MULTI_SEND_CALL_ONLY 1.5.0 with its code hash, and the deployed code is recognised', async () => {
    expect(
      getContractAddress({
        opcode: 'CREATE2',
        from: SAFE_SINGLETON_FACTORY,
        salt: ZERO_SALT,
        bytecode: multiSendArtifact.bytecode,
      }),
    ).toBe(multiSend)
    expect(keccak256(multiSendArtifact.deployedBytecode)).toBe(MULTI_SEND_CALL_ONLY['1.5.0'].codeHash)
    const code = await c.publicClient.getCode({ address: multiSend })
    expect(isCanonicalMultiSendCallOnly(multiSend, keccak256(code ?? '0x'))).toBe(true)
    // The Safe singleton sits at a known address too, but it is not MultiSendCallOnly.
    const singleton = await c.publicClient.getCode({ address: deployment.singleton })
    expect(isCanonicalMultiSendCallOnly(deployment.singleton, keccak256(singleton ?? '0x'))).toBe(false)
  })
})

describe('safeTransactionHashes', () => {
  const actions: ProposalAction[] = [
    { target: payee, value: parseEther('1').toString(), data: '0x' },
    {
      target: other,
      value: '3',
      data: encodeFunctionData({
        abi: parseAbi(['function poke(uint256 n)']),
        functionName: 'poke',
        args: [7n],
      }),
    },
  ]

  test("behavior: the safeTxHash equals the Safe's getTransactionHash at several nonces; the domain hash is its domainSeparator", async () => {
    const safe = deployment.twoOfThree.address
    for (const nonce of [0n, 1n, 41n]) {
      const transaction = safeTransactionForActions({ actions, nonce, multiSend })
      const hashes = safeTransactionHashes({ chainId, safe, transaction })
      const onChain = await c.publicClient.readContract({
        address: safe,
        abi: safeAbi,
        functionName: 'getTransactionHash',
        args: [
          transaction.to,
          transaction.value,
          transaction.data,
          transaction.operation,
          transaction.safeTxGas,
          transaction.baseGas,
          transaction.gasPrice,
          transaction.gasToken,
          transaction.refundReceiver,
          nonce,
        ],
      })
      expect(hashes.safeTxHash).toBe(onChain)
      expect(keccak256(concatHex(['0x1901', hashes.domainHash, hashes.messageHash]))).toBe(onChain)
    }
    expect(
      safeTransactionHashes({
        chainId,
        safe,
        transaction: safeTransactionForActions({ actions, nonce: 0n, multiSend }),
      }).domainHash,
    ).toBe(
      await c.publicClient.readContract({ address: safe, abi: safeAbi, functionName: 'domainSeparator' }),
    )
  })

  test('behavior: the derived batch, signed by 2 of 3 owners over its safeTxHash, executes: ExecutionSuccess logs that hash, the payees are paid, the nonce moves on', async () => {
    const safe = deployment.twoOfThree.address
    await c.testClient.setBalance({ address: safe, value: parseEther('5') })
    const before = await Promise.all([payee, other].map((address) => c.publicClient.getBalance({ address })))
    const nonce = await readNonce(safe)
    const transaction = safeTransactionForActions({ actions, nonce, multiSend })
    expect(decodeMultiSend(transaction.data).map((call) => call.operation)).toEqual([0, 0])
    const { safeTxHash } = safeTransactionHashes({ chainId, safe, transaction })
    // Owners sign the hash itself (ECDSA, v 27/28), in ascending owner order as the Safe checks them.
    const signers = [cleo, ada].sort((a, b) => (BigInt(a.address) < BigInt(b.address) ? -1 : 1))
    const signatures = concatHex(await Promise.all(signers.map((owner) => owner.sign({ hash: safeTxHash }))))
    const hash = await c.walletClient.writeContract({
      account: safeRelayer(),
      address: safe,
      abi: safeAbi,
      functionName: 'execTransaction',
      args: [
        transaction.to,
        transaction.value,
        transaction.data,
        transaction.operation,
        transaction.safeTxGas,
        transaction.baseGas,
        transaction.gasPrice,
        transaction.gasToken,
        transaction.refundReceiver,
        signatures,
      ],
    })
    const receipt = await successfulReceipt(c, hash, 'executing the derived batch')
    const executed = parseEventLogs({ abi: safeAbi, logs: receipt.logs, eventName: 'ExecutionSuccess' })
    expect(executed.map((log) => log.args.txHash)).toEqual([safeTxHash])
    const after = await Promise.all([payee, other].map((address) => c.publicClient.getBalance({ address })))
    expect(after.map((balance, i) => balance - (before[i] as bigint))).toEqual([parseEther('1'), 3n])
    expect(await readNonce(safe)).toBe(nonce + 1n)
  }, 30_000)
})
