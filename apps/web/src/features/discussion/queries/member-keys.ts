import {
  type DiscussionKeyMessage,
  discussionKeyListSchema,
  discussionKeyResponseSchema,
  discussionKeyTypedData,
  type KeyRevocationMessage,
  keyRevocationTypedData,
} from '@guildhall/core'
import { queryOptions, useQuery } from '@tanstack/react-query'
import type { Hex } from 'viem'
import { apiGet, apiSend } from '../../../lib/api.ts'
import { useSignedAction } from '../../../lib/signed-action.ts'
import { discussionKeys } from './keys.ts'

/** GET /api/discussion/keys: the signed-in member's keys, newest first. */
const memberKeysQueryOptions = () =>
  queryOptions({
    queryKey: discussionKeys.memberKeys(),
    queryFn: () => apiGet('/api/discussion/keys', discussionKeyListSchema),
    // Whose keys these are is the session's: never kept in localStorage.
    meta: { persist: false },
  })

export function useMemberKeys() {
  return useQuery(memberKeysQueryOptions())
}

/** POST /api/discussion/keys: the wallet's DiscussionKey. Stored once by its digest, a replay answers 201. */
const submitKey = (signed: { message: DiscussionKeyMessage; signature: Hex }) =>
  apiSend('POST', '/api/discussion/keys', signed, discussionKeyResponseSchema, { idempotent: true })

/** The wallet authorises a key of this browser. */
export function useAuthoriseKey() {
  return useSignedAction({
    typedData: discussionKeyTypedData,
    submit: submitKey,
    changes: () => [discussionKeys.memberKeys()],
  })
}

/** POST /api/discussion/keys/revoke: a KeyRevocation signed by the member's wallet. */
const submitRevocation = (signed: { message: KeyRevocationMessage; signature: Hex }) =>
  apiSend('POST', '/api/discussion/keys/revoke', signed, discussionKeyResponseSchema, { idempotent: true })

export function useRevokeKey() {
  return useSignedAction({
    typedData: keyRevocationTypedData,
    submit: submitRevocation,
    changes: () => [discussionKeys.memberKeys()],
  })
}
