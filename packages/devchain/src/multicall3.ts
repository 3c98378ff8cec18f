import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { MULTICALL3_ADDRESS } from '@guildhall/core'
import type { Hex, TestClient } from 'viem'

// viem ships Multicall3's creation code (for deployless calls) without exporting it; read it from the
// pinned viem. The constructor only copies the runtime code out of itself:
// PUSH2 <length> DUP1 PUSH2 0x0020 PUSH1 0 CODECOPY PUSH1 0 RETURN INVALID, then the runtime code.
const CONSTRUCTOR = /^0x608060405234801561001057600080fd5b5061([0-9a-f]{4})806100206000396000f3fe/

/** Multicall3's runtime code, cut out of the creation code viem ships. */
async function multicall3RuntimeCode(): Promise<Hex> {
  const viemRoot = dirname(createRequire(import.meta.url).resolve('viem/package.json'))
  const constants = (await import(pathToFileURL(join(viemRoot, '_esm/constants/contracts.js')).href)) as {
    multicall3Bytecode?: Hex
  }
  const creation = constants.multicall3Bytecode ?? '0x'
  const match = CONSTRUCTOR.exec(creation)
  if (!match?.[1])
    throw new Error("viem's multicall3Bytecode is missing or no longer has the expected constructor")
  const length = Number.parseInt(match[1], 16)
  return `0x${creation.slice(2 + 64, 2 + 64 + length * 2)}`
}

/** Puts Multicall3 at its canonical address on an anvil chain (no transaction, so no nonce changes). */
export async function installMulticall3(testClient: TestClient): Promise<void> {
  await testClient.setCode({ address: MULTICALL3_ADDRESS, bytecode: await multicall3RuntimeCode() })
}
