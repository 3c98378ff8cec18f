// Names and avatars of addresses, from the server's table of resolved profiles (GET /api/names, ADR 029).
// Every address on a page asks for its own name; the asks of one render are sent as one request (up to
// 100 addresses each), so a votes list of 50 rows costs one request, not 50.
import { NAMES_PER_REQUEST_MAX, type NameAnswer, nameListSchema, shortenAddress } from '@guildhall/core'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'react-router'
import { type Address, getAddress, isAddress } from 'viem'
import { apiGet } from './api.ts'
import { GeneratedAvatar } from './generated-avatar.tsx'

/** How long an answer stands before it is asked again: names change rarely. */
const NAME_STALE_MS = 10 * 60_000
/** While the server is still looking an address up, it is asked again this often… */
const PENDING_RETRY_MS = 3_000
/** …at most this many times (the server's refresher may be slow or its RPC down: the address shows meanwhile). */
const PENDING_RETRIES_MAX = 10

type Waiting = { resolve: (answer: NameAnswer) => void; reject: (error: unknown) => void }
let queued = new Map<Address, Waiting[]>()
let flushScheduled = false

/** Sends every address asked since the last flush, in requests of at most 100. */
async function flush() {
  flushScheduled = false
  const batch = queued
  queued = new Map()
  const addresses = [...batch.keys()]
  for (let i = 0; i < addresses.length; i += NAMES_PER_REQUEST_MAX) {
    const part = addresses.slice(i, i + NAMES_PER_REQUEST_MAX)
    try {
      const { names } = await apiGet(`/api/names?addresses=${part.join(',')}`, nameListSchema)
      const answers = new Map(names.map((answer) => [answer.address, answer]))
      for (const address of part) {
        const answer = answers.get(address) ?? { address, name: null, avatarUrl: null, pending: false }
        for (const waiting of batch.get(address) ?? []) waiting.resolve(answer)
      }
    } catch (error) {
      for (const address of part) for (const waiting of batch.get(address) ?? []) waiting.reject(error)
    }
  }
}

/** The name and avatar of one address, batched with every other address asked in the same tick. */
export function fetchName(address: Address): Promise<NameAnswer> {
  return new Promise((resolve, reject) => {
    queued.set(address, [...(queued.get(address) ?? []), { resolve, reject }])
    if (!flushScheduled) {
      flushScheduled = true
      setTimeout(() => void flush(), 0)
    }
  })
}

export const nameQueryKey = (address: Address) => ['api', 'names', address] as const

/**
 * The name and avatar of `address` (any case), or undefined while unknown or for something that is not an
 * address. Failures are quiet: a name is a courtesy, the shortened address stands in for it.
 */
export function useName(address: string | undefined): NameAnswer | undefined {
  const checksummed = address && isAddress(address, { strict: false }) ? getAddress(address) : undefined
  const { data } = useQuery({
    queryKey: nameQueryKey(checksummed ?? '0x'),
    queryFn: () => fetchName(checksummed as Address),
    enabled: checksummed !== undefined,
    staleTime: NAME_STALE_MS,
    refetchInterval: (query) =>
      query.state.data?.pending && query.state.dataUpdateCount <= PENDING_RETRIES_MAX
        ? PENDING_RETRY_MS
        : false,
  })
  return data
}

/** What a member is called: their name, else their shortened address. */
export function useDisplayName(address: string): string {
  return useName(address)?.name ?? shortenAddress(address)
}

/** The member's own avatar image, or the generated one when they have none or it does not load. */
export function MemberAvatar({ address, size = 32 }: { address: string; size?: number }) {
  return <AvatarImage address={address} url={useName(address)?.avatarUrl} size={size} />
}

/** `url` as an avatar, or the one generated from `address` when there is no URL or the image fails. */
export function AvatarImage({ address, url, size }: { address: string; url?: string | null; size: number }) {
  const [failed, setFailed] = useState<string | null>(null)
  if (!url || failed === url) return <GeneratedAvatar address={address} size={size} />
  return (
    <img
      className="avatar"
      src={url}
      width={size}
      height={size}
      alt=""
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setFailed(url)}
    />
  )
}

/**
 * A member as the app shows them anywhere: avatar and name (or shortened address), the full address on hover,
 * linking to their member page unless `link` is false.
 */
export function MemberName({
  address,
  link = true,
  avatarSize = 20,
}: {
  address: string
  link?: boolean
  avatarSize?: number
}) {
  const name = useDisplayName(address)
  const content = (
    <>
      <MemberAvatar address={address} size={avatarSize} />
      <span className="member-name-text">{name}</span>
    </>
  )
  return link ? (
    <Link to={`/members/${address}`} className="member-name" title={address} data-testid="member-name">
      {content}
    </Link>
  ) : (
    <span className="member-name" title={address} data-testid="member-name">
      {content}
    </span>
  )
}
