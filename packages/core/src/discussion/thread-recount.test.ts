import { createPublicClient, custom, type Hex, keccak256, toHex } from 'viem'
import { describe, expect, test } from 'vitest'
import { logEntryHash } from '../governance/log.ts'
import { BundleFormatError } from '../recount-checks.ts'
import type { ThreadBundle } from './thread-bundle.ts'
import { recountThread } from './thread-recount.ts'
import { ada, ben, cleo, sampleThread, threadKit } from './thread-test-kit.ts'

// Every member here is an externally owned account, so the recount must never need the chain: this
// client fails the test if it is asked anything.
const client = createPublicClient({
  transport: custom({
    request: async ({ method }) => {
      throw new Error(`The recount asked the chain (${method}) for an externally owned account`)
    },
  }),
})

const short = (id: Hex) => `${id.slice(0, 10)}…`
/** The bundle's message with `id`. */
const messageOf = (bundle: ThreadBundle, id: Hex) => {
  const found = bundle.messages.find((message) => message.id === id)
  if (!found) throw new Error(`no message ${id}`)
  return found
}

describe('recountThread', () => {
  test('behavior: a thread with comments, a reply, an edit, reactions, a withdrawal, a flag and a moderator’s hide verifies, without asking the chain', async () => {
    const { bundle } = await sampleThread()
    const report = await recountThread(JSON.parse(JSON.stringify(bundle)), { client })
    expect(report).toEqual({
      matches: true,
      problems: [],
      takedowns: [],
      messagesChecked: 10,
      keysChecked: 3,
    })
  })

  test('behavior: a comment published as hidden with no moderator’s hide and fewer flags than DISCUSSION_FLAGS_TO_HIDE is reported, without asking the chain; an older server’s bundle (no threshold) needs only a flag', async () => {
    const { bundle, ids } = await sampleThread()
    // The moderator's hide left out: the spam comment stands hidden on its one flag.
    bundle.messages = bundle.messages.filter((message) => message.id !== ids.hide)
    expect((await recountThread(structuredClone(bundle), { client })).problems).toEqual([])
    bundle.flagsToHide = 3
    expect((await recountThread(bundle, { client })).problems).toEqual([
      `Comment ${short(ids.spam)} is published as hidden, but no moderator hid it and it has 1 flag (DISCUSSION_FLAGS_TO_HIDE is 3).`,
    ])
  })

  test('behavior: an altered comment body is reported as altered, and what leaned on it (its flag, its hide, its published state) with it', async () => {
    const { bundle, ids } = await sampleThread()
    const spam = messageOf(bundle, ids.spam)
    if (spam.kind !== 'comment') throw new Error('not a comment')
    spam.message.body = 'A perfectly harmless comment'
    const report = await recountThread(bundle, { client })
    expect(report.matches).toBe(false)
    expect(report.problems).toEqual([
      `Comment ${short(ids.spam)} was altered: its text does not match its signature.`,
      `Flag ${short(ids.flag)} flags a comment that is not in the thread.`,
      `Moderation ${short(ids.hide)} (hide) names a comment that is not in the thread.`,
      `Comment ${short(ids.spam)} is published, but no valid signed message in the log makes it.`,
    ])
  })

  test('behavior: an altered reaction is reported, and the published count it made no longer stands', async () => {
    const { bundle, ids } = await sampleThread()
    const reaction = messageOf(bundle, ids.thumbsUp)
    if (reaction.kind !== 'reaction') throw new Error('not a reaction')
    reaction.message.reaction = 'heart'
    const report = await recountThread(bundle, { client })
    expect(report.problems).toEqual([
      `Reaction ${short(ids.thumbsUp)} was altered: its reaction does not match its signature.`,
      `Comment ${short(ids.first)} is published with 1 "thumbs-up" reaction, but 0 signed ones stand.`,
    ])
  })

  test('behavior: a comment signed with a key after its revocation is reported as such', async () => {
    const kit = threadKit()
    const key = await kit.authorise(ada, ['comment'])
    const before = await kit.comment(key, ada.address, 'Before the revocation.')
    await kit.revoke(key, ada.address, key.address)
    const after = await kit.comment(key, ada.address, 'After the revocation.')
    kit.bundle.published.comments = [before, after].map((id) => ({
      id,
      versionId: id,
      withdrawn: false,
      hidden: false,
      reactions: [],
    }))
    const report = await recountThread(kit.bundle, { client })
    expect(report.problems).toEqual([
      `Comment ${short(after)} is not valid: it was signed with key ${key.address} after the key was revoked.`,
      `Comment ${short(after)} is published, but no valid signed message in the log makes it.`,
    ])
  })

  test('behavior: a comment signed after its key expired, and one by a key its author never authorised (another member’s), are each reported', async () => {
    const kit = threadKit()
    const shortLived = await kit.authorise(ada, ['comment'], 3_600)
    const [authorisation] = kit.bundle.keys
    const late = await kit.comment(shortLived, ada.address, 'Signed too late.')
    const lateMessage = messageOf(kit.bundle, late)
    if (lateMessage.kind !== 'comment' || !authorisation) throw new Error('not built')
    // Re-signed one second past the expiry (the kit's clock ran only a minute).
    kit.bundle.messages = []
    const expired = await kit.sign(shortLived, 'comment', {
      ...lateMessage.message,
      body: 'Signed too late.',
      timestamp: authorisation.message.expires + 1,
    })
    const benKey = await kit.authorise(ben, ['comment'])
    const foreign = await kit.comment(benKey, ada.address, 'Ben writing as Ada.')
    const report = await recountThread(kit.bundle, { client })
    expect(report.problems).toEqual([
      `Comment ${short(expired)} is not valid: it was signed after its key ${shortLived.address} expired.`,
      `Comment ${short(foreign)} is not valid: it is signed by key ${benKey.address}, which ${ben.address} authorised, not its author ${ada.address}.`,
    ])
  })

  test('behavior: a key without the scope, and a hide by a member who is not a moderator, are reported', async () => {
    const kit = threadKit()
    const adaKey = await kit.authorise(ada, ['comment'])
    const benKey = await kit.authorise(ben, ['comment', 'moderate'])
    const first = await kit.comment(adaKey, ada.address, 'A comment.')
    const reaction = await kit.sign(adaKey, 'reaction', {
      author: ada.address,
      target: first,
      reaction: 'eyes',
      on: true,
    })
    const hide = await kit.sign(benKey, 'moderation', {
      moderator: ben.address,
      target: first,
      action: 'hide',
      reason: 'I do not like it',
    })
    kit.bundle.published.comments = [
      { id: first, versionId: first, withdrawn: false, hidden: false, reactions: [] },
    ]
    const report = await recountThread(kit.bundle, { client })
    expect(report.problems).toEqual([
      `Reaction ${short(reaction)} is not valid: its key ${adaKey.address} may not sign reactions (no "react" scope).`,
      `Moderation ${short(hide)} (hide) is by ${ben.address}, who is not a moderator.`,
    ])
  })

  test('behavior: a log entry whose hash does not match its fields is reported with its seq; re-hashed, it no longer logs its message nor links to the entry after it', async () => {
    const { bundle, ids } = await sampleThread()
    const reply = messageOf(bundle, ids.reply)
    const edit = messageOf(bundle, ids.edit)
    reply.log = { ...reply.log, signature: `0x${'00'.repeat(65)}` }
    const report = await recountThread(bundle, { client })
    // The reply is then not in the thread: its reactions and withdrawal no longer fit, nor what is published.
    const unreplied = [
      `Reaction ${short(ids.heartOn)} reacts to something that is not in the thread.`,
      `Reaction ${short(ids.heartOff)} reacts to something that is not in the thread.`,
      `Withdrawal ${short(ids.withdrawal)} withdraws a comment that is not in the thread.`,
      `Comment ${short(ids.reply)} is published, but no valid signed message in the log makes it.`,
    ]
    expect(report.problems).toEqual([
      `Log entry ${reply.log.seq} (comment ${short(ids.reply)}) does not hash to its stored hash.`,
      ...unreplied,
    ])
    reply.log = { ...reply.log, hash: logEntryHash(reply.log) }
    const rehashed = await recountThread(bundle, { client })
    expect(edit.log.seq).toBe(reply.log.seq + 1)
    expect(rehashed.problems).toEqual([
      `Comment ${short(ids.reply)} differs from its log entry ${reply.log.seq} (kind, id or signature).`,
      ...unreplied.slice(0, 3),
      `Log entry ${edit.log.seq} does not link to entry ${reply.log.seq} before it.`,
      unreplied[3],
    ])
  })

  test('behavior: a key’s authorisation altered to add a scope is reported, and the messages its key signed no longer verify', async () => {
    const { bundle, keys, ids } = await sampleThread()
    const benAuthorisation = bundle.keys[1]
    if (!benAuthorisation) throw new Error('not built')
    benAuthorisation.message.scopes = ['comment', 'react', 'moderate']
    const report = await recountThread(bundle, { client })
    const notBens = (kind: string, id: Hex) =>
      `${kind} ${short(id)} is not valid: it is signed by key ${keys.benKey.address}, which its author ${ben.address} has not authorised.`
    expect(report.problems).toEqual([
      `The authorisation of key ${keys.benKey.address} by ${ben.address} was altered: its key, scopes or expiry do not match its signature.`,
      notBens('Comment', ids.reply),
      notBens('Reaction', ids.thumbsUp),
      `Reaction ${short(ids.heartOn)} reacts to something that is not in the thread.`,
      `Reaction ${short(ids.heartOff)} reacts to something that is not in the thread.`,
      notBens('Withdrawal', ids.withdrawal),
      notBens('Comment', ids.spam),
      `Flag ${short(ids.flag)} flags a comment that is not in the thread.`,
      `Moderation ${short(ids.hide)} (hide) names a comment that is not in the thread.`,
      `Comment ${short(ids.first)} is published with 1 "thumbs-up" reaction, but 0 signed ones stand.`,
      `Comment ${short(ids.reply)} is published, but no valid signed message in the log makes it.`,
      `Comment ${short(ids.spam)} is published, but no valid signed message in the log makes it.`,
    ])
  })

  test('behavior: a comment the operator took down is reported as a takedown with its reason, not as a failure', async () => {
    const { bundle, ids } = await sampleThread()
    const spam = messageOf(bundle, ids.spam)
    if (spam.kind !== 'comment') throw new Error('not a comment')
    spam.message.body = null
    spam.takenDown = { reason: 'Court order 2026-17', at: 1_800_100_000 }
    const report = await recountThread(bundle, { client })
    expect(report).toMatchObject({ matches: true, problems: [] })
    expect(report.takedowns).toEqual([
      `Comment ${short(ids.spam)} was taken down by the operator: Court order 2026-17.`,
    ])
    // Without the operator's mark, a missing text is a difference.
    delete spam.takenDown
    const unmarked = await recountThread(bundle, { client })
    expect(unmarked.problems).toEqual([
      `Comment ${short(ids.spam)} has no text, yet the operator did not take it down.`,
    ])
  })

  test('behavior: published state that differs from the signed messages (version, withdrawal, hidden, reactions, a comment not in the log) is reported', async () => {
    const { bundle, ids } = await sampleThread()
    const [first, reply, spam] = bundle.published.comments
    if (!first || !reply || !spam) throw new Error('not built')
    first.versionId = ids.first
    reply.withdrawn = false
    spam.hidden = false
    first.reactions = [{ reaction: 'thumbs-up', count: 2 }]
    const ghost = keccak256(toHex('a comment nobody signed'))
    bundle.published.comments.push({
      id: ghost,
      versionId: ghost,
      withdrawn: false,
      hidden: false,
      reactions: [],
    })
    const report = await recountThread(bundle, { client })
    expect(report.problems).toEqual([
      `Comment ${short(ids.first)} is published at version ${short(ids.first)}, but its latest signed version is ${short(ids.edit)}.`,
      `Comment ${short(ids.first)} is published with 2 "thumbs-up" reactions, but 1 signed one stands.`,
      `Comment ${short(ids.reply)} is published as not withdrawn, but its author withdrew it.`,
      `Comment ${short(ids.spam)} is published as shown, but a moderator last hid it.`,
      `Comment ${short(ghost)} is published, but no valid signed message in the log makes it.`,
    ])
  })

  test('behavior: a reply nested past the depth limit, an edit by another member and a mention that does not fit its text are reported', async () => {
    const kit = threadKit()
    const adaKey = await kit.authorise(ada, ['comment'])
    const benKey = await kit.authorise(ben, ['comment'])
    let parent = await kit.comment(adaKey, ada.address, 'Depth 0')
    const thread = [parent]
    for (const depth of [1, 2, 3, 4]) {
      parent = await kit.comment(adaKey, ada.address, `Depth ${depth}`, { parent })
      thread.push(parent)
    }
    const tooDeep = thread[4] as Hex
    const stolenEdit = await kit.comment(benKey, ben.address, 'Ben edits Ada', { replaces: thread[0] })
    const badMention = await kit.comment(benKey, ben.address, `Hi @${cleo.address}`, {
      mentions: [ada.address],
    })
    kit.bundle.published.comments = thread.slice(0, 4).map((id) => ({
      id,
      versionId: id,
      withdrawn: false,
      hidden: false,
      reactions: [],
    }))
    const report = await recountThread(kit.bundle, { client })
    expect(report.problems).toEqual([
      `Comment ${short(tooDeep)} is a reply nested 4 deep, past the limit.`,
      `Comment ${short(stolenEdit)} edits a comment of ${ada.address}.`,
      `Comment ${short(badMention)} was accepted though its mentions do not fit its text: Mention 1 (@${cleo.address}) is signed as ${ada.address}, not as its own address.`,
    ])
  })

  test('behavior: what is not a thread bundle is refused as such', async () => {
    await expect(recountThread({ format: 'guildhall-result-bundle/1' }, { client })).rejects.toBeInstanceOf(
      BundleFormatError,
    )
  })
})
