// A name to the address its record names (GET /api/names/resolve): what "Delegate to ben.eth" sends to.
// Asked on the ENS RPC at once, one eth_call per name, and cached nowhere on the server: a transaction is
// sent to the answer, so it is as fresh as the chain; the route's rate limit bounds the calls. The client
// is the refresher's (`nameLookupClient`): viem's mainnet Universal Resolver, CCIP-Read off (ADR 029), so
// a resolver cannot make this server fetch a URL.
import { ENS_NAME_MAX_LENGTH, type ResolvedName } from '@guildhall/core'
import {
  BaseError,
  ContractFunctionRevertedError,
  getAddress,
  offchainLookupSignature,
  type PublicClient,
} from 'viem'
import { getEnsAddress, normalize } from 'viem/ens'
import { ApiError } from '../platform/http/errors.ts'

/** Seconds a client waits before asking again when the ENS RPC failed. */
const RPC_RETRY_AFTER_S = 5

/**
 * `input` (any case, as typed) normalised and resolved to a checksummed address. Refusals are sentences:
 * 400 for what is not a name, 404 for a name without an address, 503 when names are off (`client`
 * undefined: no ENS_RPC_URL) or the RPC failed.
 */
export async function resolveName(client: PublicClient | undefined, input: string): Promise<ResolvedName> {
  if (!client) {
    throw new ApiError(
      503,
      'names_off',
      'This server does not look up names. Enter the address (0x…) instead.',
    )
  }
  const name = normalized(input)
  let address: string | null
  try {
    address = await getEnsAddress(client, { name })
  } catch (error) {
    const revert =
      error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : undefined
    if (!(revert instanceof ContractFunctionRevertedError) || !revert.raw || revert.raw === '0x') {
      throw new ApiError(
        503,
        'name_service_unavailable',
        'The name service did not answer. Try again shortly, or enter the address (0x…).',
        RPC_RETRY_AFTER_S,
      )
    }
    // The chain answered with a refusal: asking again will not change it.
    if (revert.raw.startsWith(offchainLookupSignature)) {
      throw ApiError.notFound(
        `${name} is resolved off-chain, which this server does not follow. Enter the address (0x…) instead.`,
      )
    }
    address = null
  }
  if (address === null) throw ApiError.notFound(`No address is set for ${name}.`)
  return { name, address: getAddress(address) }
}

/** `input` as ENS normalises it (ENSIP-15), or a 400 a person understands. */
function normalized(input: string): string {
  const refused = ApiError.badRequest(
    `“${input}” is not a name ENS accepts. Check the spelling, or enter the address (0x…).`,
  )
  // A name has a label and a top-level domain (ben.eth); a bare "ben" is no one's.
  if (!input.includes('.')) throw refused
  let name: string
  try {
    name = normalize(input)
  } catch {
    throw refused
  }
  if (name.length > ENS_NAME_MAX_LENGTH) throw refused
  return name
}
