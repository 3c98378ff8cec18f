// The treasury's variables (treasury.ts): the Safe, its plain addresses, tokens, start block and price feeds.
import { describe, expect, test } from 'vitest'
import { parseEnv } from './env.ts'
import { ADA, BEN, envError } from './env-test-helpers.ts'

describe('parseEnv: treasury', () => {
  const local = { CHAIN_IDS: '31337', RPC_URL_31337: 'http://127.0.0.1:8545', WALLETS: 'injected' }
  const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
  const USDG = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
  const FEED = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0'

  test('without TREASURY_SAFE (unset or empty) there is no treasury', () => {
    expect(parseEnv(local).treasury).toBeNull()
    expect(parseEnv({ ...local, TREASURY_SAFE: '' }).treasury).toBeNull()
  })

  test('the Safe, its addresses and tokens checksummed, the governance token always followed first and once', () => {
    const settings = parseEnv({
      ...local,
      TOKEN_ADDRESS: TOKEN.toLowerCase(),
      TREASURY_SAFE: ADA.toLowerCase(),
      TREASURY_ADDRESSES: ` ${BEN} `,
      TREASURY_TOKENS: `${USDG},${TOKEN}`,
      TREASURY_START_BLOCK: '12',
      PRICE_FEEDS: `native=${FEED}, ${USDG}=${FEED}`,
    })
    expect(settings.treasury).toEqual({
      safe: ADA,
      addresses: [BEN],
      tokens: [TOKEN, USDG],
      startBlock: 12,
      priceFeeds: [
        { token: null, feed: FEED },
        { token: USDG, feed: FEED },
      ],
    })
    expect(parseEnv({ ...local, TREASURY_SAFE: ADA }).treasury).toEqual({
      safe: ADA,
      addresses: [],
      tokens: [],
      startBlock: 0,
      priceFeeds: [],
    })
  })

  test('each invalid treasury variable is reported by name', () => {
    const message = envError({
      ...local,
      TREASURY_SAFE: '0x1234',
      TREASURY_ADDRESSES: `${BEN},nope`,
      TREASURY_TOKENS: 'x',
      TREASURY_START_BLOCK: '-1',
      PRICE_FEEDS: `${USDG}:${FEED}`,
    }).message
    expect(message).toContain('- TREASURY_SAFE: must be a 0x-prefixed 20-byte address')
    expect(message).toContain('- TREASURY_ADDRESSES.1: must be a 0x-prefixed 20-byte address')
    expect(message).toContain('- TREASURY_TOKENS.0: must be a 0x-prefixed 20-byte address')
    expect(message).toContain('- TREASURY_START_BLOCK: Too small: expected number to be >=0')
    expect(message).toContain(
      '- PRICE_FEEDS.0: must be token=feed pairs (token: an address or native; feed: an address), comma-separated',
    )
  })

  test('treasury settings without TREASURY_SAFE, and feeds for tokens not followed or twice, are refused', () => {
    expect(
      envError({ ...local, TREASURY_TOKENS: USDG, TREASURY_START_BLOCK: '3' }).message.split('\n'),
    ).toEqual([
      'Invalid configuration:',
      '- TREASURY_TOKENS: needs TREASURY_SAFE',
      '- TREASURY_START_BLOCK: needs TREASURY_SAFE',
    ])
    expect(
      envError({
        ...local,
        TREASURY_SAFE: ADA,
        PRICE_FEEDS: `${USDG}=${FEED},native=${FEED},native=${FEED}`,
      }).message.split('\n'),
    ).toEqual([
      'Invalid configuration:',
      `- PRICE_FEEDS: ${USDG} is not a treasury token (TOKEN_ADDRESS or TREASURY_TOKENS)`,
      '- PRICE_FEEDS: native has more than one feed',
    ])
  })
})
