// The key-signed messages of a thread: a comment or its edit, a withdrawal, a reaction, a flag, a moderator's
// action. Each is signed by the member's discussion key (no wallet prompt once authorised) and each reads
// the thread again once stored.
import {
  type CommentMessage,
  commentResponseSchema,
  type FlagMessage,
  type ModerationMessage,
  moderationActionResponseSchema,
  type ReactionMessage,
  reactionResponseSchema,
  type WithdrawalMessage,
} from '@guildhall/core'
import type { Hex } from 'viem'
import { apiSend } from '../../../lib/api.ts'
import { useKeySignedAction } from '../discussion-key.ts'
import { discussionKeys } from './keys.ts'

type Signed<Message> = { message: Message; signature: Hex }

/** POST /api/comments: a new comment or an edit (a new version); a replay answers as the first time. */
export function usePostComment(threadId: string) {
  return useKeySignedAction({
    kind: 'comment',
    submit: (signed: Signed<CommentMessage>) =>
      apiSend('POST', '/api/comments', signed, commentResponseSchema, { idempotent: true }),
    changes: (answer) => [discussionKeys.thread(threadId), discussionKeys.versions(answer.comment.id)],
  })
}

/** POST /api/comments/withdraw: the author takes a comment back; its text is hidden, its entry stays. */
export function useWithdrawComment(threadId: string) {
  return useKeySignedAction({
    kind: 'withdrawal',
    submit: (signed: Signed<WithdrawalMessage>) =>
      apiSend('POST', '/api/comments/withdraw', signed, commentResponseSchema, { idempotent: true }),
    changes: () => [discussionKeys.thread(threadId)],
  })
}

/** POST /api/reactions: one reaction on or off, on a comment or on a topic (whose id is its thread's). */
export function useReact(threadId: string) {
  return useKeySignedAction({
    kind: 'reaction',
    submit: (signed: Signed<ReactionMessage>) =>
      apiSend('POST', '/api/reactions', signed, reactionResponseSchema, { idempotent: true }),
    changes: () => [discussionKeys.thread(threadId), discussionKeys.topic(threadId)],
  })
}

/** POST /api/flags: a member flags a comment for the moderators. */
export function useFlagComment(threadId: string) {
  return useKeySignedAction({
    kind: 'flag',
    submit: (signed: Signed<FlagMessage>) =>
      apiSend('POST', '/api/flags', signed, commentResponseSchema, { idempotent: true }),
    changes: () => [discussionKeys.thread(threadId)],
  })
}

/** POST /api/moderation: a moderator hides or unhides a comment, locks or unlocks the thread. */
export function useModerate(threadId: string) {
  return useKeySignedAction({
    kind: 'moderation',
    submit: (signed: Signed<ModerationMessage>) =>
      apiSend('POST', '/api/moderation', signed, moderationActionResponseSchema, { idempotent: true }),
    changes: () => [discussionKeys.thread(threadId)],
  })
}
