// Shared by the connect-*.spec.ts files: locating RainbowKit's connect modal and reading its wallet list.
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
} from 'node:crypto'
import { TEST_WALLET_RDNS } from '@guildhall/devchain/wallet/inject'
import type { Locator, Page, WebSocketRoute } from '@playwright/test'
import type { Hex } from 'viem'
import { connectButton, expect } from '../support/fixtures.ts'

/** The injected test wallet, as RainbowKit lists it (EIP-6963: its rdns is the connector id). */
export const TEST_WALLET_ID = TEST_WALLET_RDNS

export const connectDialog = (page: Page) => page.getByRole('dialog')

export const walletOption = (page: Page, id: string) => page.getByTestId(`rk-wallet-option-${id}`)

/**
 * The dialog's back arrow. Its name must be the button's own (aria-label), not borrowed from the title of
 * the SVG inside it, which assistive technologies do not all read.
 */
export function backArrow(dialog: Locator): Locator {
  const back = dialog.getByRole('button', { name: 'Back', exact: true })
  return back.and(dialog.locator('button[aria-label="Back"]'))
}

/** The GET view's closing text, the same words on every layout. */
export async function expectNotWhatYoureLookingFor(dialog: Locator): Promise<void> {
  await expect(dialog.getByText("Not what you're looking for?", { exact: true })).toBeVisible()
  await expect(
    dialog.getByText('Select a wallet on the main screen to get started with a different wallet provider.', {
      exact: true,
    }),
  ).toBeVisible()
  await expect(dialog.getByText(/on the left/)).toHaveCount(0)
  // One back arrow, with its own name.
  await expect(backArrow(dialog)).toHaveCount(1)
  await expect(backArrow(dialog)).toHaveAccessibleName('Back')
}

export interface WalletGroup {
  group: string
  wallets: { id: string; lines: string[] }[]
}

/** The desktop wallet list as shown: group headings in order, each with its options' ids and text lines. */
export function walletGroups(page: Page): Promise<WalletGroup[]> {
  return connectDialog(page).evaluate((dialog) => {
    const selector = '[data-testid^="rk-wallet-option-"]'
    // option button → its ModalSelection wrapper → the group's list → the scrolling list of all groups
    const list = dialog.querySelector(selector)?.parentElement?.parentElement?.parentElement
    const groups: { group: string; wallets: { id: string; lines: string[] }[] }[] = []
    for (const child of list?.children ?? []) {
      const options = [...child.querySelectorAll<HTMLElement>(selector)]
      if (options.length === 0) {
        groups.push({ group: (child.textContent ?? '').trim(), wallets: [] })
        continue
      }
      groups.at(-1)?.wallets.push(
        ...options.map((option) => ({
          id: (option.dataset.testid ?? '').replace('rk-wallet-option-', ''),
          lines: [...option.querySelectorAll('*')]
            .filter((element) => element.children.length === 0)
            .map((element) => element.textContent?.trim() ?? '')
            .filter(Boolean),
        })),
      )
    }
    return groups
  })
}

/**
 * The connect modal's size: the dialog content's width and the max height of the layout inside it
 * (RainbowKit: 368 px / 468 px compact, 720 px / 504 px wide).
 */
export function modalLayout(page: Page): Promise<{ width: number; maxHeight: string } | null> {
  return page.locator('[role="dialog"] [role="document"]').evaluate((document) => {
    const content = document.firstElementChild?.firstElementChild as HTMLElement | null | undefined
    const layout = content?.firstElementChild?.firstElementChild as HTMLElement | null | undefined
    if (!content || !layout) return null
    return {
      width: Math.round(Number.parseFloat(getComputedStyle(content).width)),
      maxHeight: getComputedStyle(layout).maxHeight,
    }
  })
}

/** Opens the account modal and waits until its content has stopped moving. */
export async function openAccountModal(page: Page): Promise<Locator> {
  await page.getByTestId('rk-account-button').click()
  const modal = page.getByRole('dialog')
  await expect(modal.getByTestId('rk-disconnect-button')).toBeVisible()
  // RainbowKit adds the balance line once it is read; the dialog is centred, so that line moves its Close and
  // Disconnect buttons. A click whose mousedown and mouseup straddle the move lands on neither.
  await expect(modal.getByRole('heading', { name: / ETH$/ })).toBeVisible()
  return modal
}

