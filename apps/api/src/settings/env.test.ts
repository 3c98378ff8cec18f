import { DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS, MISSING_PROJECT_ID_MESSAGE } from '@guildhall/core'
import { baseSepolia, gnosis, mainnet, optimism, sepolia, zoraTestnet } from 'viem/chains'
import { describe, expect, test } from 'vitest'
import { EnvError, parseEnv } from './env.ts'

const ADA = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const BEN = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

/** An env without WalletConnect wallets, so no project id is needed unless a test says so. */
const base = { WALLETS: 'injected,coinbase' }

/** The EnvError parseEnv throws for `env`, or a failure if it does not throw one. */
function envError(env: Record<string, string | undefined>): EnvError {
  try {
    parseEnv(env)
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError)
    return error as EnvError
  }
  throw new Error('parseEnv accepted an invalid environment')
}

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

  test('problems of different kinds (a bad variable, missing chain variables, no project id) come in one list', () => {
    const { message } = envError({ PORT: 'x', CHAIN_IDS: '31338', RPC_URL_31338: 'not a url' })
    expect(message.split('\n')).toEqual([
      'Invalid configuration:',
      '- PORT: Invalid input: expected number, received NaN',
      '- RPC_URL_31338: must be an http(s) or ws(s) URL',
      '- CHAIN_NAME_31338: required for chain 31338 (not a chain Guildhall knows by id)',
      `- WALLETCONNECT_PROJECT_ID: ${MISSING_PROJECT_ID_MESSAGE}`,
    ])
  })

  test('several invalid variables at once are all listed in one EnvError', () => {
    const error = envError({
      PORT: 'eighty',
      LOG_LEVEL: 'loud',
      CHAIN_IDS: '1,abc',
      WALLETS: 'injected,phantom',
      TOKEN_ADDRESS: '0x1234',
      ACCENT_COLOR: 'blue',
      LEARN_MORE_URL: 'not a url',
    })
    const lines = error.message.split('\n')
    expect(lines[0]).toBe('Invalid configuration:')
    for (const variable of [
      'PORT',
      'LOG_LEVEL',
      'CHAIN_IDS.1',
      'WALLETS.1',
      'TOKEN_ADDRESS',
      'ACCENT_COLOR',
      'LEARN_MORE_URL',
    ]) {
      expect(
        lines.filter((line) => line.startsWith(`- ${variable}: `)),
        variable,
      ).toHaveLength(1)
    }
    expect(lines).toHaveLength(8)
    expect(error.message).toContain('- CHAIN_IDS.1: must be a positive chain id')
    expect(error.message).toContain('- TOKEN_ADDRESS: must be a 0x-prefixed 20-byte address')
    expect(error.message).toContain('- ACCENT_COLOR: must be a hex colour of 3 or 6 digits, like #0e76fd')
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

  test('WalletConnect wallets without WALLETCONNECT_PROJECT_ID: an EnvError naming WALLETCONNECT_PROJECT_ID with the "No projectId found…" message', () => {
    for (const WALLETS of [undefined, 'injected,walletConnect', 'metaMask', 'rainbow']) {
      const error = envError({ WALLETS })
      expect(error.message, String(WALLETS)).toBe(
        `Invalid configuration:\n- WALLETCONNECT_PROJECT_ID: ${MISSING_PROJECT_ID_MESSAGE}`,
      )
    }
    expect(parseEnv({ WALLETCONNECT_PROJECT_ID: 'abc123' }).publicConfig.walletConnectProjectId).toBe(
      'abc123',
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

  test('PUBLIC_ORIGIN, without its trailing slash, is the origin of proxied RPC URLs and the app URL', () => {
    const { chains, publicConfig } = parseEnv({
      ...base,
      PUBLIC_ORIGIN: 'https://dao.example/',
      CHAIN_IDS: '31337',
      RPC_URL_31337: 'http://[::1]:8545',
    })
    expect(chains[0]?.rpcUrl).toBe('https://dao.example/rpc/31337')
    expect(publicConfig.appUrl).toBe('https://dao.example')
  })

  describe('development wallet', () => {
    const accounts = `${ADA}:Ada, ${BEN}`

    test('offered when the DAO chain is the local chain 31337 on a loopback RPC', () => {
      for (const rpc of ['http://127.0.0.1:8545', 'http://localhost:8545', 'http://[::1]:8545']) {
        const { publicConfig } = parseEnv({
          ...base,
          CHAIN_IDS: '31337',
          RPC_URL_31337: rpc,
          DEV_WALLET_ACCOUNTS: accounts,
        })
        expect(publicConfig.devWallet, rpc).toEqual({
          accounts: [
            { address: ADA, label: 'Ada' },
            { address: BEN, label: null },
          ],
        })
      }
    })

    test('not offered when chain 31337 is reached over a non-loopback RPC', () => {
      const { publicConfig } = parseEnv({
        ...base,
        CHAIN_IDS: '31337',
        RPC_URL_31337: 'https://rpc.example.org',
        DEV_WALLET_ACCOUNTS: accounts,
      })
      expect(publicConfig.devWallet).toBeNull()
    })

    test('not offered when the DAO chain is another chain, even a local one, or 31337 is only a second chain', () => {
      for (const env of [
        { CHAIN_IDS: '1' },
        { CHAIN_IDS: '31338', RPC_URL_31338: 'http://127.0.0.1:9545', CHAIN_NAME_31338: 'Guildhall Testnet' },
        { CHAIN_IDS: '1,31337', RPC_URL_31337: 'http://127.0.0.1:8545' },
      ]) {
        const { publicConfig } = parseEnv({ ...base, ...env, DEV_WALLET_ACCOUNTS: accounts })
        expect(publicConfig.devWallet, env.CHAIN_IDS).toBeNull()
      }
    })

    test('not offered without DEV_WALLET_ACCOUNTS, and an invalid account is reported as DEV_WALLET_ACCOUNTS', () => {
      const local = { ...base, CHAIN_IDS: '31337', RPC_URL_31337: 'http://127.0.0.1:8545' }
      expect(parseEnv(local).publicConfig.devWallet).toBeNull()
      expect(envError({ ...local, DEV_WALLET_ACCOUNTS: '0x1234:Broken' }).message).toBe(
        'Invalid configuration:\n- DEV_WALLET_ACCOUNTS (entry 0): must be a 0x-prefixed 20-byte address',
      )
    })
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

describe('parseEnv: governance', () => {
  const local = { CHAIN_IDS: '31337', RPC_URL_31337: 'http://127.0.0.1:8545', WALLETS: 'injected' }

  test('GOVERNANCE_RATE_LIMIT_PER_MINUTE defaults to 120, EXPORT_RATE_LIMIT_PER_MINUTE to 30 and POWER_RATE_LIMIT_PER_MINUTE to 300, take a whole number ≥ 1', () => {
    expect(parseEnv(local)).toMatchObject({
      governanceRateLimitPerMinute: 120,
      exportRateLimitPerMinute: 30,
      powerRateLimitPerMinute: 300,
    })
    expect(
      parseEnv({
        ...local,
        GOVERNANCE_RATE_LIMIT_PER_MINUTE: '5',
        EXPORT_RATE_LIMIT_PER_MINUTE: '7',
        POWER_RATE_LIMIT_PER_MINUTE: '9',
      }),
    ).toMatchObject({
      governanceRateLimitPerMinute: 5,
      exportRateLimitPerMinute: 7,
      powerRateLimitPerMinute: 9,
    })
    for (const name of [
      'GOVERNANCE_RATE_LIMIT_PER_MINUTE',
      'EXPORT_RATE_LIMIT_PER_MINUTE',
      'POWER_RATE_LIMIT_PER_MINUTE',
    ]) {
      for (const value of ['0', '1.5', 'lots']) {
        expect(() => parseEnv({ ...local, [name]: value }), `${name}=${value}`).toThrow(new RegExp(name))
      }
    }
  })

  test('TRUST_PROXY is off by default, else the proxies as IP addresses, CIDR ranges or named ranges; a hop count or anything else is refused', () => {
    expect(parseEnv(local).trustProxy).toBe(false)
    expect(parseEnv({ ...local, TRUST_PROXY: 'off' }).trustProxy).toBe(false)
    expect(
      parseEnv({ ...local, TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,fd00::/8, loopback' }).trustProxy,
    ).toEqual(['10.0.0.5', '10.1.0.0/16', 'fd00::/8', 'loopback'])
    for (const value of ['1', 'on', 'true', '10.0.0.0/33', '10.0.0.1/8/8', 'proxy.internal', ',']) {
      expect(() => parseEnv({ ...local, TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY/)
    }
  })

  test('SNAPSHOT_MAX_AGE_BLOCKS defaults to DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS (25), takes a whole number from 1 to 10000', () => {
    expect(parseEnv(local).snapshotMaxAgeBlocks).toBe(DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS)
    expect(DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS).toBe(25)
    expect(parseEnv({ ...local, SNAPSHOT_MAX_AGE_BLOCKS: '300' }).snapshotMaxAgeBlocks).toBe(300)
    for (const value of ['0', '10001', '2.5', 'many']) {
      expect(() => parseEnv({ ...local, SNAPSHOT_MAX_AGE_BLOCKS: value }), value).toThrow(
        /SNAPSHOT_MAX_AGE_BLOCKS/,
      )
    }
  })
})

describe('parseEnv: timeouts', () => {
  test('default to a 30 s request, 10 s headers and 5 s keep-alive bound', () => {
    expect(parseEnv(base).timeouts).toEqual({ requestMs: 30_000, headersMs: 10_000, keepAliveMs: 5_000 })
  })

  test('are read from the environment', () => {
    const { timeouts } = parseEnv({
      ...base,
      REQUEST_TIMEOUT_MS: '60000',
      HEADERS_TIMEOUT_MS: '20000',
      KEEP_ALIVE_TIMEOUT_MS: '65000',
    })
    expect(timeouts).toEqual({ requestMs: 60_000, headersMs: 20_000, keepAliveMs: 65_000 })
  })

  test('a headers timeout longer than the request timeout, or a timeout of 0, is refused', () => {
    expect(envError({ ...base, REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '6000' }).message).toContain(
      '- HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS',
    )
    expect(envError({ ...base, KEEP_ALIVE_TIMEOUT_MS: '0' }).message).toContain('KEEP_ALIVE_TIMEOUT_MS')
  })
})

describe('parseEnv: name service', () => {
  const local = { CHAIN_IDS: '31337', RPC_URL_31337: 'http://127.0.0.1:8545', WALLETS: 'injected' }

  test('without ENS_RPC_URL there are no name lookups, whatever the gateways say', () => {
    expect(parseEnv(local).nameService).toBeNull()
    expect(parseEnv({ ...local, IPFS_GATEWAYS: 'https://ipfs.io' }).nameService).toBeNull()
  })

  test('ENS_RPC_URL with the IPFS and Arweave gateways, comma-separated, without trailing slashes; none by default', () => {
    expect(parseEnv({ ...local, ENS_RPC_URL: 'http://127.0.0.1:8546' }).nameService).toEqual({
      rpcUrl: 'http://127.0.0.1:8546',
      ipfsGateways: [],
      arweaveGateways: [],
    })
    const settings = parseEnv({
      ...local,
      ENS_RPC_URL: 'https://eth.example.org/v2/key',
      IPFS_GATEWAYS: 'https://ipfs.io/, http://127.0.0.1:9000',
      ARWEAVE_GATEWAYS: 'https://arweave.net',
    })
    expect(settings.nameService).toEqual({
      rpcUrl: 'https://eth.example.org/v2/key',
      ipfsGateways: ['https://ipfs.io', 'http://127.0.0.1:9000'],
      arweaveGateways: ['https://arweave.net'],
    })
  })

  test('a URL that is not http(s) is reported by name', () => {
    const message = envError({
      ...local,
      ENS_RPC_URL: 'ftp://eth.example.org',
      IPFS_GATEWAYS: 'https://ipfs.io,ipfs.io',
      ARWEAVE_GATEWAYS: 'nonsense',
    }).message
    expect(message).toContain('- ENS_RPC_URL: must be an http(s) URL')
    expect(message).toContain('- IPFS_GATEWAYS.1: must be an http(s) URL')
    expect(message).toContain('- ARWEAVE_GATEWAYS.0: must be an http(s) URL')
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
