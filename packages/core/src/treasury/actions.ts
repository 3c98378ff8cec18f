/**
 * A proposal's actions (ADR 048): the calls the DAO's Safe makes once the proposal passes, signed inside
 * the proposal. Each is a CALL (there is no operation field: a DELEGATECALL would run foreign code as the
 * Safe). Here: their shape, how they read to a person, and the guards the form warns with and the API
 * refuses with.
 */
import {
  type Abi,
  type Address,
  decodeFunctionData,
  type Hex,
  isAddressEqual,
  parseAbi,
  size,
  slice,
  zeroAddress,
} from 'viem'
import { GOVERNANCE_LIMITS } from '../governance/rules.ts'
import { checksummedAddressSchema, uint256StringSchema } from '../primitives.ts'
import { z } from '../zod.ts'

export const proposalActionSchema = z.strictObject({
  /**
   * The called contract or the paid account. Never the zero address: MultiSendCallOnly 1.5.0 reads it as
   * "the Safe itself", older releases as a burn, so one signed action would mean two things.
   */
  target: checksummedAddressSchema.check(
    z.refine((target) => target !== zeroAddress, 'The target must not be the zero address'),
  ),
  /** Native coin sent with the call, in wei. */
  value: uint256StringSchema('wei (1 ETH is 1000000000000000000)'),
  /** The calldata; `0x` for a plain payment. */
  data: z.pipe(
    z
      .string()
      .check(
        z.maxLength(
          2 + 2 * GOVERNANCE_LIMITS.actionDataMaxBytes,
          `The data must be at most ${GOVERNANCE_LIMITS.actionDataMaxBytes} bytes`,
        ),
        z.regex(/^0x(?:[0-9a-fA-F]{2})*$/, 'The data must be 0x followed by whole bytes of hex'),
      ),
    z.transform((data: string) => data as Hex),
  ),
})
export type ProposalAction = z.infer<typeof proposalActionSchema>

export const proposalActionsSchema = z
  .array(proposalActionSchema)
  .check(
    z.maxLength(
      GOVERNANCE_LIMITS.actionsMax,
      `A proposal carries at most ${GOVERNANCE_LIMITS.actionsMax} actions`,
    ),
  )

/** ERC-20's two calls that move or expose a token balance, decoded by their selectors. */
export const erc20ActionAbi = parseAbi([
  'function transfer(address to, uint256 amount) returns (bool)',
  'function approve(address spender, uint256 amount) returns (bool)',
])

/** The functions a Safe only lets itself call (OwnerManager, ModuleManager, GuardManager, FallbackManager). */
export const safeSettingsAbi = parseAbi([
  'function addOwnerWithThreshold(address owner, uint256 threshold)',
  'function removeOwner(address prevOwner, address owner, uint256 threshold)',
  'function swapOwner(address prevOwner, address oldOwner, address newOwner)',
  'function changeThreshold(uint256 threshold)',
  'function enableModule(address module)',
  'function disableModule(address prevModule, address module)',
  'function setGuard(address guard)',
  'function setModuleGuard(address moduleGuard)',
  'function setFallbackHandler(address handler)',
])

/**
 * An approval this large is as good as unlimited: the spender may take all of the token, now and later.
 * Wallets and front ends use 2^256 − 1 and also large powers of two, so the floor is 2^128.
 */
export const UNLIMITED_APPROVAL_FLOOR = 2n ** 128n

export type KnownToken = { address: Address; symbol: string; decimals: number }
type ActionKind = 'erc20-transfer' | 'erc20-approve' | 'eth-transfer' | 'safe-settings' | 'call'
/** A decoded call's arguments as JSON carries them: whole numbers as decimal strings. */
export type ActionArgument = string | boolean | ActionArgument[] | { [key: string]: ActionArgument }

/** An action as a person reads it. */
export type DecodedAction = {
  kind: ActionKind
  target: Address
  /** Wei sent with the call. */
  value: string
  /** The called function's 4-byte selector; null for a plain payment. */
  selector: Hex | null
  /** The called function and its arguments, where its ABI is known (ERC-20, the Safe's settings, a pasted ABI). */
  functionName: string | null
  args: ActionArgument[] | null
  /** ERC-20: the token when it is one the treasury lists. */
  token: KnownToken | null
  /** Who receives: the payee of an ETH or token transfer, the spender of an approval. */
  counterparty: Address | null
  /** How much: wei of an ETH transfer, base units of a token transfer or approval. */
  amount: string | null
}

function toJson(value: unknown): ActionArgument {
  if (typeof value === 'bigint' || typeof value === 'number') return value.toString()
  if (typeof value === 'string' || typeof value === 'boolean') return value
  if (Array.isArray(value)) return value.map(toJson)
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toJson(item)]))
  }
  return String(value)
}

