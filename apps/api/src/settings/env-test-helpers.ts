// Shared by the parseEnv tests (env.test.ts and the tests of each group of variables).
import { expect } from 'vitest'
import { EnvError, parseEnv } from './env.ts'

export const ADA = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
export const BEN = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

/** An env without WalletConnect wallets, so no project id is needed unless a test says so. */
export const base = { WALLETS: 'injected,coinbase' }

/** The EnvError parseEnv throws for `env`, or a failure if it does not throw one. */
export function envError(env: Record<string, string | undefined>): EnvError {
  try {
    parseEnv(env)
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError)
    return error as EnvError
  }
  throw new Error('parseEnv accepted an invalid environment')
}
