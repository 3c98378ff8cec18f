/**
 * The thread recount (ADR 052): from a thread bundle and any RPC of the DAO chain, re-check that every
 * message is the one its id names, that a key its author authorised (in scope, unexpired, not yet revoked
 * at that log entry) signed it, that each key's authorisation is the member's own signature (a contract
 * account's through the chain), that each log entry logs its message, that moderation comes from a named
 * moderator, that a comment hidden by flags had enough of them from members with voting power or tokens
 * (read from the chain at the block the server read them, ADR 090), and that the state the server publishes
 * is the one those messages make. A takedown is reported as one: its text is gone, so only its log entry can
 * be checked.
 */
import {
  type Address,
  getAddress,
  type Hex,
  isAddressEqual,
  type PublicClient,
  parseAbi,
  recoverAddress,
  zeroHash,
} from 'viem'
import { formatIssues } from '../config.ts'
import type { LogEntry } from '../governance/log.ts'
import { governanceDomain } from '../governance/messages.ts'
import { BundleFormatError, chainProblem, loggedProblem } from '../recount-checks.ts'
import { verifyHashSignature } from '../signature.ts'
import { mentionsProblem } from './mentions.ts'
import {
  commentDepth,
  commentDepthProblem,
  DISCUSSION_KIND_SCOPES,
  type DiscussionKeyScope,
  type DiscussionMessageKind,
  type DiscussionMessages,
  digestSigner,
  discussionAuthor,
  discussionMessageId,
  type Reaction,
} from './messages.ts'
import { type ThreadBundleMessage, threadBundleSchema } from './thread-bundle.ts'

export type ThreadRecountReport = {
  /** True when nothing differs (takedowns are not differences). */
  matches: boolean
  /** Each difference in a sentence. */
  problems: string[]
  /** Each message the operator took down, in a sentence with the reason. */
  takedowns: string[]
  /** The topic (if any) and every message checked. */
  messagesChecked: number
  keysChecked: number
}

/** One authorisation of a key, valid from its log entry until its revocation's. */
type Authorisation = {
  member: Address
  scopes: readonly DiscussionKeyScope[]
  expires: number
  seq: number
  revokedSeq: number
}

/** What a signed message is called in a sentence: "comment 0x1234abcd…". */
const labelOf = (kind: string, id: Hex) => `${kind} ${id.slice(0, 10)}…`
/** How an altered message no longer matches its signature. */
const ALTERED: Record<DiscussionMessageKind, string> = {
  'discussion-key': 'its key, scopes or expiry do not match its signature',
  'key-revocation': 'its key does not match its signature',
  topic: 'its text does not match its signature',
  comment: 'its text does not match its signature',
  withdrawal: 'the comment it withdraws does not match its signature',
  reaction: 'its reaction does not match its signature',
  flag: 'its reason does not match its signature',
  moderation: 'its action or reason does not match its signature',
}

/**
 * Recounts a thread bundle (its parsed JSON) against the chain `client` is connected to, which is asked
 * only for a key authorised by a contract account. Throws BundleFormatError when `bundle` is not one.
 */
