import { anvilAccounts } from '@guildhall/devchain/accounts'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import type { NameService } from '@guildhall/devchain/name-service'
import type { DemoTreasury } from '@guildhall/devchain/safe'
import { expect, test } from 'vitest'
import { parseEnv } from '../settings/env.ts'
import { demoEnv, testEnv } from './local-chain.ts'

const deployment: DemoDeployment = {
  chainId: 31337,
  token: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  deployBlock: 1,
  tokenName: 'Guildhall Demo Token',
  tokenSymbol: 'GHD',
  members: [],
}

const nameService: NameService = {
  rpcUrl: 'http://127.0.0.1:8546',
  ipfsGatewayUrl: 'http://127.0.0.1:9000',
  deployment: {
    registry: '0x0000000000000000000000000000000000000001',
    publicResolver: '0x0000000000000000000000000000000000000002',
    reverseRegistrar: '0x0000000000000000000000000000000000000003',
    universalResolver: '0xeEeEEEeE14D718C2B47D9923Deab1335E144EeEe',
    members: [],
  },
  stop: async () => {},
}

test('behavior: the demo gives the local name service (chain 1) to the server only, never to a chain list the browser or a wallet sees', () => {
  const settings = parseEnv(
    demoEnv({
      anvilUrl: 'http://127.0.0.1:8545',
      deployment,
      nameService,
      webDist: '/nonexistent',
      // The caller's environment does not move the lookups off the name service the demo started.
      env: { ENS_RPC_URL: 'https://elsewhere.example' },
    }),
  )
  expect(settings.nameService).toEqual({
    rpcUrl: 'http://127.0.0.1:8546',
    ipfsGateways: ['http://127.0.0.1:9000'],
    arweaveGateways: [],
  })
  expect(settings.chains.map((chain) => chain.id)).toEqual([31337])
  expect(settings.publicConfig.chains.map((chain) => chain.id)).toEqual([31337])
  expect(JSON.stringify(settings.publicConfig)).not.toContain('8546')
  // A minute of objections before a passed proposal's Safe transaction can be queued; the expiry as default.
  expect(settings.execution).toMatchObject({ delaySeconds: 60, expirySeconds: 30 * 24 * 60 * 60 })
})

test('default: without a name service the demo has no name lookups', () => {
  const settings = parseEnv(
    demoEnv({ anvilUrl: 'http://127.0.0.1:8545', deployment, webDist: '/nonexistent', env: {} }),
  )
  expect(settings.nameService).toBeNull()
})

const treasury: DemoTreasury = {
  chainId: 31337,
  safe: {
    address: '0x1a443fD0a48773cA519C80ee3186A1aeC492efa4',
    owners: [
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
    ],
    threshold: 2,
  },
  tokens: [deployment.token, '0xd44b4A839378678B6e0593Aff1AE307565E699dC'],
  usdg: '0xd44b4A839378678B6e0593Aff1AE307565E699dC',
  startBlock: 12,
}

test('behavior: the demo’s treasury settings come from its deployment: the Safe, GHD and USDG, the Safe’s creation block; a minute to object before queueing', () => {
  const settings = parseEnv(
    demoEnv({ anvilUrl: 'http://127.0.0.1:8545', deployment, treasury, webDist: '/nonexistent', env: {} }),
  )
  expect(settings.treasury).toEqual({
    safe: treasury.safe.address,
    addresses: [],
    tokens: treasury.tokens,
    startBlock: 12,
    priceFeeds: [],
  })
  expect(settings.execution.delaySeconds).toBe(60)
  expect(
    parseEnv(demoEnv({ anvilUrl: 'http://127.0.0.1:8545', deployment, webDist: '/nonexistent', env: {} }))
      .treasury,
  ).toBeNull()
})

test('behavior: Cleo moderates the demo’s forum unless MODERATORS says otherwise', () => {
  const demo = (env: Record<string, string>) =>
    parseEnv(demoEnv({ anvilUrl: 'http://127.0.0.1:8545', deployment, webDist: '/nonexistent', env }))
  expect(demo({}).moderation.moderators).toEqual([anvilAccounts[3]?.address])
  expect(demo({ MODERATORS: '' }).moderation.moderators).toEqual([])
})

test('behavior: the demo turns quadratic voting on unless QUADRATIC_VOTING says otherwise; elsewhere it is off', () => {
  const demo = (env: Record<string, string>) =>
    parseEnv(demoEnv({ anvilUrl: 'http://127.0.0.1:8545', deployment, webDist: '/nonexistent', env }))
  expect(demo({}).publicConfig.governance.quadraticVoting).toBe(true)
  expect(demo({ QUADRATIC_VOTING: 'off' }).publicConfig.governance.quadraticVoting).toBe(false)
  expect(parseEnv(testEnv('http://127.0.0.1:8545', deployment)).publicConfig.governance.quadraticVoting).toBe(
    false,
  )
})
