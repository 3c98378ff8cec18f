// The three ways to add an action to a proposal: a token transfer, an ETH transfer, a contract call from a
// pasted ABI. Each editor checks its fields and hands one encoded action (target, value, data) to the form.
import type { KnownToken, ProposalAction } from '@guildhall/core'
import { type ReactNode, useState } from 'react'
import {
  type Abi,
  type AbiFunction,
  type Address,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  isAddress,
  parseUnits,
} from 'viem'
import { FullAddress } from '../../../components/full-address.tsx'
import { useAddressOrName } from '../../../lib/address-or-name.ts'
import { describeRequestError } from '../../../lib/api.ts'
import { argumentHint, encodeCall, functionSignature, readAbi } from './abi-call.ts'

/**
 * `onAdd` takes the encoded action, and the ABI that decodes it where the author pasted one; it answers why
 * the action cannot be added (a limit), or nothing once it is.
 */
type EditorProps = {
  onAdd: (action: ProposalAction, extra?: { abi?: Abi }) => string | undefined
  onCancel: () => void
}

/** An amount typed in whole units ("1.5") as base units, or why it is not one. */
function readAmount(text: string, decimals: number): { amount: bigint } | { error: string } {
  const value = text.trim()
  if (!/^\d+(\.\d+)?$/.test(value)) return { error: 'Enter an amount, such as 12.5.' }
  const fraction = value.split('.')[1] ?? ''
  if (fraction.length > decimals) return { error: `At most ${decimals} decimal places.` }
  const amount = parseUnits(value, decimals)
  if (amount === 0n) return { error: 'Enter an amount above zero.' }
  return { amount }
}

/**
 * A recipient field: an address, or a name the server resolves as it is typed, shown as "ben.eth → 0x…".
 * `read` gives the address to use, or undefined after saying why (or asking for the name now).
 */
function useRecipient() {
  const [text, setText] = useState('')
  const recipient = useAddressOrName(text)
  const read = (fail: (problem: string) => void): Address | undefined => {
    const { target, resolved, lookUpNow } = recipient
    if (target.kind === 'empty') fail('Enter the recipient: an address (0x…) or a name, such as ben.eth.')
    else if (target.kind === 'bad-address')
      fail('Enter an address: 0x followed by 40 hexadecimal characters.')
    else if (target.kind === 'address') return target.address
    else if (resolved) return resolved.address
    else lookUpNow()
    return undefined
  }
  const field = (
    <>
      <label>
        Recipient
        <input
          name="recipient"
          placeholder="0x… or ben.eth"
          autoComplete="off"
          spellCheck={false}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      </label>
      {recipient.resolving ? (
        recipient.resolved ? (
          <p className="resolved-name" data-testid="recipient-resolved">
            {recipient.resolved.name} → <FullAddress address={recipient.resolved.address} />
          </p>
        ) : recipient.resolution.isError ? (
          <p role="alert" className="error" data-testid="recipient-resolved">
            {describeRequestError(recipient.resolution.error)}
          </p>
        ) : (
          <p className="muted" data-testid="recipient-resolved">
            Looking up {recipient.typedName}…
          </p>
        )
      ) : null}
    </>
  )
  return { field, read }
}

/** The editor's frame: its fields, "Add action", "Cancel", and the problem found on adding. */
function EditorFrame({
  title,
  children,
  problem,
  onSubmit,
  onCancel,
}: {
  title: string
  children: ReactNode
  problem: string | undefined
  onSubmit: () => void
  onCancel: () => void
}) {
  // A form of its own would nest inside the proposal's form: the editor is a group, submitted by its button.
  return (
    <fieldset className="action-editor" aria-label={title}>
      <legend>{title}</legend>
      {children}
      {problem ? (
        <p role="alert" className="error">
          {problem}
        </p>
      ) : null}
      <div className="row">
        <button type="button" className="button" onClick={onSubmit}>
          Add action
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </fieldset>
  )
}

/** transfer(recipient, amount) on one of the treasury's tokens, the amount in the token's units. */
export function TokenTransferEditor({
  tokens,
  onAdd,
  onCancel,
}: EditorProps & { tokens: readonly KnownToken[] }) {
  const [tokenAddress, setTokenAddress] = useState(tokens[0]?.address ?? '')
  const [amountText, setAmountText] = useState('')
  const [problem, setProblem] = useState<string>()
  const recipient = useRecipient()
  const token = tokens.find((candidate) => candidate.address === tokenAddress)

  function submit() {
    setProblem(undefined)
    if (!token) return setProblem('Pick a token.')
    const to = recipient.read(setProblem)
    if (!to) return
    const amount = readAmount(amountText, token.decimals)
    if ('error' in amount) return setProblem(amount.error)
    const refused = onAdd({
      target: token.address,
      value: '0',
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount.amount] }),
    })
    if (refused) setProblem(refused)
  }

  if (tokens.length === 0) {
    return (
      <EditorFrame title="Token transfer" problem={undefined} onSubmit={submit} onCancel={onCancel}>
        <p className="muted">The treasury lists no tokens.</p>
      </EditorFrame>
    )
  }
  return (
    <EditorFrame title="Token transfer" problem={problem} onSubmit={submit} onCancel={onCancel}>
      <label>
        Token
        <select name="token" value={tokenAddress} onChange={(event) => setTokenAddress(event.target.value)}>
          {tokens.map((option) => (
            <option key={option.address} value={option.address}>
              {option.symbol}
            </option>
          ))}
        </select>
      </label>
      {recipient.field}
      <label>
        Amount{token ? ` in ${token.symbol}` : ''}
        <input
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          value={amountText}
          onChange={(event) => setAmountText(event.target.value)}
        />
      </label>
    </EditorFrame>
  )
}

