// Browser-safe: a thread bundle (ADR 052) signed for real, as a server would write it, for the tests of
// what reads one outside core (`npm run recount`, the web app's "Verify this thread"). Ada and Ben
// (anvil accounts 1 and 2) each authorise a key; Ada comments, Ben replies and reacts to her comment.
import {
  governanceDomain,
  LOG_GENESIS_HASH,
  type LogEntry,
  logEntryHash,
  signWithDiscussionKey,
} from '@guildhall/core'
import { THREAD_BUNDLE_FORMAT, type ThreadBundle } from '@guildhall/core/recount'
import { type Hex, zeroHash } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { anvilAccounts } from './accounts.ts'

const account = (index: number) => {
  const key = anvilAccounts[index]?.privateKey
  if (!key) throw new Error(`anvil account ${index} is missing`)
  return privateKeyToAccount(key)
}

/** The demo token's address on a fresh anvil: the domain every message here is signed under. */
const domain = governanceDomain({ chainId: 31337, token: '0x5FbDB2315678afecb367f032d93F642f64180aa3' })

/** The bundle of a proposal thread (`threadId`) with two comments and a reaction, and their ids. */
export async function signedThreadBundle(
  threadId: Hex = `0x${'ab'.repeat(32)}`,
): Promise<{ bundle: ThreadBundle; ids: { comment: Hex; reply: Hex; reaction: Hex } }> {
  const log: LogEntry[] = []
  const logged = (kind: LogEntry['kind'], messageId: Hex, signature: Hex) => {
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
  let now = 1_800_000_000
  const tick = () => {
    now += 60
    return now
  }
  const bundle: ThreadBundle = {
    format: THREAD_BUNDLE_FORMAT,
    domain,
    thread: { id: threadId, kind: 'proposal' },
    moderators: [],
    keys: [],
    revocations: [],
    messages: [],
    published: { comments: [] },
  }
  const authorise = async (index: number) => {
    const member = account(index)
    const key = privateKeyToAccount(generatePrivateKey())
    const timestamp = tick()
    const signed = await signWithDiscussionKey(member, domain, 'discussion-key', {
      member: member.address,
      key: key.address,
      scopes: ['comment', 'react'],
      expires: timestamp + 86_400,
      timestamp,
    })
    bundle.keys.push({ ...signed, log: logged('discussion-key', signed.id, signed.signature) })
    return { member, key }
  }
  const ada = await authorise(1)
  const ben = await authorise(2)
  const comment = await signWithDiscussionKey(ada.key, domain, 'comment', {
    author: ada.member.address,
    thread: threadId,
    parent: zeroHash,
    replaces: zeroHash,
    body: 'Fix the roof first.',
    mentions: [],
    timestamp: tick(),
  })
  bundle.messages.push({ kind: 'comment', ...comment, log: logged('comment', comment.id, comment.signature) })
  const reply = await signWithDiscussionKey(ben.key, domain, 'comment', {
    author: ben.member.address,
    thread: threadId,
    parent: comment.id,
    replaces: zeroHash,
    body: 'Agreed, before winter.',
    mentions: [],
    timestamp: tick(),
  })
  bundle.messages.push({ kind: 'comment', ...reply, log: logged('comment', reply.id, reply.signature) })
  const reaction = await signWithDiscussionKey(ben.key, domain, 'reaction', {
    author: ben.member.address,
    target: comment.id,
    reaction: 'thumbs-up',
    on: true,
    timestamp: tick(),
  })
  bundle.messages.push({
    kind: 'reaction',
    ...reaction,
    log: logged('reaction', reaction.id, reaction.signature),
  })
  bundle.published.comments = [
    {
      id: comment.id,
      versionId: comment.id,
      withdrawn: false,
      hidden: false,
      reactions: [{ reaction: 'thumbs-up', count: 1 }],
    },
    { id: reply.id, versionId: reply.id, withdrawn: false, hidden: false, reactions: [] },
  ]
  return { bundle, ids: { comment: comment.id, reply: reply.id, reaction: reaction.id } }
}
