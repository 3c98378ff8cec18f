// Resolves the queued addresses of the name table (names/profiles.ts) on Ethereum's ENS, in batches, on
// the leader only (leader.ts): each address's primary name (reverse record, forward-checked by the Universal
// Resolver: a reverse record naming a name whose address is someone else's gives no name) and that name's
// `avatar` text record. Lookups go through Multicall3, many to one eth_call. Nothing a record names is
// ever fetched (avatar-url.ts); CCIP-Read is off for the same reason (ADR 029).
import { ENS_NAME_MAX_LENGTH, HTTP_TIMEOUT_MS, rpcTransport } from '@guildhall/core'
import { and, asc, isNotNull, lte, not, sql } from 'drizzle-orm'
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  type PublicClient,
} from 'viem'
import { mainnet } from 'viem/chains'
import { getEnsName, getEnsText, normalize } from 'viem/ens'
import type { Db } from '../platform/db/client.ts'
import { memberStats, nameProfiles } from '../platform/db/schema.ts'
import { BackgroundLoop } from '../platform/jobs/background-loop.ts'
import { AVATAR_RECORD_MAX_LENGTH, type AvatarGateways, avatarUrl, gatewayServesImage } from './avatar-url.ts'

/** How long a name (and its avatar record) is trusted: the spec's 12 hours. */
export const NAME_TTL_MS = 12 * 60 * 60 * 1000
/**
 * How long "no name" is trusted: one hour, shorter than a name's. The usual way to meet it is a member who
 * has just set a primary name and comes to see it; they should not wait half a day. The cost stays small:
 * only addresses someone asks about are looked up again, about 40 to an RPC call.
 */
export const NO_NAME_TTL_MS = 60 * 60 * 1000

/**
 * Multicall3 batch size in calldata bytes (viem's `batch.multicall.batchSize`): one reverse lookup
 * (`reverseWithGateways` of an address) is 292 bytes, so 40 of them fill 11,680 bytes and the 41st starts
 * another eth_call. viem's default of 1,024 bytes fits 3. An avatar lookup (`resolveWithGateways` of
 * `text(node, "avatar")`) is 484 bytes for a name of up to 32 bytes, so 24 go to a call. Measured with
 * viem 2.57's encoding (name-refresher.test.ts checks the 40).
 */
const NAME_LOOKUP_BATCH_BYTES = 40 * 292

/** Only the listed members' addresses are looked up and kept (names/profiles.ts). */
const isMember = sql`exists (select 1 from ${memberStats} where ${memberStats.address} = ${nameProfiles.address} and ${memberStats.listed})`
/** How often the leader deletes what is left of non-members' rows. */
const PRUNE_INTERVAL_MS = 60 * 60 * 1000
/** Addresses taken from the queue per pass: ten eth_calls of reverse lookups. */
const QUEUE_BATCH = 400
/** How often the leader looks at the queue when nobody woke it. */
const DEFAULT_POLL_MS = 1_000
/** The longest wait between tries while the RPC fails. */
const MAX_BACKOFF_MS = 60_000
/** Gateway checks (HEAD) in flight at once. */
const GATEWAY_CHECKS_AT_ONCE = 16

/** The ENS client: viem's mainnet contracts (Universal Resolver, Multicall3), batched, no CCIP-Read. */
export function nameLookupClient(rpcUrl: string): PublicClient {
  return createPublicClient({
    chain: mainnet,
    transport: rpcTransport(rpcUrl, { timeout: HTTP_TIMEOUT_MS }),
    batch: { multicall: { batchSize: NAME_LOOKUP_BATCH_BYTES } },
    // CCIP-Read would have this server fetch URLs that a resolver contract (anyone's) names. Names that need
    // it resolve to none here (ADR 029).
    ccipRead: false,
  }) as PublicClient
}

export type NameRefresherOptions = {
  db: Db
  client: PublicClient
  gateways: AvatarGateways
  now: () => Date
  pollMs?: number
  logger?: { warn(details: object, message: string): void }
}

