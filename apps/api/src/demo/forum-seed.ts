// The local demo's forum, so a newcomer sees a living one: topics in every category, threads on the demo
// proposals with replies three levels deep, reactions, a mention, an edited comment, a comment hidden by
// Cleo (the demo's moderator) with her reason, and a topic that became a proposal. Every message goes
// through the same services as a request (the demo members' keys authorised by their own wallet signatures,
// each message signed by the key), so every one is in the log. Messages dated in the past are stored with
// the services' clock set to their date, as the governance seed does, so each meets the rules it would have
// met then.
import {
  type CommentMessage,
  DISCUSSION_LIMITS,
  type DiscussionKeyMessage,
  type DiscussionMessageKind,
  type DiscussionMessages,
  type GovernanceDomain,
  type ModerationMessage,
  type Reaction,
  signWithDiscussionKey,
  type TopicMessage,
} from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { sql } from 'drizzle-orm'
import type { FastifyRequest } from 'fastify'
import { type Address, type Hex, keccak256, type LocalAccount, toHex, zeroHash } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { postComment } from '../discussion/comments.ts'
import type { DiscussionDeps } from '../discussion/deps.ts'
import { authoriseKey } from '../discussion/keys.ts'
import { moderate } from '../discussion/moderation.ts'
import { react } from '../discussion/reactions.ts'
import { createTopic } from '../discussion/topics.ts'
import type { GovernanceDeps } from '../governance/deps.ts'
import { proposals, topics } from '../platform/db/schema.ts'

const HOUR = 3_600
const DAY = 24 * HOUR

type Member = { name: string; wallet: LocalAccount; key: LocalAccount }
/** A demo member (anvil account `index`) and the discussion key the demo authorises for them. */
const demoMember = (index: number, name: string): Member => ({
  name,
  wallet: privateKeyToAccount(anvilAccounts[index]?.privateKey as Hex),
  key: privateKeyToAccount(keccak256(toHex(`guildhall-demo-discussion-key-${index}`))),
})
const ada = demoMember(1, 'Ada')
const ben = demoMember(2, 'Ben')
const cleo = demoMember(3, 'Cleo')
const dev = demoMember(4, 'Dev')
const eve = demoMember(5, 'Eve')
const hugo = demoMember(8, 'Hugo')
const MEMBERS = [ada, ben, cleo, dev, eve, hugo]

/** The demo's moderator (MODERATORS in demoEnv names her too). */
const DEMO_MODERATOR: Address = cleo.wallet.address

/** DISCUSSION_FLAGS_TO_HIDE's default (the demo seeds no flags). */
const DEMO_FLAGS_TO_HIDE = 3

/** The keys are authorised this long ago, so every seeded message is dated within their lifetime. */
const KEYS_AGE = 22 * DAY

/**
 * A comment of the seed: `at` relative to its thread's anchor (a proposal's start, a topic's creation), in
 * seconds; `replies` nest under it; `edit` is a later version of it; `hide` Cleo's reason for hiding it.
 */
type SeedComment = {
  author: Member
  body: string
  /** Mentioned members, in the order their `@name.eth` appear in the body. */
  mentions?: Member[]
  at: number
  reactions?: { by: Member; reaction: Reaction }[]
  edit?: { body: string; at: number }
  hide?: { reason: string; at: number }
  replies?: SeedComment[]
}

type SeedTopic = { author: Member; title: string; body: string; at: number; comments: SeedComment[] }

