// The DAO's chains from CHAIN_IDS and the per-chain variables (chains.ts, known-chains.ts).
import { baseSepolia, gnosis, mainnet, optimism, sepolia, zoraTestnet } from 'viem/chains'
import { describe, expect, test } from 'vitest'
import { parseEnv } from './env.ts'
import { base, envError } from './env-test-helpers.ts'

describe('parseEnv', () => {
  test('without CHAIN_IDS the chains are Ethereum mainnet then Sepolia, on their public RPC URLs', () => {
    const { chains, publicConfig } = parseEnv(base)
    expect(chains.map((c) => c.id)).toEqual([mainnet.id, sepolia.id])
    expect(chains).toMatchObject([
      {
        id: 1,
        name: mainnet.name,
        rpcUrl: mainnet.rpcUrls.default.http[0],
        upstreamRpcUrl: mainnet.rpcUrls.default.http[0],
        proxied: false,
        testnet: false,
        blockExplorerUrl: mainnet.blockExplorers.default.url,
      },
      {
        id: 11155111,
        name: sepolia.name,
        rpcUrl: sepolia.rpcUrls.default.http[0],
        proxied: false,
        testnet: true,
        blockExplorerUrl: sepolia.blockExplorers.default.url,
      },
    ])
    expect(publicConfig.chains.map((c) => c.id)).toEqual([1, 11155111])
    expect(publicConfig.chains[0]).not.toHaveProperty('upstreamRpcUrl')
  })

  test('a chain viem does not know needs RPC_URL_<id> and CHAIN_NAME_<id>, one viem knows only RPC_URL_<id>; every missing one is listed, a missing RPC_URL_<id> with "No URL was provided to the Transport."', () => {
    const error = envError({ ...base, CHAIN_IDS: '10,31338' })
    expect(error.message.split('\n')).toEqual([
      'Invalid configuration:',
      '- RPC_URL_10: No URL was provided to the Transport. Required for chain 10 (OP Mainnet; a public RPC is used only for Ethereum and Sepolia)',
      '- RPC_URL_31338: No URL was provided to the Transport. Required for chain 31338',
      '- CHAIN_NAME_31338: required for chain 31338 (not a chain Guildhall knows by id)',
    ])
  })

  test('an empty CHAIN_IDS gives "No chains found on connector."', () => {
    expect(envError({ ...base, CHAIN_IDS: ' , ' }).message).toContain(
      '- CHAIN_IDS: No chains found on connector.',
    )
  })

  test('local chains (loopback RPC) are reached through the app: rpcUrl is <origin>/rpc/<id>', () => {
    const { chains, publicConfig } = parseEnv({
      ...base,
      PORT: '4123',
      CHAIN_IDS: '31337,31338,10',
      RPC_URL_31337: 'http://127.0.0.1:8545',
      RPC_URL_31338: 'http://localhost:9545/',
      CHAIN_NAME_31338: 'Guildhall Testnet',
      RPC_URL_10: 'https://optimism.example/rpc',
      CHAIN_NAME_10: 'OP Mainnet',
    })
    expect(
      chains.map(({ id, rpcUrl, upstreamRpcUrl, proxied }) => ({ id, rpcUrl, upstreamRpcUrl, proxied })),
    ).toEqual([
      {
        id: 31337,
        rpcUrl: 'http://localhost:4123/rpc/31337',
        upstreamRpcUrl: 'http://127.0.0.1:8545',
        proxied: true,
      },
      {
        id: 31338,
        rpcUrl: 'http://localhost:4123/rpc/31338',
        upstreamRpcUrl: 'http://localhost:9545/',
        proxied: true,
      },
      {
        id: 10,
        rpcUrl: 'https://optimism.example/rpc',
        upstreamRpcUrl: 'https://optimism.example/rpc',
        proxied: false,
      },
    ])
    expect(publicConfig.chains.map((c) => c.rpcUrl)).toEqual([
      'http://localhost:4123/rpc/31337',
      'http://localhost:4123/rpc/31338',
      'https://optimism.example/rpc',
    ])
    expect(chains[0]).toMatchObject({ name: 'Local chain', testnet: true })
    expect(chains[1]).toMatchObject({ name: 'Guildhall Testnet', testnet: false })
  })
})

describe('parseEnv: Multicall3', () => {
  test('known chains take the address viem knows; other chains only what MULTICALL3_ADDRESS_<id> says', () => {
    const settings = parseEnv({
      ...base,
      CHAIN_IDS: '1,31337',
      RPC_URL_31337: 'http://127.0.0.1:8545',
      MULTICALL3_ADDRESS_31337: '0xcA11bde05977b3631167028862bE2a173976CA11',
    })
    expect(settings.publicConfig.chains.map((c) => c.multicall3)).toEqual([
      mainnet.contracts.multicall3.address,
      '0xcA11bde05977b3631167028862bE2a173976CA11',
    ])
    const without = parseEnv({ ...base, CHAIN_IDS: '31337', RPC_URL_31337: 'http://127.0.0.1:8545' })
    expect(without.publicConfig.chains[0]?.multicall3).toBeNull()
  })

  test('an invalid MULTICALL3_ADDRESS_<id> is reported by name', () => {
    expect(() =>
      parseEnv({
        ...base,
        CHAIN_IDS: '31337',
        RPC_URL_31337: 'http://127.0.0.1:8545',
        MULTICALL3_ADDRESS_31337: '0x12',
      }),
    ).toThrow('- MULTICALL3_ADDRESS_31337: must be a 0x-prefixed 20-byte address')
  })
})