export type RefreshPass = {
  /** Addresses whose answer was stored (names and negatives). */
  resolved: number
  /** Addresses left queued because the RPC failed. */
  failed: number
}

type Profile = { name: string | null; avatarRecord: string | null; avatarUrl: string | null }

export class NameRefresher {
  readonly #options: NameRefresherOptions
  readonly #loop: BackgroundLoop
  /** When the loop last pruned non-members' rows; undefined: not yet (the first pass does). */
  #prunedAt: number | undefined

  constructor(options: NameRefresherOptions) {
    this.#options = options
    const pollMs = options.pollMs ?? DEFAULT_POLL_MS
    this.#loop = new BackgroundLoop({
      pass: () => this.#pass(),
      pollMs,
      backoffMs: (failures) => Math.min(MAX_BACKOFF_MS, pollMs * 2 ** (failures - 1)),
      onFailure: (error, retryInMs) =>
        error instanceof LookupsFailedError
          ? options.logger?.warn(
              { failed: error.failed, retryInMs },
              'name lookups failed: the ENS RPC did not answer; the stored names stay',
            )
          : options.logger?.warn({ err: error, retryInMs }, 'name refresh failed'),
    })
  }

  /** Resolves the queue in the background until `stop()` (the leader's job). */
  start(): void {
    this.#loop.start()
  }

  /** Ends the background loop after the pass in progress. */
  async stop(): Promise<void> {
    await this.#loop.stop()
  }

  /** Looks at the queue now rather than at the next poll (not while backing off from a failing RPC). */
  wake(): void {
    this.#loop.wake()
  }

  /** One pass: takes up to 400 queued addresses, oldest request first, and stores what ENS answers. */
  async refreshQueued(): Promise<RefreshPass> {
    const { db, client, gateways } = this.#options
    const queued = await db
      .select({ address: nameProfiles.address })
      .from(nameProfiles)
      .where(and(isNotNull(nameProfiles.requestedAt), isMember))
      .orderBy(asc(nameProfiles.requestedAt))
      .limit(QUEUE_BATCH)
    if (queued.length === 0) return { resolved: 0, failed: 0 }
    const profiles = await resolveProfiles(
      client,
      queued.map((row) => row.address as Address),
      gateways,
    )
    const now = this.#options.now()
    const answered = [...profiles].flatMap(([address, profile]) =>
      profile === undefined
        ? []
        : [
            {
              address,
              name: profile.name,
              avatarRecord: profile.avatarRecord,
              avatarUrl: profile.avatarUrl,
              resolvedAt: now,
              expiresAt: new Date(now.getTime() + (profile.name === null ? NO_NAME_TTL_MS : NAME_TTL_MS)),
              requestedAt: null,
            },
          ],
    )
    if (answered.length > 0) {
      await db
        .insert(nameProfiles)
        .values(answered)
        .onConflictDoUpdate({
          target: nameProfiles.address,
          set: {
            name: sql`excluded.name`,
            avatarRecord: sql`excluded.avatar_record`,
            avatarUrl: sql`excluded.avatar_url`,
            resolvedAt: sql`excluded.resolved_at`,
            expiresAt: sql`excluded.expires_at`,
            requestedAt: sql`null`,
          },
        })
    }
    return { resolved: answered.length, failed: queued.length - answered.length }
  }

  /**
   * Deletes the rows of addresses that are not members (listed in the members directory) once their answer
   * has expired: they are never queued again, so this is all that is left of them (rows queued before
   * only members were, of members who since hold nothing, or of an index reset). Returns how many were
   * deleted.
   */
  async pruneNonMembers(): Promise<number> {
    const deleted = await this.#options.db
      .delete(nameProfiles)
      .where(and(lte(nameProfiles.expiresAt, this.#options.now()), not(isMember)))
      .returning({ address: nameProfiles.address })
    return deleted.length
  }

  /** One pass of the loop: the queue, and now and then the pruning; throws when lookups failed. */
  async #pass(): Promise<'busy' | 'idle'> {
    const now = this.#options.now().getTime()
    if (this.#prunedAt === undefined || now - this.#prunedAt >= PRUNE_INTERVAL_MS) {
      await this.pruneNonMembers()
      this.#prunedAt = now
    }
    const pass = await this.refreshQueued()
    if (pass.failed > 0) throw new LookupsFailedError(pass.failed)
    return pass.resolved === QUEUE_BATCH ? 'busy' : 'idle'
  }
}

/** Some lookups of a pass got no answer from the RPC: they stay queued. */
class LookupsFailedError extends Error {
  override name = 'LookupsFailedError'
  constructor(readonly failed: number) {
    super(`${failed} name lookups failed`)
  }
}

/**
 * Each address's profile, or undefined when the RPC failed for it (it stays queued). Two rounds, each
 * batched by the client: every reverse name at once, then the avatar record of every name found; then each
 * record's gateway URL, kept when the gateway serves an image there.
 */
async function resolveProfiles(
  client: PublicClient,
  addresses: readonly Address[],
  gateways: AvatarGateways,
): Promise<Map<Address, Profile | undefined>> {
  const names = await Promise.allSettled(
    addresses.map((address) => answered(getEnsName(client, { address }))),
  )
  const result = new Map<Address, Profile | undefined>()
  const named: [Address, string][] = []
  addresses.forEach((address, i) => {
    const outcome = names[i]
    if (outcome?.status !== 'fulfilled') {
      result.set(address, undefined)
      return
    }
    const name = outcome.value !== null && acceptableName(outcome.value) ? outcome.value : null
    result.set(address, { name, avatarRecord: null, avatarUrl: null })
    if (name !== null) named.push([address, name])
  })
  const records = await Promise.allSettled(
    named.map(([, name]) => answered(getEnsText(client, { name, key: 'avatar' }))),
  )
  const withAvatar: [Address, string][] = []
  named.forEach(([address, name], i) => {
    const outcome = records[i]
    if (outcome?.status !== 'fulfilled') {
      result.set(address, undefined)
      return
    }
    const record =
      outcome.value !== null && outcome.value.length <= AVATAR_RECORD_MAX_LENGTH ? outcome.value : null
    const url = avatarUrl(record, gateways)
    result.set(address, { name, avatarRecord: record, avatarUrl: url })
    if (url !== null) withAvatar.push([address, url])
  })
  for (let i = 0; i < withAvatar.length; i += GATEWAY_CHECKS_AT_ONCE) {
    const chunk = withAvatar.slice(i, i + GATEWAY_CHECKS_AT_ONCE)
    const served = await Promise.all(chunk.map(([, url]) => gatewayServesImage(url)))
    chunk.forEach(([address], j) => {
      const profile = result.get(address)
      if (profile && !served[j]) result.set(address, { ...profile, avatarUrl: null })
    })
  }
  return result
}

/**
 * The lookup's answer, with any revert carrying data read as "none": the chain answered, and what it
 * refused (an error viem does not map to null, such as an OffchainLookup with CCIP-Read off) will not change
 * by asking again. A failure of the RPC itself (no answer, an HTTP error, a revert without data) still throws.
 */
async function answered<T>(lookup: Promise<T | null>): Promise<T | null> {
  try {
    return await lookup
  } catch (error) {
    const revert =
      error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : undefined
    if (revert instanceof ContractFunctionRevertedError && revert.raw !== undefined && revert.raw !== '0x')
      return null
    throw error
  }
}

/** A name as ENS normalizes it (ENSIP-15) and of a sensible length; anything else is shown as no name. */
function acceptableName(name: string): boolean {
  // Longer names are refused: ENS allows them, no member page should show one.
  if (name.length > ENS_NAME_MAX_LENGTH) return false
  try {
    return normalize(name) === name
  } catch {
    return false
  }
}