function decodeWith(abi: Abi, data: Hex) {
  try {
    const decoded = decodeFunctionData({ abi, data })
    return { functionName: decoded.functionName, args: [...(decoded.args ?? [])] as unknown[] }
  } catch {
    return null
  }
}

/**
 * How an action reads: a plain ETH payment, an ERC-20 transfer or approval, a change of the Safe's own
 * settings (`safe`: the treasury), or another call, decoded when `abi` (a pasted ABI) knows its function.
 */
export function decodeAction(
  action: ProposalAction,
  {
    knownTokens = [],
    abi,
    safe,
  }: { knownTokens?: readonly KnownToken[]; abi?: Abi; safe?: Address | null } = {},
): DecodedAction {
  const base = {
    target: action.target,
    value: action.value,
    selector: size(action.data) >= 4 ? slice(action.data, 0, 4) : null,
    token: null,
    counterparty: null,
    amount: null,
  }
  if (safe && isAddressEqual(action.target, safe)) {
    const decoded = decodeWith(safeSettingsAbi, action.data) ?? (abi ? decodeWith(abi, action.data) : null)
    return {
      ...base,
      kind: 'safe-settings',
      functionName: decoded?.functionName ?? null,
      args: decoded ? decoded.args.map(toJson) : null,
    }
  }
  if (action.data === '0x') {
    return {
      ...base,
      kind: 'eth-transfer',
      functionName: null,
      args: null,
      counterparty: action.target,
      amount: action.value,
    }
  }
  const erc20 = decodeWith(erc20ActionAbi, action.data)
  if (erc20) {
    const [counterparty, amount] = erc20.args as [Address, bigint]
    return {
      ...base,
      kind: erc20.functionName === 'transfer' ? 'erc20-transfer' : 'erc20-approve',
      functionName: erc20.functionName,
      args: erc20.args.map(toJson),
      token: knownTokens.find((token) => isAddressEqual(token.address, action.target)) ?? null,
      counterparty,
      amount: amount.toString(),
    }
  }
  const decoded = abi ? decodeWith(abi, action.data) : null
  return {
    ...base,
    kind: 'call',
    functionName: decoded?.functionName ?? null,
    args: decoded ? decoded.args.map(toJson) : null,
  }
}

/** Where the actions are checked: the treasury Safe, and whether the author flagged settings changes. */
type ActionContext = { safe: Address; changesSafeSettings: boolean }
/** A guard's finding about one action (`index`, 0-based) or the whole list (`index` null). */
export type ActionFinding = { index: number | null; message: string }

const callsSafe = (action: ProposalAction, safe: Address) => isAddressEqual(action.target, safe)

/**
 * What the author and the voters are warned about, plainly: a change of the Safe's own settings (owners,
 * threshold, modules, guard, handler: who controls the treasury), and an unlimited ERC-20 approval.
 */
export function actionWarnings(
  actions: readonly ProposalAction[],
  { safe, changesSafeSettings }: ActionContext,
): ActionFinding[] {
  const warnings: ActionFinding[] = []
  actions.forEach((action, index) => {
    const decoded = decodeAction(action, { safe })
    if (decoded.kind === 'safe-settings' && changesSafeSettings) {
      warnings.push({
        index,
        message: `Action ${index + 1} changes the Safe's own settings${decoded.functionName ? ` (${decoded.functionName})` : ''}: who owns the treasury, how many must sign, or what else may move its funds.`,
      })
    }
    if (decoded.kind === 'erc20-approve' && BigInt(decoded.amount ?? 0) >= UNLIMITED_APPROVAL_FLOOR) {
      warnings.push({
        index,
        message: `Action ${index + 1} approves ${decoded.counterparty} to spend an unlimited amount of ${decoded.token?.symbol ?? `the token at ${action.target}`}, now and later.`,
      })
    }
  })
  return warnings
}

/**
 * Why these actions may not be signed into a proposal, or none: a call to the Safe itself in a proposal
 * not flagged as changing its settings (the flag is signed, so voters see it), or the flag with no such call.
 */
export function actionProblems(
  actions: readonly ProposalAction[],
  { safe, changesSafeSettings }: ActionContext,
): ActionFinding[] {
  const problems: ActionFinding[] = []
  if (!changesSafeSettings) {
    actions.forEach((action, index) => {
      if (callsSafe(action, safe)) {
        problems.push({
          index,
          message: `Action ${index + 1} calls the treasury Safe itself, which changes its settings; only a proposal marked as changing the Safe's settings may do that.`,
        })
      }
    })
  } else if (!actions.some((action) => callsSafe(action, safe))) {
    problems.push({
      index: null,
      message: `This proposal is marked as changing the Safe's settings, but none of its actions calls the treasury Safe ${safe}.`,
    })
  }
  return problems
}
