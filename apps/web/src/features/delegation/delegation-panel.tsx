import { type FormEvent, useState } from 'react'
import { zeroAddress } from 'viem'
import { Card } from '../../components/card.tsx'
import { FullAddress } from '../../components/full-address.tsx'
import './delegation.css'
import { useAddressOrName } from '../../lib/address-or-name.ts'
import { describeRequestError } from '../../lib/api.ts'
import { MemberName, useDisplayName } from '../../lib/names.tsx'
import { DelegationGateNotice, DelegationOutcome } from './delegation-gate.tsx'
import { onDelegationIntent, useDelegation } from './use-delegation.ts'

/**
 * Current delegate, "Delegate to myself" when undelegated, and delegation to any address or name: a name is
 * resolved by the server as it is typed, and its address shown before the wallet is asked.
 */
export function DelegationPanel() {
  const { gate, address, currentDelegate, progressText, busy, error, setError, delegate } = useDelegation()
  const [text, setText] = useState('')
  // The name to resolve: the typed one once typing pauses, or at once on submit.
  const { target, typedName, resolving, resolution, resolved, lookUpNow } = useAddressOrName(text)
  const addressName = useDisplayName(target.kind === 'address' ? target.address : '')

  if (gate === 'none') return null
  if (gate !== 'ready' || !address) {
    return (
      <Card title="Delegation" testId="delegation">
        <DelegationGateNotice
          gate={gate === 'ready' ? 'connect' : gate}
          action="delegate your voting power"
        />
      </Card>
    )
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault()
    if (target.kind === 'empty') {
      setError('Enter an address (0x…) or a name, such as ben.eth.')
    } else if (target.kind === 'bad-address') {
      setError('Enter an address: 0x followed by 40 hexadecimal characters.')
    } else if (target.kind === 'address') {
      void delegate(target.address)
    } else if (resolved) {
      void delegate(resolved.address, resolved.name)
    } else {
      // Not looked up yet: look it up now; the member confirms the address shown before the wallet asks.
      setError(undefined)
      lookUpNow()
    }
  }

  const submitLabel =
    target.kind === 'address'
      ? target.address === address
        ? 'Delegate to myself'
        : `Delegate to ${addressName}`
      : resolved
        ? `Delegate to ${resolved.name}`
        : 'Delegate'

  return (
    <Card title="Delegation" testId="delegation">
      {currentDelegate === undefined ? (
        <p className="muted">Reading your delegate…</p>
      ) : currentDelegate === zeroAddress ? (
        <>
          <p data-testid="delegate-status">
            You have not delegated. Your tokens do not count as votes until you delegate them, to yourself or
            to someone you trust.
          </p>
          <button
            type="button"
            className="button primary"
            disabled={busy}
            {...onDelegationIntent}
            onClick={() => delegate(address)}
          >
            Delegate to myself
          </button>
        </>
      ) : (
        <p data-testid="delegate-status">
          {currentDelegate === address ? (
            'You vote with your own tokens.'
          ) : (
            <>
              You delegate your votes to <MemberName address={currentDelegate} />.
            </>
          )}
        </p>
      )}
      <form className="inline-form" onSubmit={onSubmit} noValidate>
        <label htmlFor="delegatee">Delegate to another address or name</label>
        <div className="row">
          <input
            id="delegatee"
            name="delegatee"
            placeholder="0x… or ben.eth"
            autoComplete="off"
            spellCheck={false}
            value={text}
            {...onDelegationIntent}
            onChange={(event) => {
              setText(event.target.value)
              setError(undefined)
            }}
          />
          <button type="submit" className="button" disabled={busy} {...onDelegationIntent}>
            {submitLabel}
          </button>
        </div>
        {resolving ? (
          resolved ? (
            <p className="resolved-name" data-testid="resolved-name">
              {resolved.name} → <FullAddress address={resolved.address} />
            </p>
          ) : resolution.isError ? (
            <p role="alert" className="error" data-testid="resolved-name">
              {describeRequestError(resolution.error)}
            </p>
          ) : (
            <p className="muted" data-testid="resolved-name">
              Looking up {typedName}…
            </p>
          )
        ) : null}
      </form>
      <DelegationOutcome progressText={progressText} error={error} testId="delegation-progress" />
    </Card>
  )
}