export async function recountThread(
  bundle: unknown,
  { client }: { client: PublicClient },
): Promise<ThreadRecountReport> {
  const parsed = threadBundleSchema.safeParse(bundle)
  if (!parsed.success) throw new BundleFormatError(`The thread bundle: ${formatIssues(parsed.error)}`)
  const {
    domain: bundleDomain,
    thread,
    moderators,
    flagsToHide,
    keys,
    revocations,
    messages,
    published,
  } = parsed.data
  const domain = governanceDomain({
    chainId: bundleDomain.chainId,
    token: getAddress(bundleDomain.verifyingContract),
  })
  const threadId = thread.id.toLowerCase() as Hex
  const problems: string[] = []
  const takedowns: string[] = []

  // The chain is asked only when a contract account's signature or the flags' power needs it, and is
  // checked to be the DAO's once.
  let chainChecked: Promise<void> | undefined
  const chainReady = () => {
    chainChecked ??= chainProblem(client, domain.chainId).then((problem) => {
      if (problem) problems.push(problem)
    })
    return chainChecked
  }
  const memberSigned = async (member: Address, hash: Hex, signature: Hex): Promise<boolean> => {
    const signer = await recoverAddress({ hash, signature }).catch(() => null)
    if (signer && isAddressEqual(signer, member)) return true
    await chainReady()
    return verifyHashSignature({ address: member, hash, signature, client })
  }

  /** Adds the sentence for `entry` not logging the message, and says whether it does. */
  const logs = (label: string, entry: LogEntry, kind: LogEntry['kind'], id: Hex, signature: Hex) => {
    const problem = loggedProblem(entry, { kind, messageId: id, signature })
    if (problem === 'hash')
      problems.push(`Log entry ${entry.seq} (${label}) does not hash to its stored hash.`)
    else if (problem === 'differs')
      problems.push(`${capitalised(label)} differs from its log entry ${entry.seq} (kind, id or signature).`)
    return problem === null
  }

  /** Adds the sentence for `message` not being the one its id names, and says whether it is. */
  const matchesId = <K extends DiscussionMessageKind>(
    kind: K,
    message: DiscussionMessages[K],
    id: Hex,
    label: string,
  ) => {
    if (discussionMessageId(domain, kind, message) === id) return true
    problems.push(`${capitalised(label)} was altered: ${ALTERED[kind]}.`)
    return false
  }

  // 1. Keys: each authorisation is the member's signature of it, logged.
  const authorisations = new Map<string, Authorisation[]>()
  for (const { id, message, signature, log } of keys) {
    const label = `the authorisation of key ${message.key} by ${message.member}`
    if (!matchesId('discussion-key', message, id, label)) continue
    if (!logs(label, log, 'discussion-key', id, signature)) continue
    if (!(await memberSigned(message.member, id, signature))) {
      problems.push(`${capitalised(label)} is not signed by ${message.member}.`)
      continue
    }
    const list = authorisations.get(message.key.toLowerCase()) ?? []
    list.push({
      member: message.member,
      scopes: message.scopes,
      expires: message.expires,
      seq: log.seq,
      revokedSeq: Infinity,
    })
    authorisations.set(message.key.toLowerCase(), list)
  }
  for (const { id, message, signature, log } of revocations) {
    const label = `the revocation of key ${message.key} by ${message.member}`
    if (!matchesId('key-revocation', message, id, label)) continue
    if (!logs(label, log, 'key-revocation', id, signature)) continue
    const byKey = digestSigner(id, signature)
    const signed =
      (byKey !== null && isAddressEqual(byKey, message.key)) ||
      (await memberSigned(message.member, id, signature))
    if (!signed) {
      problems.push(`${capitalised(label)} is signed neither by the member nor by the key.`)
      continue
    }
    for (const authorisation of authorisations.get(message.key.toLowerCase()) ?? []) {
      if (isAddressEqual(authorisation.member, message.member) && authorisation.seq < log.seq)
        authorisation.revokedSeq = Math.min(authorisation.revokedSeq, log.seq)
    }
  }

  /** Why the message's signer may not sign it, or null: an authorised key of its author, in scope then. */
  const keyProblem = <K extends DiscussionMessageKind>(
    kind: K,
    message: DiscussionMessages[K],
    id: Hex,
    signature: Hex,
    seq: number,
  ): string | null => {
    const author = discussionAuthor(kind, message)
    const key = digestSigner(id, signature)
    if (!key) return 'its signature is not a key’s signature'
    const all = authorisations.get(key.toLowerCase()) ?? []
    const mine = all.filter((authorisation) => isAddressEqual(authorisation.member, author))
    if (mine.length === 0) {
      const other = all[0]
      return other
        ? `it is signed by key ${key}, which ${other.member} authorised, not its author ${author}`
        : `it is signed by key ${key}, which its author ${author} has not authorised`
    }
    const scope = DISCUSSION_KIND_SCOPES[kind]
    const before = mine.filter((authorisation) => authorisation.seq < seq)
    if (before.length === 0) return `it was logged before its key ${key} was authorised`
    const inScope = before.filter((authorisation) => scope === null || authorisation.scopes.includes(scope))
    if (inScope.length === 0) return `its key ${key} may not sign ${kind}s (no "${scope}" scope)`
    const unexpired = inScope.filter((authorisation) => message.timestamp <= authorisation.expires)
    if (unexpired.length === 0) return `it was signed after its key ${key} expired`
    if (unexpired.every((authorisation) => authorisation.revokedSeq < seq))
      return `it was signed with key ${key} after the key was revoked`
    return null
  }

  /** Whether a message is the one its id names, logged, and signed by an authorised key: each failure said. */
  const verified = <K extends DiscussionMessageKind>(
    kind: K,
    message: DiscussionMessages[K],
    id: Hex,
    signature: Hex,
    log: LogEntry,
  ) => {
    const label = labelOf(kind, id)
    if (!matchesId(kind, message, id, label)) return false
    if (!logs(label, log, kind, id, signature)) return false
    const problem = keyProblem(kind, message, id, signature, log.seq)
    if (problem) problems.push(`${capitalised(label)} is not valid: ${problem}.`)
    return problem === null
  }

  // 2. The topic, for a topic's thread: its id is the thread's.
  let messagesChecked = 0
  if (thread.kind === 'topic') {
    const topic = thread.topic
    if (!topic) problems.push('The bundle is a topic’s thread but does not carry the topic.')
    else {
      messagesChecked += 1
      if (topic.id !== threadId) problems.push(`The topic ${topic.id} is not the thread ${thread.id}.`)
      const label = labelOf('topic', topic.id)
      const { body } = topic.message
      if (body === null) {
        noteTakedown(label, topic.takenDown, problems, takedowns)
        logs(label, topic.log, 'topic', topic.id, topic.signature)
      } else if (verified('topic', { ...topic.message, body }, topic.id, topic.signature, topic.log)) {
        const mentions = mentionsProblem(body, topic.message.mentions)
        if (mentions)
          problems.push(
            `${capitalised(label)} was accepted though its mentions do not fit its text: ${mentions}`,
          )
      }
    }
  }

  // 3. Every message in log order, each valid one applied to the thread's state.
  type CommentState = {
    author: Address
    depth: number
    versionId: Hex
    withdrawn: boolean
    /** The last moderator's hide or unhide. */
    moderated: 'hide' | 'unhide' | null
    /** Its valid flags, each with the block the server read its flagger's power at (see `flagsProblem`). */
    flags: CommentFlag[]
  }
  const comments = new Map<Hex, CommentState>()
  /** Each version's comment (a comment's first version is the comment's id). */
  const versionOf = new Map<Hex, Hex>()
  const reactions = new Map<string, boolean>()
  const isModerator = (address: Address) => moderators.some((moderator) => isAddressEqual(moderator, address))
  let lastSeq = 0
  for (const entry of messages) {
    messagesChecked += 1
    const label = labelOf(entry.kind, entry.id)
    if (entry.log.seq <= lastSeq)
      problems.push(`${capitalised(label)} is out of log order (entry ${entry.log.seq}).`)
    lastSeq = Math.max(lastSeq, entry.log.seq)
    if (entry.kind === 'comment' && entry.message.body === null) {
      noteTakedown(label, entry.takenDown, problems, takedowns)
      if (logs(label, entry.log, 'comment', entry.id, entry.signature)) applyTakenDownComment(entry)
      continue
    }
    if (!verifiedEntry(entry)) continue
    const outside = applied(entry)
    if (outside) problems.push(`${capitalised(label)} ${outside}.`)
  }

  function verifiedEntry(entry: ThreadBundleMessage): boolean {
    switch (entry.kind) {
      case 'comment': {
        const { body } = entry.message
        return (
          body !== null &&
          verified('comment', { ...entry.message, body }, entry.id, entry.signature, entry.log)
        )
      }
      case 'withdrawal':
        return verified('withdrawal', entry.message, entry.id, entry.signature, entry.log)
      case 'reaction':
        return verified('reaction', entry.message, entry.id, entry.signature, entry.log)
      case 'flag':
        return verified('flag', entry.message, entry.id, entry.signature, entry.log)
      case 'moderation':
        return verified('moderation', entry.message, entry.id, entry.signature, entry.log)
    }
  }

  /** A taken-down version still counts as the version it was; its author and place come from the server. */
  function applyTakenDownComment(entry: Extract<ThreadBundleMessage, { kind: 'comment' }>) {
    const { message } = entry
    if (message.replaces === zeroHash) {
      const parent = message.parent === zeroHash ? null : comments.get(message.parent)
      comments.set(entry.id, {
        author: message.author,
        depth: commentDepth(parent ? parent.depth : null),
        versionId: entry.id,
        withdrawn: false,
        moderated: null,
        flags: [],
      })
      versionOf.set(entry.id, entry.id)
      return
    }
    const commentId = versionOf.get(message.replaces)
    const comment = commentId && comments.get(commentId)
    if (commentId && comment) {
      comment.versionId = entry.id
      versionOf.set(entry.id, commentId)
    }
  }

  /** Applies a valid message to the state; returns why it does not fit the thread (ending a sentence), or null. */
  function applied(entry: ThreadBundleMessage): string | null {
    switch (entry.kind) {
      case 'comment': {
        const { message } = entry
        if (message.thread !== threadId) return 'belongs to another thread'
        // A valid comment has its text (verifiedEntry).
        const mentions = mentionsProblem(message.body ?? '', message.mentions)
        if (mentions)
          return `was accepted though its mentions do not fit its text: ${mentions.replace(/\.$/, '')}`
        if (message.replaces === zeroHash) {
          let parentDepth: number | null = null
          if (message.parent !== zeroHash) {
            const parent = comments.get(message.parent)
            if (!parent) return 'replies to a comment that is not in the thread'
            parentDepth = parent.depth
          }
          const depth = commentDepth(parentDepth)
          if (commentDepthProblem(depth)) return `is a reply nested ${depth} deep, past the limit`
          comments.set(entry.id, {
            author: message.author,
            depth,
            versionId: entry.id,
            withdrawn: false,
            moderated: null,
            flags: [],
          })
          versionOf.set(entry.id, entry.id)
          return null
        }
        const commentId = versionOf.get(message.replaces)
        const comment = commentId && comments.get(commentId)
        if (!commentId || !comment) return 'edits a comment that is not in the thread'
        if (!isAddressEqual(comment.author, message.author)) return `edits a comment of ${comment.author}`
        if (comment.versionId !== message.replaces) return 'edits a version that is not its comment’s latest'
        comment.versionId = entry.id
        versionOf.set(entry.id, commentId)
        return null
      }
      case 'withdrawal': {
        const comment = comments.get(entry.message.comment)
        if (!comment) return 'withdraws a comment that is not in the thread'
        if (!isAddressEqual(comment.author, entry.message.author))
          return `withdraws a comment of ${comment.author}`
        comment.withdrawn = true
        return null
      }
      case 'reaction': {
        const { target } = entry.message
        if (!comments.has(target) && !(thread.kind === 'topic' && target === threadId))
          return 'reacts to something that is not in the thread'
        reactions.set(reactionKey(target, entry.message.author, entry.message.reaction), entry.message.on)
        return null
      }
      case 'flag': {
        const comment = comments.get(entry.message.comment)
        if (!comment) return 'flags a comment that is not in the thread'
        comment.flags.push({ author: entry.message.author, powerBlock: entry.powerBlock })
        return null
      }
      case 'moderation': {
        const { message } = entry
        if (!isModerator(message.moderator))
          return `(${message.action}) is by ${message.moderator}, who is not a moderator`
        if (message.action === 'lock' || message.action === 'unlock')
          return message.target === threadId ? null : `(${message.action}) names another thread`
        const comment = comments.get(message.target)
        if (!comment) return `(${message.action}) names a comment that is not in the thread`
        comment.moderated = message.action
        return null
      }
    }
  }

  // 4. The log entries the bundle carries that are neighbours in the log must link (the rest of the log is
  // not in a thread's bundle).
  const entries = [
    ...keys.map((key) => key.log),
    ...revocations.map((revocation) => revocation.log),
    ...(thread.topic ? [thread.topic.log] : []),
    ...messages.map((message) => message.log),
  ].sort((a, b) => a.seq - b.seq)
  for (const [index, entry] of entries.entries()) {
    const before = entries[index - 1]
    if (before?.seq === entry.seq - 1 && entry.prevHash !== before.hash)
      problems.push(`Log entry ${entry.seq} does not link to entry ${before.seq} before it.`)
  }

  /** Whether the flagger had voting power or tokens at the block the server read them at, cached. */
  const stakes = new Map<string, Promise<boolean>>()
  const hadStake = (author: Address, block: number) => {
    const key = `${author.toLowerCase()} ${block}`
    let known = stakes.get(key)
    if (!known) {
      const at = {
        address: domain.verifyingContract,
        abi: STAKE_ABI,
        args: [author],
        blockNumber: BigInt(block),
      } as const
      known = chainReady().then(async () => {
        const [votes, balance] = await Promise.all([
          client.readContract({ ...at, functionName: 'getVotes' }),
          client.readContract({ ...at, functionName: 'balanceOf' }),
        ])
        return votes > 0n || balance > 0n
      })
      stakes.set(key, known)
    }
    return known
  }

  /**
   * How a comment no moderator decided on is published against its flags (ending a sentence), or null. The
   * server hides it with the flag that brings the flags from members with voting power or tokens (either
   * above zero at the token index's block it read them at) to DISCUSSION_FLAGS_TO_HIDE; the recount reads
   * each flagger's at that block from the chain, and only when there are enough flags for it to matter. A
   * bundle without the threshold (an older server's) is checked as far as it goes: hidden needs a flag; so is
   * a comment whose flags reach it but one lacks its block (stored before servers kept it).
   */
  async function flagsProblem(flags: readonly CommentFlag[], hidden: boolean): Promise<string | null> {
    const needsAFlag = () =>
      hidden && flags.length === 0
        ? 'is published as hidden, but no moderator hid it and no member flagged it'
        : null
    if (flagsToHide === undefined) return needsAFlag()
    const rule = `DISCUSSION_FLAGS_TO_HIDE is ${flagsToHide}`
    if (flags.length < flagsToHide)
      return hidden
        ? `is published as hidden, but no moderator hid it and it has ${flags.length} flag${flags.length === 1 ? '' : 's'} (${rule})`
        : null
    if (flags.some((flag) => typeof flag.powerBlock !== 'number')) return needsAFlag()
    let counting = 0
    for (const { author, powerBlock } of flags) {
      try {
        if (await hadStake(author, powerBlock as number)) counting += 1
      } catch (error) {
        return `cannot be checked against its flags: the power of flagger ${author} at block ${powerBlock} could not be read from the chain (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`
      }
    }
    if (hidden && counting < flagsToHide)
      return `is published as hidden, but no moderator hid it and ${counting} of its ${flags.length} flags are from members with voting power or tokens (${rule})`
    if (!hidden && counting >= flagsToHide)
      return `is published as shown, but ${counting} of its flags are from members with voting power or tokens (${rule}) and no moderator decided on it`
    return null
  }

  // 5. The published state against the recomputed one.
  const shown = new Map(published.comments.map((comment) => [comment.id.toLowerCase() as Hex, comment]))
  for (const [id, comment] of comments) {
    const label = labelOf('comment', id)
    const publishedComment = shown.get(id)
    shown.delete(id)
    if (!publishedComment) {
      problems.push(`${capitalised(label)} is in the log but not published.`)
      continue
    }
    if (publishedComment.versionId.toLowerCase() !== comment.versionId)
      problems.push(
        `${capitalised(label)} is published at version ${publishedComment.versionId.slice(0, 10)}…, but its latest signed version is ${comment.versionId.slice(0, 10)}….`,
      )
    if (publishedComment.withdrawn !== comment.withdrawn)
      problems.push(
        `${capitalised(label)} is published as ${publishedComment.withdrawn ? '' : 'not '}withdrawn, but its author ${comment.withdrawn ? 'withdrew' : 'did not withdraw'} it.`,
      )
    // A moderator's last word decides; without one, members' flags hide it once enough of them count.
    if (comment.moderated !== null) {
      if (publishedComment.hidden !== (comment.moderated === 'hide'))
        problems.push(
          `${capitalised(label)} is published as ${publishedComment.hidden ? 'hidden' : 'shown'}, but a moderator last ${comment.moderated === 'hide' ? 'hid' : 'unhid'} it.`,
        )
    } else {
      const problem = await flagsProblem(comment.flags, publishedComment.hidden)
      if (problem) problems.push(`${capitalised(label)} ${problem}.`)
    }
    const counted = new Map<Reaction, number>()
    for (const [key, on] of reactions) {
      const [target, , reaction] = key.split(' ') as [Hex, Address, Reaction]
      if (target === id && on) counted.set(reaction, (counted.get(reaction) ?? 0) + 1)
    }
    const publishedCounts = new Map(
      publishedComment.reactions
        .filter(({ count }) => count > 0)
        .map(({ reaction, count }) => [reaction, count]),
    )
    for (const reaction of new Set([...counted.keys(), ...publishedCounts.keys()])) {
      const recounted = counted.get(reaction) ?? 0
      const claimed = publishedCounts.get(reaction) ?? 0
      if (recounted !== claimed)
        problems.push(
          `${capitalised(label)} is published with ${claimed} "${reaction}" reaction${claimed === 1 ? '' : 's'}, but ${recounted} signed one${recounted === 1 ? ' stands' : 's stand'}.`,
        )
    }
  }
  for (const id of shown.keys())
    problems.push(
      `${capitalised(labelOf('comment', id))} is published, but no valid signed message in the log makes it.`,
    )

  return { matches: problems.length === 0, problems, takedowns, messagesChecked, keysChecked: keys.length }
}

/** A valid flag: its author, and the block the server read the author's power at (see ThreadBundle). */
type CommentFlag = { author: Address; powerBlock: number | null | undefined }

/** What a flag's weight is read with: the token's votes and balance (ERC20Votes), at a block. */
const STAKE_ABI = parseAbi([
  'function getVotes(address account) view returns (uint256)',
  'function balanceOf(address account) view returns (uint256)',
])

const reactionKey = (target: Hex, author: Address, reaction: Reaction) =>
  `${target} ${author.toLowerCase()} ${reaction}`

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/** A message without its text: a takedown (said so, with its reason), or a bundle that dropped the text. */
function noteTakedown(
  label: string,
  takenDown: { reason: string } | undefined,
  problems: string[],
  takedowns: string[],
) {
  if (takenDown) takedowns.push(`${capitalised(label)} was taken down by the operator: ${takenDown.reason}.`)
  else problems.push(`${capitalised(label)} has no text, yet the operator did not take it down.`)
}