/** One topic per configured category, in this order (the first again for categories beyond these). */
const TOPICS: SeedTopic[] = [
  {
    author: ada,
    title: 'A rotating chair for the monthly call',
    body: 'The same three people chair every call. What if the chair rotated among everyone who voted last month?',
    at: -12 * DAY,
    comments: [
      {
        author: eve,
        body: 'I would volunteer. A short checklist for the chair would help first-timers.',
        at: 3 * HOUR,
        reactions: [{ by: ada, reaction: 'thumbs-up' }],
        replies: [
          {
            author: ada,
            body: 'Good idea: I will draft one in the wiki and link it here.',
            at: 5 * HOUR,
            reactions: [{ by: eve, reaction: 'heart' }],
          },
        ],
      },
    ],
  },
  {
    author: ben,
    title: 'How is voting power counted when I delegate?',
    body: 'If I delegate to Ada after a proposal is created, does my vote on it still count?',
    at: -8 * DAY,
    comments: [
      {
        author: cleo,
        body: 'Voting power is read at the proposal’s snapshot block. Delegating later moves your power for the **next** proposals only.',
        at: 2 * HOUR,
        reactions: [
          { by: ben, reaction: 'thumbs-up' },
          { by: dev, reaction: 'thumbs-up' },
        ],
        replies: [
          {
            author: ben,
            body: 'Thanks, that explains why my vote showed the full amount.',
            at: 4 * HOUR,
          },
        ],
      },
    ],
  },
  {
    author: cleo,
    title: 'Introduce yourself',
    body: 'New here? Say hello: what brought you to the DAO, and what would you like to work on?',
    at: -15 * DAY,
    comments: [
      {
        author: dev,
        body: 'Hi all, Dev here. I write documentation and would like to help with the onboarding guide.',
        at: 1 * DAY,
        reactions: [
          { by: cleo, reaction: 'party' },
          { by: ada, reaction: 'heart' },
        ],
      },
      {
        author: eve,
        body: 'Eve, designer. I joined for the meetups and stayed for the votes.',
        at: 2 * DAY,
        reactions: [{ by: cleo, reaction: 'laugh' }],
      },
    ],
  },
]

/** The topic that became the proposal titled `proposal` (whose body links it). */
const PROPOSED_TOPIC: SeedTopic & { proposal: string } = {
  author: ben,
  title: 'Rotate one treasury signer every year',
  body: 'One of the three signers of the treasury Safe ends their term next month. Should we make yearly rotation the rule, starting now?',
  at: -4 * DAY,
  proposal: 'Renew the treasury multisig signers',
  comments: [
    {
      author: ada,
      body: 'Yes, and the outgoing signer should stay until the new one has signed a first transaction.',
      at: 3 * HOUR,
      reactions: [{ by: ben, reaction: 'thumbs-up' }],
      replies: [
        {
          author: ben,
          body: 'Agreed. I will write it up as a proposal.',
          at: 6 * HOUR,
          reactions: [{ by: ada, reaction: 'party' }],
        },
      ],
    },
  ],
}