/** ETH sent to an address (a call with a value and no data). */
export function EthTransferEditor({ onAdd, onCancel }: EditorProps) {
  const [amountText, setAmountText] = useState('')
  const [problem, setProblem] = useState<string>()
  const recipient = useRecipient()

  function submit() {
    setProblem(undefined)
    const to = recipient.read(setProblem)
    if (!to) return
    const amount = readAmount(amountText, 18)
    if ('error' in amount) return setProblem(amount.error)
    const refused = onAdd({ target: to, value: amount.amount.toString(), data: '0x' })
    if (refused) setProblem(refused)
  }

  return (
    <EditorFrame title="ETH transfer" problem={problem} onSubmit={submit} onCancel={onCancel}>
      {recipient.field}
      <label>
        Amount in ETH
        <input
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          value={amountText}
          onChange={(event) => setAmountText(event.target.value)}
        />
      </label>
    </EditorFrame>
  )
}

/** Any contract's function, from its ABI pasted here: pick the function, fill its arguments. */
export function ContractCallEditor({ onAdd, onCancel }: EditorProps) {
  const [targetText, setTargetText] = useState('')
  const [abiText, setAbiText] = useState('')
  const [picked, setPicked] = useState(0)
  const [argumentTexts, setArgumentTexts] = useState<string[]>([])
  const [valueText, setValueText] = useState('')
  const [problem, setProblem] = useState<string>()
  const abi = abiText.trim() === '' ? undefined : readAbi(abiText)
  const functions = abi && 'functions' in abi ? abi.functions : []
  const fn: AbiFunction | undefined = functions[picked]

  function submit() {
    setProblem(undefined)
    const target = targetText.trim()
    if (!isAddress(target, { strict: false })) {
      return setProblem('Enter the contract’s address: 0x followed by 40 hexadecimal characters.')
    }
    if (!abi) return setProblem('Paste the contract’s ABI.')
    if ('error' in abi) return setProblem(abi.error)
    if (!fn) return setProblem('Pick a function.')
    const call = encodeCall(fn, argumentTexts)
    if ('error' in call) return setProblem(call.error)
    let value = 0n
    if (fn.stateMutability === 'payable' && valueText.trim() !== '') {
      const amount = readAmount(valueText, 18)
      if ('error' in amount) return setProblem(`Value: ${amount.error}`)
      value = amount.amount
    }
    const refused = onAdd(
      { target: getAddress(target), value: value.toString(), data: call.data },
      { abi: abi.functions },
    )
    if (refused) setProblem(refused)
  }

  return (
    <EditorFrame title="Contract call" problem={problem} onSubmit={submit} onCancel={onCancel}>
      <label>
        Contract address
        <input
          name="target"
          placeholder="0x…"
          autoComplete="off"
          spellCheck={false}
          value={targetText}
          onChange={(event) => setTargetText(event.target.value)}
        />
      </label>
      <label>
        ABI <span className="hint muted">(JSON, or one function per line, such as function pause())</span>
        <textarea
          name="abi"
          rows={4}
          spellCheck={false}
          value={abiText}
          onChange={(event) => {
            setAbiText(event.target.value)
            setPicked(0)
            setArgumentTexts([])
          }}
        />
      </label>
      {abi && 'error' in abi ? (
        <p role="alert" className="error">
          {abi.error}
        </p>
      ) : null}
      {functions.length > 0 ? (
        <label>
          Function
          <select
            name="function"
            value={picked}
            onChange={(event) => {
              setPicked(Number(event.target.value))
              setArgumentTexts([])
            }}
          >
            {functions.map((option, index) => (
              <option key={functionSignature(option)} value={index}>
                {functionSignature(option)}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {fn?.inputs.map((input, index) => (
        // An argument is its place in the function's inputs (names may be empty or repeat).
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <label key={`${functionSignature(fn)}-${index}`}>
          {input.name || `Argument ${index + 1}`}{' '}
          <span className="hint muted">
            ({input.type}: {argumentHint(input)})
          </span>
          <input
            name={`argument-${index}`}
            autoComplete="off"
            spellCheck={false}
            value={argumentTexts[index] ?? ''}
            onChange={(event) => {
              const next = [...argumentTexts]
              next[index] = event.target.value
              setArgumentTexts(next)
            }}
          />
        </label>
      ))}
      {fn?.stateMutability === 'payable' ? (
        <label>
          ETH sent with the call
          <input
            name="value"
            inputMode="decimal"
            autoComplete="off"
            placeholder="0"
            value={valueText}
            onChange={(event) => setValueText(event.target.value)}
          />
        </label>
      ) : null}
    </EditorFrame>
  )
}