export async function closeAccountModal(page: Page) {
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click()
  await expect(page.getByRole('dialog')).toBeHidden()
}

/** Opens the account modal, disconnects, and checks the modal closed and "Connect Wallet" is back. */
export async function disconnectFromAccountModal(page: Page): Promise<void> {
  const dialog = await openAccountModal(page)
  await dialog.getByTestId('rk-disconnect-button').click()
  await expect(dialog).toHaveCount(0)
  await expect(connectButton(page)).toBeVisible()
}

/** WalletConnect's relay stood in for: what the SDK in the page sent, and a phone wallet on the other side. */
export interface StandInRelay {
  /** The relay methods the SDK called, in order. */
  methods: string[]
  /**
   * Does what a phone wallet does after scanning the QR code: answers the session proposal the SDK published
   * on its pairing topic and settles a session for `account` on every chain the app proposed.
   */
  approveSession(account: Hex): Promise<void>
}

/**
 * Stands in for WalletConnect's relay (wss://relay.walletconnect.org), which the test cannot reach: it
 * accepts every subscription and publication and passes messages published on a topic to its subscriber,
 * so the SDK gets as far as its pairing URI (the QR code) without a wallet ever answering, and further when
 * the test approves a session as a wallet would (`approveSession`).
 */
export async function standInRelay(page: Page): Promise<StandInRelay> {
  const methods: string[] = []
  const subscriptions = new Map<string, string>()
  const published: { topic: string; message: string }[] = []
  let socket: WebSocketRoute | undefined
  let nextId = Date.now() * 1000
  /** Sends the page a message published on `topic`, as the relay does to a topic's subscriber. */
  const deliver = (topic: string, message: string) =>
    socket?.send(
      JSON.stringify({
        id: nextId++,
        jsonrpc: '2.0',
        method: 'irn_subscription',
        params: { id: subscriptions.get(topic), data: { topic, message, publishedAt: Date.now(), tag: 0 } },
      }),
    )
  // Page routes take precedence over the fixtures' context route, which would refuse the connection.
  await page.routeWebSocket(/^wss:\/\/relay\.walletconnect\.(org|com)\//, (ws) => {
    socket = ws
    ws.onMessage((raw) => {
      const request = JSON.parse(String(raw)) as {
        id: number
        method?: string
        params: Record<string, unknown>
      }
      if (!request.method) return // the SDK's answer to a delivery
      methods.push(request.method)
      let result: unknown = true
      if (request.method === 'irn_subscribe') {
        result = randomBytes(32).toString('hex') // the subscription id
        subscriptions.set(request.params.topic as string, result as string)
      } else if (request.method === 'irn_batchFetchMessages') {
        result = { messages: [], hasMore: false }
      } else if (request.method === 'irn_publish') {
        published.push({ topic: request.params.topic as string, message: request.params.message as string })
      }
      ws.send(JSON.stringify({ id: request.id, jsonrpc: '2.0', result }))
    })
  })

  async function approveSession(account: Hex) {
    // The phone reads the pairing topic's key from the QR code; here, from the SDK's key store.
    const keys = await pairingKeys(page)
    const proposalMessage = published.find(({ topic }) => keys[topic])
    if (!proposalMessage) throw new Error('no session proposal was published on a pairing topic')
    const pairingKey = keys[proposalMessage.topic] as string
    const proposal = JSON.parse(openEnvelope(pairingKey, proposalMessage.message)) as SessionProposal
    if (proposal.method !== 'wc_sessionPropose')
      throw new Error(`expected a session proposal, got ${proposal.method}`)

    // The session's key: X25519 between the wallet's key and the proposer's, then HKDF-SHA256.
    const wallet = generateKeyPairSync('x25519')
    const walletPublicKey = Buffer.from(
      wallet.publicKey.export({ format: 'jwk' }).x ?? '',
      'base64url',
    ).toString('hex')
    const proposerKey = createPublicKey({
      key: {
        kty: 'OKP',
        crv: 'X25519',
        x: Buffer.from(proposal.params.proposer.publicKey, 'hex').toString('base64url'),
      },
      format: 'jwk',
    })
    const shared = diffieHellman({ privateKey: wallet.privateKey, publicKey: proposerKey })
    const sessionKey = Buffer.from(hkdfSync('sha256', shared, Buffer.alloc(0), Buffer.alloc(0), 32)).toString(
      'hex',
    )
    const sessionTopic = createHash('sha256').update(Buffer.from(sessionKey, 'hex')).digest('hex')

    const response = {
      id: proposal.id,
      jsonrpc: '2.0',
      result: { relay: { protocol: 'irn' }, responderPublicKey: walletPublicKey },
    }
    deliver(proposalMessage.topic, sealEnvelope(pairingKey, JSON.stringify(response)))
    // The SDK derives the same session topic from the answer and subscribes to it.
    await expect
      .poll(() => subscriptions.has(sessionTopic), { message: 'the SDK did not subscribe to the session' })
      .toBe(true)
    const { chains, methods: allowed, events } = proposal.params.optionalNamespaces.eip155
    const settle = {
      id: nextId++,
      jsonrpc: '2.0',
      method: 'wc_sessionSettle',
      params: {
        relay: { protocol: 'irn' },
        namespaces: {
          eip155: {
            chains,
            accounts: chains.map((chain) => `${chain}:${account}`),
            methods: allowed,
            events,
          },
        },
        controller: {
          publicKey: walletPublicKey,
          metadata: {
            name: 'Stand-in wallet',
            description: 'A phone wallet',
            url: 'https://wallet.invalid',
            icons: [],
          },
        },
        expiry: Math.floor(Date.now() / 1000) + 7 * 24 * 60 * 60,
      },
    }
    deliver(sessionTopic, sealEnvelope(sessionKey, JSON.stringify(settle)))
  }

  return { methods, approveSession }
}