/** Threads on the demo proposals, by title; `at` relative to the proposal's start. */
const PROPOSAL_THREADS: Record<string, SeedComment[]> = {
  'Fund the documentation sprint (5,000 GHD)': [
    {
      author: ben,
      body: 'Is one month enough to rewrite the whole guide? The budget assumes it is.',
      at: 1 * HOUR,
      reactions: [{ by: eve, reaction: 'thinking' }],
      replies: [
        {
          author: ada,
          body: 'The outline is done, so the month is for writing. See the table in the proposal.',
          at: 2 * HOUR,
          edit: {
            body: 'The outline is done, so the month is for writing and review: 4,500 GHD for the writers, 500 for the review (the table in the proposal).',
            at: 3 * HOUR,
          },
          reactions: [{ by: dev, reaction: 'thumbs-up' }],
          replies: [
            {
              author: ben,
              body: 'Fair. I would still like a review halfway through.',
              at: 4 * HOUR,
              replies: [
                {
                  author: cleo,
                  body: 'I can do the halfway review, @ada.eth.',
                  mentions: [ada],
                  at: 5 * HOUR,
                  reactions: [
                    { by: ada, reaction: 'heart' },
                    { by: ben, reaction: 'thumbs-up' },
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
    {
      author: dev,
      body: 'As someone who got lost in the current guide: please start with delegation, it confused me most.',
      at: 6 * HOUR,
      reactions: [
        { by: ada, reaction: 'eyes' },
        { by: eve, reaction: 'thumbs-up' },
      ],
    },
  ],
  'Which city hosts the next meetup?': [
    {
      author: eve,
      body: 'Nairobi had the most first-time voters asking for a meetup last year.',
      at: 30 * 60,
      replies: [
        {
          author: ben,
          body: 'True, but flights from Europe are cheaper to Lisbon. Could we alternate?',
          at: 2 * HOUR,
          reactions: [{ by: eve, reaction: 'thumbs-up' }],
        },
      ],
    },
    {
      author: hugo,
      body: 'Cheap GHD for sale, 50% off, send me a message!!!',
      at: 3 * HOUR,
      hide: { reason: 'Spam: an advertisement', at: 4 * HOUR },
    },
  ],
  'Adopt the community code of conduct': [
    {
      author: cleo,
      body: 'I voted to abstain: I support a code of conduct, but not moderators elected yearly before we have any.',
      at: 2 * HOUR,
      replies: [
        {
          author: ada,
          body: 'That part can change with a later proposal; the code itself is what matters now.',
          at: 5 * HOUR,
          reactions: [{ by: cleo, reaction: 'thumbs-up' }],
        },
      ],
    },
  ],
  'Which working groups should get a budget this quarter?': [
    {
      author: eve,
      body: 'What does the Infrastructure group plan to spend on?',
      at: 1 * HOUR,
      replies: [
        {
          author: cleo,
          body: 'Mostly the RPC provider and the app’s server; the figures are in last quarter’s report.',
          at: 2 * HOUR,
        },
      ],
    },
  ],
  'Pay for the audit of the treasury setup (20,000 USDG and 0.5 ETH)': [
    {
      author: ben,
      body: 'Could the auditor’s report be published before we pay?',
      at: 1 * HOUR,
      replies: [
        {
          author: ada,
          body: 'It is linked in the proposal. The findings were all fixed before the vote.',
          at: 3 * HOUR,
          reactions: [{ by: ben, reaction: 'thumbs-up' }],
        },
      ],
    },
  ],
}

/** What the forum seed works with: the discussion services' deps, whose clock the seed sets per message. */
type DemoForumDeps = {
  governance: GovernanceDeps
  categories: readonly string[]
}

/** The services' deps with the clock at `at` (Unix seconds), every demo member as the signed-in one. */
function discussionDeps(deps: DemoForumDeps, at: number): DiscussionDeps {
  return {
    governance: { ...deps.governance, now: () => new Date(at * 1000) },
    categories: deps.categories,
    posters: 'members',
    moderators: [DEMO_MODERATOR],
    flagsToHide: DEMO_FLAGS_TO_HIDE,
    signedIn: async () => undefined,
  }
}

async function signed<K extends DiscussionMessageKind>(
  domain: GovernanceDomain,
  signer: LocalAccount,
  kind: K,
  message: DiscussionMessages[K],
) {
  const { signature, id } = await signWithDiscussionKey(signer, domain, kind, message)
  return { message, signature, id }
}

/**
 * The demo members' keys and the topics, before the proposals: one topic is the one a proposal links
 * (its body "Discussed at …/discussions/<id>"), which the proposal path then marks as proposed. Returns the
 * line each such proposal's body ends with, by the proposal's title. Nothing when a topic exists already.
 */
export async function seedDemoTopics(
  deps: DemoForumDeps,
  { now, appUrl }: { now: number; appUrl: string },
): Promise<Map<string, string>> {
  const links = new Map<string, string>()
  const { db } = deps.governance.database
  if ((await db.select({ id: topics.id }).from(topics).limit(1)).length > 0) return links
  const domain = deps.governance.domain
  const keysAt = now - KEYS_AGE
  for (const member of MEMBERS) {
    const message: DiscussionKeyMessage = {
      member: member.wallet.address,
      key: member.key.address,
      scopes: member === cleo ? ['comment', 'react', 'flag', 'moderate'] : ['comment', 'react', 'flag'],
      expires: keysAt + DISCUSSION_LIMITS.keyLifetimeMaxSeconds,
      timestamp: keysAt,
    }
    const body = await signed(domain, member.wallet, 'discussion-key', message)
    await authoriseKey(discussionDeps(deps, keysAt), member.wallet.address, body)
  }
  const seedTopic = async (topic: SeedTopic, category: string) => {
    const at = now + topic.at
    const message: TopicMessage = {
      author: topic.author.wallet.address,
      category,
      title: topic.title,
      body: topic.body,
      mentions: [],
      timestamp: at,
    }
    const body = await signed(domain, topic.author.key, 'topic', message)
    await createTopic(discussionDeps(deps, at), message.author, body)
    await seedComments(deps, body.id, at, topic.comments)
    return body.id
  }
  for (const [index, category] of deps.categories.entries())
    await seedTopic(TOPICS[index] ?? (TOPICS[0] as SeedTopic), category)
  const proposed = await seedTopic(PROPOSED_TOPIC, deps.categories[0] ?? 'Ideas')
  links.set(PROPOSED_TOPIC.proposal, `Discussed at ${appUrl}/discussions/${proposed}`)
  return links
}

/**
 * The threads on the demo proposals (found by title; a title the database lacks is skipped). Once: nothing
 * when any of them has a comment already.
 */
export async function seedDemoThreads(deps: DemoForumDeps): Promise<number> {
  const { db } = deps.governance.database
  const rows = await db
    .select({ id: proposals.id, title: sql<string>`${proposals.message}->>'title'`, start: proposals.start })
    .from(proposals)
  let seeded = 0
  for (const [title, comments] of Object.entries(PROPOSAL_THREADS)) {
    const row = rows.find((proposal) => proposal.title === title)
    if (!row) continue
    await seedComments(deps, row.id as Hex, row.start, comments)
    seeded++
  }
  return seeded
}

/** `comments` on `thread` (and their replies, reactions, edits and hides), `at` relative to `anchor`. */
async function seedComments(
  deps: DemoForumDeps,
  thread: Hex,
  anchor: number,
  comments: SeedComment[],
  parent: Hex = zeroHash,
): Promise<void> {
  const domain = deps.governance.domain
  for (const comment of comments) {
    const at = anchor + comment.at
    const message: CommentMessage = {
      author: comment.author.wallet.address,
      thread,
      parent,
      replaces: zeroHash,
      body: comment.body,
      mentions: (comment.mentions ?? []).map((member) => member.wallet.address),
      timestamp: at,
    }
    const body = await signed(domain, comment.author.key, 'comment', message)
    await postComment(discussionDeps(deps, at), message.author, body)
    for (const [index, { by, reaction }] of (comment.reactions ?? []).entries()) {
      const reactedAt = at + 10 * 60 * (index + 1)
      const reactionBody = await signed(domain, by.key, 'reaction', {
        author: by.wallet.address,
        target: body.id,
        reaction,
        on: true,
        timestamp: reactedAt,
      })
      await react(discussionDeps(deps, reactedAt), by.wallet.address, reactionBody)
    }
    if (comment.edit) {
      const editedAt = anchor + comment.edit.at
      const edit = await signed(domain, comment.author.key, 'comment', {
        ...message,
        replaces: body.id,
        body: comment.edit.body,
        timestamp: editedAt,
      })
      await postComment(discussionDeps(deps, editedAt), message.author, edit)
    }
    if (comment.hide) {
      const hiddenAt = anchor + comment.hide.at
      const action: ModerationMessage = {
        moderator: cleo.wallet.address,
        target: body.id,
        action: 'hide',
        reason: comment.hide.reason,
        timestamp: hiddenAt,
      }
      // The moderation service reads the signed-in moderator from the request, as its route does: here Cleo.
      const asCleo = { ...discussionDeps(deps, hiddenAt), signedIn: async () => cleo.wallet.address }
      await moderate(asCleo, {} as FastifyRequest, await signed(domain, cleo.key, 'moderation', action))
    }
    if (comment.replies) await seedComments(deps, thread, anchor, comment.replies, body.id)
  }
}
