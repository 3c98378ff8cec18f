// Shared by the discussion tests: three members (anvil accounts 1-3; Cleo moderates), and a thread bundle
// built as a server would log it: each message signed for real by a key its member authorised, each a log
// entry chained to the one before.
import { type Address, type Hex, zeroHash } from 'viem'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { LOG_GENESIS_HASH, type LogEntry, logEntryHash } from '../governance/log.ts'
import { domain } from '../governance/messages-test-helpers.ts'
import {
  DISCUSSION_KEY_SCOPES,
  type DiscussionKeyScope,
  type DiscussionMessages,
  signWithDiscussionKey,
} from './messages.ts'
import { THREAD_BUNDLE_FORMAT, type ThreadBundle } from './thread-bundle.ts'

export { domain }
export const ada = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
export const ben = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a')
export const cleo = privateKeyToAccount('0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6')

/** A proposal's id, as a proposal thread's. */
export const PROPOSAL_THREAD: Hex = `0x${'ab'.repeat(32)}`
const START = 1_800_000_000

type BundleKind = ThreadBundle['messages'][number]['kind']
/** A message as the tests write it: its timestamp is the kit's clock unless given. */
type Unsigned<K extends BundleKind> = Omit<DiscussionMessages[K], 'timestamp'> & { timestamp?: number }

/** A bundle under construction, and the moves that extend it. */
export function threadKit(threadId: Hex = PROPOSAL_THREAD) {
  const bundle: ThreadBundle = {
    format: THREAD_BUNDLE_FORMAT,
    domain,
    thread: { id: threadId, kind: 'proposal' },
    moderators: [cleo.address],
    keys: [],
    revocations: [],
    messages: [],
    published: { comments: [] },
  }
  const log: LogEntry[] = []
  let now = START
  const tick = () => {
    now += 60
    return now
  }
  const append = (kind: LogEntry['kind'], messageId: Hex, signature: Hex): LogEntry => {
    const unhashed = {
      seq: log.length + 1,
      kind,
      messageId,
      signature,
      prevHash: log.at(-1)?.hash ?? LOG_GENESIS_HASH,
    }
    const entry = { ...unhashed, hash: logEntryHash(unhashed) }
    log.push(entry)
    return entry
  }

  /** `member` authorises a new key for `scopes`, valid `lifetime` seconds; the key's account. */
  async function authorise(
    member: PrivateKeyAccount,
    scopes: readonly DiscussionKeyScope[] = DISCUSSION_KEY_SCOPES,
    lifetime = 7 * 86_400,
  ): Promise<PrivateKeyAccount> {
    const key = privateKeyToAccount(generatePrivateKey())
    const timestamp = tick()
    const signed = await signWithDiscussionKey(member, domain, 'discussion-key', {
      member: member.address,
      key: key.address,
      scopes: [...scopes],
      expires: timestamp + lifetime,
      timestamp,
    })
    bundle.keys.push({ ...signed, log: append('discussion-key', signed.id, signed.signature) })
    return key
  }

  /** `signer` (the member's wallet or the key) revokes `key` of `member`. */
  async function revoke(signer: PrivateKeyAccount, member: Address, key: Address): Promise<void> {
    const signed = await signWithDiscussionKey(signer, domain, 'key-revocation', {
      member,
      key,
      timestamp: tick(),
    })
    bundle.revocations.push({ ...signed, log: append('key-revocation', signed.id, signed.signature) })
  }

  /** `key` signs a message of `kind`, which is logged and added to the bundle; its id. */
  async function sign<K extends BundleKind>(
    key: PrivateKeyAccount,
    kind: K,
    message: Unsigned<K>,
  ): Promise<Hex> {
    const full = { ...message, timestamp: message.timestamp ?? tick() } as DiscussionMessages[K]
    const signed = await signWithDiscussionKey(key, domain, kind, full)
    bundle.messages.push({
      kind,
      ...signed,
      log: append(kind, signed.id, signed.signature),
    } as ThreadBundle['messages'][number])
    return signed.id
  }

  /** `author` comments (or replies to `parent`, or edits `replaces`) with `key`; the version's id. */
  const comment = (
    key: PrivateKeyAccount,
    author: Address,
    body: string,
    {
      parent = zeroHash as Hex,
      replaces = zeroHash as Hex,
      mentions = [] as Address[],
    }: { parent?: Hex; replaces?: Hex; mentions?: Address[] } = {},
  ) => sign(key, 'comment', { author, thread: threadId, parent, replaces, body, mentions })

  return { bundle, log, authorise, revoke, sign, comment, append }
}

/**
 * The thread every recount test starts from: Ada comments and edits it, Ben replies (mentioning Ada) and
 * withdraws the reply, both react, Ben comments again, Ada flags that and Cleo (a moderator) hides it.
 */
export async function sampleThread() {
  const kit = threadKit()
  const adaKey = await kit.authorise(ada, ['comment', 'react', 'flag'])
  const benKey = await kit.authorise(ben, ['comment', 'react'])
  const cleoKey = await kit.authorise(cleo, ['comment', 'moderate'])
  const first = await kit.comment(adaKey, ada.address, 'We should fix the roof first.')
  const reply = await kit.comment(benKey, ben.address, `Agreed with @${ada.address}.`, {
    parent: first,
    mentions: [ada.address],
  })
  const edit = await kit.comment(adaKey, ada.address, 'We should fix the roof first, then the doors.', {
    replaces: first,
  })
  const thumbsUp = await kit.sign(benKey, 'reaction', {
    author: ben.address,
    target: first,
    reaction: 'thumbs-up',
    on: true,
  })
  const heartOn = await kit.sign(adaKey, 'reaction', {
    author: ada.address,
    target: reply,
    reaction: 'heart',
    on: true,
  })
  const heartOff = await kit.sign(adaKey, 'reaction', {
    author: ada.address,
    target: reply,
    reaction: 'heart',
    on: false,
  })
  const withdrawal = await kit.sign(benKey, 'withdrawal', { author: ben.address, comment: reply })
  const spam = await kit.comment(benKey, ben.address, 'Buy cheap roof tiles at example.com')
  const flag = await kit.sign(adaKey, 'flag', { author: ada.address, comment: spam, reason: 'Advertising' })
  const hide = await kit.sign(cleoKey, 'moderation', {
    moderator: cleo.address,
    target: spam,
    action: 'hide',
    reason: 'spam',
  })
  kit.bundle.published.comments = [
    {
      id: first,
      versionId: edit,
      withdrawn: false,
      hidden: false,
      reactions: [{ reaction: 'thumbs-up', count: 1 }],
    },
    { id: reply, versionId: reply, withdrawn: true, hidden: false, reactions: [] },
    { id: spam, versionId: spam, withdrawn: false, hidden: true, reactions: [] },
  ]
  return {
    ...kit,
    keys: { adaKey, benKey, cleoKey },
    ids: { first, reply, edit, thumbsUp, heartOn, heartOff, withdrawal, spam, flag, hide },
  }
}