type SessionProposal = {
  id: number
  method: string
  params: {
    proposer: { publicKey: string }
    optionalNamespaces: { eip155: { chains: string[]; methods: string[]; events: string[] } }
  }
}

/** WalletConnect's keys by topic, from the SDK's key store in the page (IndexedDB). */
function pairingKeys(page: Page): Promise<Record<string, string>> {
  return page.evaluate(
    () =>
      new Promise<Record<string, string>>((resolve, reject) => {
        const request = indexedDB.open('WALLET_CONNECT_V2_INDEXED_DB')
        request.onerror = () => reject(request.error)
        request.onsuccess = () => {
          const store = request.result
            .transaction('keyvaluestorage', 'readonly')
            .objectStore('keyvaluestorage')
          const keys = store.getAllKeys()
          keys.onsuccess = () => {
            const key = (keys.result as string[]).find((name) => name.endsWith(':keychain'))
            if (!key) return reject(new Error('WalletConnect has no key store in this page'))
            const get = store.get(key)
            get.onsuccess = () => resolve(JSON.parse(get.result as string))
          }
        }
      }),
  )
}

// WalletConnect's type 0 envelope: a type byte 0, a 12-byte nonce, then the ChaCha20-Poly1305 sealed
// message (its 16-byte tag last), in base64.
function sealEnvelope(symKey: string, message: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('chacha20-poly1305', Buffer.from(symKey, 'hex'), iv, { authTagLength: 16 })
  const sealed = Buffer.concat([cipher.update(message, 'utf8'), cipher.final(), cipher.getAuthTag()])
  return Buffer.concat([Buffer.from([0]), iv, sealed]).toString('base64')
}

function openEnvelope(symKey: string, envelope: string): string {
  const bytes = Buffer.from(envelope, 'base64')
  const iv = bytes.subarray(1, 13)
  const sealed = bytes.subarray(13, bytes.length - 16)
  const decipher = createDecipheriv('chacha20-poly1305', Buffer.from(symKey, 'hex'), iv, {
    authTagLength: 16,
  })
  decipher.setAuthTag(bytes.subarray(bytes.length - 16))
  return Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8')
}
