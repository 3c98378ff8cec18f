// PROPOSAL_CATEGORIES (variables.ts): what a proposal's category may be, as the web app learns it too.
import { DEFAULT_PROPOSAL_CATEGORIES } from '@guildhall/core'
import { describe, expect, test } from 'vitest'
import { parseEnv } from './env.ts'
import { envError } from './env-test-helpers.ts'

describe('parseEnv: PROPOSAL_CATEGORIES', () => {
  const local = { CHAIN_IDS: '31337', RPC_URL_31337: 'http://127.0.0.1:8545', WALLETS: 'injected' }

  test('default: Grants, Operations, Security; a list of its own, trimmed; empty: none', () => {
    expect(parseEnv(local).publicConfig.proposalCategories).toEqual(['Grants', 'Operations', 'Security'])
    expect(DEFAULT_PROPOSAL_CATEGORIES).toEqual(['Grants', 'Operations', 'Security'])
    expect(
      parseEnv({ ...local, PROPOSAL_CATEGORIES: ' Payroll ,Events,, Legal' }).publicConfig.proposalCategories,
    ).toEqual(['Payroll', 'Events', 'Legal'])
    expect(parseEnv({ ...local, PROPOSAL_CATEGORIES: '' }).publicConfig.proposalCategories).toEqual([])
  })

  test('parameters: a name over 40 characters, or one listed twice, is refused by name', () => {
    expect(envError({ ...local, PROPOSAL_CATEGORIES: `Grants,${'x'.repeat(41)}` }).message).toContain(
      '- PROPOSAL_CATEGORIES.1: must be at most 40 characters',
    )
    expect(envError({ ...local, PROPOSAL_CATEGORIES: 'Grants,Events,Grants' }).message).toContain(
      '- PROPOSAL_CATEGORIES: lists a category twice',
    )
  })
})
