// A proposal's actions as a person reads them, wherever they appear (the form, the proposal's page): each
// decoded by core's decodeAction (an ETH or token payment, an approval, a change of the Safe's settings,
// another call), its exact target, value and data one click away, and the guards' warnings beside it.
import {
  type ActionArgument,
  type ActionFinding,
  type DecodedAction,
  decodeAction,
  formatTokenAmount,
  type KnownToken,
  type ProposalAction,
  UNLIMITED_APPROVAL_FLOOR,
} from '@guildhall/core'
import type { ReactNode } from 'react'
import type { Abi, Address } from 'viem'
import { FullAddress } from '../../../components/full-address.tsx'
import { MemberName } from '../../../lib/names.tsx'

/** An action, and the ABI its author pasted (the form only: a signed proposal carries no ABI). */
export type ActionEntry = { action: ProposalAction; abi?: Abi }

const eth = (wei: string) => `${formatTokenAmount(BigInt(wei), 18, 18)} ETH`

/** A token amount exactly, in the token's units where the treasury lists it, else in base units. */
function tokenAmount(decoded: DecodedAction): string {
  const amount = BigInt(decoded.amount ?? '0')
  if (!decoded.token) return `${amount.toLocaleString('en-US')} base units of the token at ${decoded.target}`
  return `${formatTokenAmount(amount, decoded.token.decimals, decoded.token.decimals)} ${decoded.token.symbol}`
}

const argumentText = (argument: ActionArgument): string =>
  typeof argument === 'string' ? argument : JSON.stringify(argument)

/** The called function with its arguments, or its selector where no ABI knows it. */
function callText(decoded: DecodedAction): string {
  if (decoded.functionName)
    return `${decoded.functionName}(${(decoded.args ?? []).map(argumentText).join(', ')})`
  return decoded.selector ? `the function ${decoded.selector} (no ABI known)` : 'no function'
}

/** One sentence for the action. */
function ActionSentence({ decoded }: { decoded: DecodedAction }): ReactNode {
  const who = decoded.counterparty ? <MemberName address={decoded.counterparty} /> : null
  const withValue = BigInt(decoded.value) > 0n ? `, sending ${eth(decoded.value)}` : ''
  switch (decoded.kind) {
    case 'eth-transfer':
      return (
        <>
          Send {eth(decoded.value)} to {who}
        </>
      )
    case 'erc20-transfer':
      return (
        <>
          Transfer {tokenAmount(decoded)} to {who}
          {withValue}
        </>
      )
    case 'erc20-approve':
      return (
        <>
          Approve {who} to spend{' '}
          {BigInt(decoded.amount ?? '0') >= UNLIMITED_APPROVAL_FLOOR
            ? `an unlimited amount of ${decoded.token?.symbol ?? `the token at ${decoded.target}`}`
            : tokenAmount(decoded)}
          {withValue}
        </>
      )
    case 'safe-settings':
      return (
        <>
          Change the Safe’s settings: {callText(decoded)}
          {withValue}
        </>
      )
    default:
      return (
        <>
          Call {callText(decoded)} on <FullAddress address={decoded.target} />
          {withValue}
        </>
      )
  }
}

/**
 * The actions in order, each decoded, with the findings (warnings or problems) that name it; `onRemove`
 * adds a Remove button to each (the form).
 */
export function ActionList({
  entries,
  knownTokens,
  safe,
  findings = [],
  onRemove,
}: {
  entries: readonly ActionEntry[]
  knownTokens: readonly KnownToken[]
  safe: Address | null
  findings?: readonly (ActionFinding & { severity: 'warning' | 'problem' })[]
  onRemove?: (index: number) => void
}) {
  return (
    <ol className="action-list" data-testid="action-list">
      {entries.map(({ action, abi }, index) => {
        const decoded = decodeAction(action, { knownTokens, abi, safe })
        return (
          // Actions have no identity but their place: the list is only ever appended to or cut.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <li key={index} className={`action action-${decoded.kind}`} data-testid="action">
            <p className="action-sentence">
              <ActionSentence decoded={decoded} />
            </p>
            {findings
              .filter((finding) => finding.index === index)
              .map((finding) => (
                <p
                  key={finding.message}
                  className={finding.severity === 'problem' ? 'error' : 'warning'}
                  role={finding.severity === 'problem' ? 'alert' : undefined}
                >
                  {finding.message}
                </p>
              ))}
            <details>
              <summary>Exact call</summary>
              <dl className="action-raw">
                <dt>Target</dt>
                <dd>
                  <FullAddress address={action.target} />
                </dd>
                <dt>Value (wei)</dt>
                <dd>{action.value}</dd>
                <dt>Data</dt>
                <dd>
                  <code className="action-data">{action.data}</code>
                </dd>
              </dl>
            </details>
            {onRemove ? (
              <button type="button" className="button" onClick={() => onRemove(index)}>
                Remove action {index + 1}
              </button>
            ) : null}
          </li>
        )
      })}
    </ol>
  )
}
