// The name service's variables (name-service.ts): ENS_RPC_URL and the avatar gateways.
import { describe, expect, test } from 'vitest'
import { parseEnv } from './env.ts'
import { envError } from './env-test-helpers.ts'

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