describe('parseEnv: any chain viem knows, by id', () => {
  test('a chain id alone takes its name, native currency, block explorer, Multicall3 and testnet flag from viem', () => {
    const { chains } = parseEnv({
      ...base,
      CHAIN_IDS: '100,10,84532',
      RPC_URL_100: 'https://gnosis.example/rpc',
      RPC_URL_10: 'https://optimism.example/rpc',
      RPC_URL_84532: 'https://base-sepolia.example/rpc',
    })
    expect(chains.map(({ upstreamRpcUrl: _u, proxied: _p, rpcUrl: _r, ...facts }) => facts)).toEqual(
      [gnosis, optimism, baseSepolia].map((chain) => ({
        id: chain.id,
        name: chain.name,
        nativeCurrency: chain.nativeCurrency,
        blockExplorerUrl: chain.blockExplorers.default.url,
        multicall3: chain.contracts.multicall3.address,
        testnet: chain.testnet ?? false,
      })),
    )
    // Not the Ether every chain got before it was looked up.
    expect(chains[0]?.nativeCurrency).toEqual({ name: 'xDAI', symbol: 'XDAI', decimals: 18 })
    expect(chains[2]?.testnet).toBe(true)
  })

  test('CHAIN_NAME_<id> renames a chain viem knows and keeps the rest of its definition', () => {
    const [chain] = parseEnv({
      ...base,
      CHAIN_IDS: '100',
      RPC_URL_100: 'https://gnosis.example/rpc',
      CHAIN_NAME_100: 'Gnosis Chain',
    }).chains
    expect(chain).toMatchObject({
      name: 'Gnosis Chain',
      nativeCurrency: gnosis.nativeCurrency,
      blockExplorerUrl: gnosis.blockExplorers.default.url,
    })
  })

  test('an id viem gives to several chains needs CHAIN_NAME_<id> naming one of them, in any case', () => {
    const env = { ...base, CHAIN_IDS: '999', RPC_URL_999: 'https://rpc.example' }
    const candidates = ['HyperEVM', 'Wanchain Testnet', 'Zora Goerli Testnet']
    for (const name of [undefined, 'My chain']) {
      expect(envError({ ...env, CHAIN_NAME_999: name }).message, String(name)).toBe(
        `Invalid configuration:\n- CHAIN_NAME_999: chain 999 is more than one chain Guildhall knows (${candidates.join(', ')}); set it to the name of the one you mean`,
      )
    }
    const [chain] = parseEnv({ ...env, CHAIN_NAME_999: 'zora goerli testnet' }).chains
    expect(chain).toMatchObject({
      name: 'zora goerli testnet',
      testnet: true,
      blockExplorerUrl: zoraTestnet.blockExplorers.default.url,
    })
  })

  test('the local chain 31337 is "Local chain" whatever viem calls it (Anvil, Foundry, Hardhat)', () => {
    const [chain] = parseEnv({ ...base, CHAIN_IDS: '31337', RPC_URL_31337: 'http://127.0.0.1:8545' }).chains
    expect(chain).toMatchObject({
      name: 'Local chain',
      testnet: true,
      blockExplorerUrl: null,
      multicall3: null,
    })
  })

  test('a chain viem does not know, named by CHAIN_NAME_<id>, is an Ether chain without an explorer', () => {
    const [chain] = parseEnv({
      ...base,
      CHAIN_IDS: '31338',
      RPC_URL_31338: 'https://rpc.example',
      CHAIN_NAME_31338: 'Guildhall Testnet',
    }).chains
    expect(chain).toMatchObject({
      name: 'Guildhall Testnet',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      blockExplorerUrl: null,
      multicall3: null,
      testnet: false,
    })
  })
})

describe('parseEnv: WebSocket RPC URLs', () => {
  test('a wss:// URL is the browser’s URL too; a ws:// one on loopback is proxied like a local HTTP node', () => {
    const { chains, publicConfig } = parseEnv({
      ...base,
      PORT: '4123',
      CHAIN_IDS: '100,31337',
      RPC_URL_100: 'wss://gnosis.example/ws?key=secret',
      RPC_URL_31337: 'ws://127.0.0.1:8545',
    })
    expect(
      chains.map(({ rpcUrl, upstreamRpcUrl, proxied }) => ({ rpcUrl, upstreamRpcUrl, proxied })),
    ).toEqual([
      {
        rpcUrl: 'wss://gnosis.example/ws?key=secret',
        upstreamRpcUrl: 'wss://gnosis.example/ws?key=secret',
        proxied: false,
      },
      { rpcUrl: 'http://localhost:4123/rpc/31337', upstreamRpcUrl: 'ws://127.0.0.1:8545', proxied: true },
    ])
    expect(publicConfig.chains.map((chain) => chain.rpcUrl)).toEqual([
      'wss://gnosis.example/ws?key=secret',
      'http://localhost:4123/rpc/31337',
    ])
  })

  test('any other scheme is refused by name', () => {
    for (const url of ['ftp://rpc.example', 'javascript:alert(1)', 'rpc.example:8545']) {
      expect(envError({ ...base, CHAIN_IDS: '100', RPC_URL_100: url }).message, url).toBe(
        'Invalid configuration:\n- RPC_URL_100: must be an http(s) or ws(s) URL',
      )
    }
  })
})
