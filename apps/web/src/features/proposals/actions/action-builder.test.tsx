// The new proposal form's actions, through the real builder and editors: what the author types becomes the
// exact call viem encodes, each action reads decoded with core's guards beside it, the limits hold, and the
// batch goes to the simulation. A local HTTP server stands in for the API (names, name resolution, the
// simulation) and records what the form asks.
import { GOVERNANCE_LIMITS, type ProposalAction, publicConfigSchema, shortenAddress } from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/browser'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { useState } from 'react'
import { MemoryRouter } from 'react-router'
import { type Address, encodeFunctionData, erc20Abi, maxUint256, parseAbi } from 'viem'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { PublicConfigProvider } from '../../../lib/public-config-context.tsx'
import { type DroppingServer, startDroppingServer } from '../../../test/dropping-server.ts'
import { ActionBuilder } from './action-builder.tsx'
import type { ActionEntry } from './action-list.tsx'

const SAFE = '0x1111111111111111111111111111111111111111' as Address
const USDG = '0x2222222222222222222222222222222222222222' as Address
const GHD = '0x3333333333333333333333333333333333333333' as Address
const BEN = anvilAccounts[2]?.address as Address
const CLEO = anvilAccounts[3]?.address as Address
const TOKENS = [
  { address: GHD, symbol: 'GHD', decimals: 18 },
  { address: USDG, symbol: 'USDG', decimals: 6 },
]

const config = publicConfigSchema.parse({
  dao: { name: 'Guildhall DAO' },
  appUrl: 'http://127.0.0.1:3000',
  chains: [{ id: 31337, name: 'Local chain', rpcUrl: 'http://127.0.0.1:1' }],
  token: { address: GHD, chainId: 31337 },
  wallets: ['injected'],
})

let server: DroppingServer
let queryClient: QueryClient
/** What the simulation answers; the test sets it. */
let simulationAnswer: unknown

beforeEach(async () => {
  server = await startDroppingServer()
  queryClient = new QueryClient()
  simulationAnswer = { success: true, revert: null, gasUsed: '61234', balanceChanges: [] }
  server.answer(({ path }) => {
    const url = new URL(path, 'http://api')
    if (url.pathname === '/api/names') {
      const addresses = url.searchParams.get('addresses')?.split(',') ?? []
      const names = addresses.map((address) => ({
        address,
        name: address === BEN ? 'ben.eth' : null,
        avatarUrl: null,
        pending: false,
      }))
      return { status: 200, body: { names } }
    }
    if (url.pathname === '/api/names/resolve') {
      return url.searchParams.get('name') === 'ben.eth'
        ? { status: 200, body: { name: 'ben.eth', address: BEN } }
        : { status: 404, body: { error: 'not_found', message: 'No address is set for that name.' } }
    }
    if (url.pathname === '/api/treasury/simulate') return { status: 200, body: simulationAnswer }
    return { status: 404, body: { error: 'not_found', message: 'Not here.' } }
  })
})
afterEach(async () => {
  await server.close()
  queryClient.clear()
})

/** What the form would sign, as the builder last set it. */
const form = { actions: [] as ProposalAction[], flagged: false }

/** The builder as the new proposal form holds it. */
function Form({ initial }: { initial: ActionEntry[] }) {
  const [entries, setEntries] = useState<ActionEntry[]>(initial)
  const [changesSafeSettings, setChangesSafeSettings] = useState(false)
  form.actions = entries.map((entry) => entry.action)
  form.flagged = changesSafeSettings
  return (
    <form className="form">
      <ActionBuilder
        entries={entries}
        onChange={setEntries}
        changesSafeSettings={changesSafeSettings}
        onChangesSafeSettings={setChangesSafeSettings}
        safe={SAFE}
        tokens={TOKENS}
      />
    </form>
  )
}

function renderBuilder(initial: ActionEntry[] = []) {
  render(
    <QueryClientProvider client={queryClient}>
      <PublicConfigProvider config={config}>
        <MemoryRouter>
          <Form initial={initial} />
        </MemoryRouter>
      </PublicConfigProvider>
    </QueryClientProvider>,
  )
  return { actions: () => form.actions, flagged: () => form.flagged }
}

const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } })
const editor = (name: string) => screen.getByRole('group', { name })
const simulations = () => server.received.filter((request) => request.path === '/api/treasury/simulate')

describe('the action builder: each kind becomes the exact call, read back decoded', () => {
  test('behavior: a token transfer of 12.5 USDG (6 decimals) to Ben by name is transfer(Ben, 12500000) on USDG, and reads “Transfer 12.5 USDG to ben.eth”', async () => {
    const form = renderBuilder()
    fireEvent.click(screen.getByRole('button', { name: 'Add a token transfer' }))
    const fields = within(editor('Token transfer'))
    type(fields.getByLabelText('Token'), USDG)
    type(fields.getByLabelText('Recipient'), 'ben.eth')
    type(fields.getByLabelText('Amount in USDG'), '12.5')
    // The name is resolved by the server, and its address shown, before it is used.
    await waitFor(() => expect(screen.getByTestId('recipient-resolved').textContent).toBe(`ben.eth → ${BEN}`))
    fireEvent.click(fields.getByRole('button', { name: 'Add action' }))
    await waitFor(() => expect(form.actions()).toHaveLength(1))
    expect(form.actions()).toEqual([
      {
        target: USDG,
        value: '0',
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [BEN, 12_500_000n] }),
      },
    ])
    const item = screen.getByTestId('action')
    await waitFor(() =>
      expect(item.querySelector('.action-sentence')?.textContent).toBe('Transfer 12.5 USDG to ben.eth'),
    )
  })

  test('behavior: an ETH transfer of 0.5 ETH to an address is a call with value 500000000000000000 and no data, and reads “Send 0.5 ETH to …”', async () => {
    const form = renderBuilder()
    fireEvent.click(screen.getByRole('button', { name: 'Add an ETH transfer' }))
    const fields = within(editor('ETH transfer'))
    type(fields.getByLabelText('Recipient'), CLEO.toLowerCase())
    type(fields.getByLabelText('Amount in ETH'), '0.5')
    fireEvent.click(fields.getByRole('button', { name: 'Add action' }))
    await waitFor(() =>
      expect(form.actions()).toEqual([{ target: CLEO, value: '500000000000000000', data: '0x' }]),
    )
    expect(screen.getByTestId('action').querySelector('.action-sentence')?.textContent).toMatch(
      /^Send 0\.5 ETH to /,
    )
  })

  test('behavior: a contract call from a pasted JSON ABI lists only the functions that change state, encodes the picked one with its typed arguments, and reads decoded with the pasted ABI', async () => {
    const abi = [
      {
        type: 'function',
        name: 'greeting',
        stateMutability: 'view',
        inputs: [],
        outputs: [{ type: 'string' }],
      },
      {
        type: 'function',
        name: 'setGreeting',
        stateMutability: 'nonpayable',
        inputs: [
          { name: 'text', type: 'string' },
          { name: 'times', type: 'uint8' },
          { name: 'loud', type: 'bool' },
        ],
        outputs: [],
      },
      { type: 'event', name: 'Greeted', inputs: [] },
    ]
    const target = '0x4444444444444444444444444444444444444444'
    const form = renderBuilder()
    fireEvent.click(screen.getByRole('button', { name: 'Add a contract call' }))
    const fields = within(editor('Contract call'))
    type(fields.getByLabelText('Contract address'), target)
    type(fields.getByLabelText(/^ABI/), JSON.stringify({ abi }))
    const options = within(fields.getByLabelText('Function')).getAllByRole('option')
    expect(options.map((option) => option.textContent)).toEqual([
      'setGreeting(string text, uint8 times, bool loud)',
    ])
    type(fields.getByLabelText(/^text/), 'hello')
    type(fields.getByLabelText(/^times/), '3')
    type(fields.getByLabelText(/^loud/), 'true')
    fireEvent.click(fields.getByRole('button', { name: 'Add action' }))
    await waitFor(() => expect(form.actions()).toHaveLength(1))
    expect(form.actions()[0]).toEqual({
      target,
      value: '0',
      data: encodeFunctionData({
        abi: parseAbi(['function setGreeting(string text, uint8 times, bool loud)']),
        functionName: 'setGreeting',
        args: ['hello', 3, true],
      }),
    })
    expect(screen.getByTestId('action').querySelector('.action-sentence')?.textContent).toBe(
      `Call setGreeting(hello, 3, true) on ${target}`,
    )
  })

  test('error: a human-readable ABI with a payable function takes ETH with the call; an argument that does not fit its type is named, and nothing is added', async () => {
    const form = renderBuilder()
    fireEvent.click(screen.getByRole('button', { name: 'Add a contract call' }))
    const fields = within(editor('Contract call'))
    type(fields.getByLabelText('Contract address'), '0x4444444444444444444444444444444444444444')
    type(fields.getByLabelText(/^ABI/), 'function deposit(uint256 amount) payable')
    type(fields.getByLabelText(/^amount/), 'ten')
    type(fields.getByLabelText('ETH sent with the call'), '1')
    fireEvent.click(fields.getByRole('button', { name: 'Add action' }))
    expect(fields.getByRole('alert').textContent).toBe('amount: "ten" is not a whole number')
    expect(form.actions()).toEqual([])
    type(fields.getByLabelText(/^amount/), '10')
    fireEvent.click(fields.getByRole('button', { name: 'Add action' }))
    await waitFor(() => expect(form.actions()).toHaveLength(1))
    expect(form.actions()[0]?.value).toBe('1000000000000000000')
  })

  test('error: an ABI that cannot be read says so in viem’s words; one without a state-changing function says that', () => {
    renderBuilder()
    fireEvent.click(screen.getByRole('button', { name: 'Add a contract call' }))
    const fields = within(editor('Contract call'))
    type(fields.getByLabelText(/^ABI/), 'function (')
    expect(fields.getByRole('alert').textContent).toMatch(/^The ABI could not be read: /)
    type(fields.getByLabelText(/^ABI/), 'function balanceOf(address) view returns (uint256)')
    expect(fields.getByRole('alert').textContent).toBe('The ABI has no function that changes state.')
  })

  test('error: a recipient that is neither an address nor a name is refused, as an amount with more decimals than the token has', async () => {
    const form = renderBuilder()
    fireEvent.click(screen.getByRole('button', { name: 'Add a token transfer' }))
    const fields = within(editor('Token transfer'))
    type(fields.getByLabelText('Token'), USDG)
    type(fields.getByLabelText('Recipient'), '0x1234')
    type(fields.getByLabelText('Amount in USDG'), '1')
    fireEvent.click(fields.getByRole('button', { name: 'Add action' }))
    expect(fields.getByRole('alert').textContent).toBe(
      'Enter an address: 0x followed by 40 hexadecimal characters.',
    )
    type(fields.getByLabelText('Recipient'), BEN)
    type(fields.getByLabelText('Amount in USDG'), '0.0000001')
    fireEvent.click(fields.getByRole('button', { name: 'Add action' }))
    expect(fields.getByRole('alert').textContent).toBe('At most 6 decimal places.')
    expect(form.actions()).toEqual([])
  })
})

describe('the action builder: warnings, the Safe’s settings, limits, the simulation', () => {
  test('behavior: an unlimited approval is warned about plainly (core’s words), and still allowed', async () => {
    const approve = {
      target: USDG,
      value: '0',
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [BEN, maxUint256] }),
    }
    renderBuilder([{ action: approve }])
    const item = screen.getByTestId('action')
    await waitFor(() =>
      expect(item.querySelector('.action-sentence')?.textContent).toBe(
        'Approve ben.eth to spend an unlimited amount of USDG',
      ),
    )
    expect(item.querySelector('.warning')?.textContent).toBe(
      `Action 1 approves ${BEN} to spend an unlimited amount of the token at ${USDG}, now and later.`,
    )
  })

  test('behavior: a call to the Safe itself is refused until “This proposal changes the Safe’s settings” is ticked, which shows the plain warning; it is then simulated with the flag', async () => {
    const changeThreshold = {
      target: SAFE,
      value: '0',
      data: encodeFunctionData({
        abi: parseAbi(['function changeThreshold(uint256 threshold)']),
        functionName: 'changeThreshold',
        args: [1n],
      }),
    }
    const form = renderBuilder([{ action: changeThreshold }])
    const item = screen.getByTestId('action')
    expect(item.querySelector('.action-sentence')?.textContent).toBe(
      'Change the Safe’s settings: changeThreshold(1)',
    )
    expect(within(item).getByRole('alert').textContent).toBe(
      "Action 1 calls the treasury Safe itself, which changes its settings; only a proposal marked as changing the Safe's settings may do that.",
    )
    // A batch the API would refuse is not simulated.
    expect(screen.queryByTestId('simulation')).toBeNull()
    fireEvent.click(screen.getByLabelText('This proposal changes the Safe’s settings'))
    expect(form.flagged()).toBe(true)
    expect(screen.getByTestId('safe-settings-warning').textContent).toMatch(/can replace its owners/)
    expect(within(screen.getByTestId('action')).queryByRole('alert')).toBeNull()
    await waitFor(() => expect(simulations()).toHaveLength(1))
    expect(JSON.parse(simulations()[0]?.body ?? '')).toEqual({
      actions: [changeThreshold],
      changesSafeSettings: true,
    })
  })

  test('behavior: the limits are stated; at 16 actions no more can be added; data over 4,096 bytes is refused by the editor', async () => {
    const payment = { action: { target: BEN, value: '1', data: '0x' as const } }
    renderBuilder(Array.from({ length: GOVERNANCE_LIMITS.actionsMax - 1 }, () => payment))
    expect(screen.getByTestId('actions-limits').textContent).toContain(
      'up to 16 actions, each call’s data up to 4,096 bytes',
    )
    fireEvent.click(screen.getByRole('button', { name: 'Add a contract call' }))
    const fields = within(editor('Contract call'))
    type(fields.getByLabelText('Contract address'), '0x4444444444444444444444444444444444444444')
    type(fields.getByLabelText(/^ABI/), 'function store(bytes blob)')
    type(fields.getByLabelText(/^blob/), `0x${'ab'.repeat(4_096)}`)
    fireEvent.click(fields.getByRole('button', { name: 'Add action' }))
    expect(fields.getByRole('alert').textContent).toBe('The data must be at most 4096 bytes')
    type(fields.getByLabelText(/^blob/), '0xab')
    fireEvent.click(fields.getByRole('button', { name: 'Add action' }))
    await waitFor(() => expect(screen.getAllByTestId('action')).toHaveLength(16))
    expect(screen.queryByRole('button', { name: 'Add a token transfer' })).toBeNull()
    expect(screen.getByText('A proposal carries at most 16 actions.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Remove action 16' }))
    expect(screen.getByRole('button', { name: 'Add a token transfer' })).toBeTruthy()
  })

  test('behavior: the batch is simulated as it changes: success with its gas and balance changes, or the revert in words', async () => {
    simulationAnswer = {
      success: true,
      revert: null,
      gasUsed: '61234',
      balanceChanges: [
        { token: USDG, account: SAFE, delta: '-12500000' },
        { token: USDG, account: BEN, delta: '12500000' },
      ],
    }
    const transfer = {
      target: USDG,
      value: '0',
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [BEN, 12_500_000n] }),
    }
    renderBuilder([{ action: transfer }])
    await waitFor(() =>
      expect(screen.getByTestId('simulation').querySelector('[role="status"]')?.textContent).toBe(
        'Simulated against the Safe as it stands: the batch succeeds (gas 61,234).',
      ),
    )
    const changes = () =>
      within(screen.getByRole('list', { name: 'Balance changes' })).getAllByRole('listitem')
    await waitFor(() =>
      expect(changes().map((change) => change.textContent)).toEqual([
        `${shortenAddress(SAFE)}: −12.5 USDG`,
        'ben.eth: +12.5 USDG',
      ]),
    )
    expect(JSON.parse(simulations()[0]?.body ?? '')).toEqual({
      actions: [transfer],
      changesSafeSettings: false,
    })

    simulationAnswer = {
      success: false,
      revert: 'ERC20: transfer amount exceeds balance',
      gasUsed: '0',
      balanceChanges: [],
    }
    fireEvent.click(screen.getByRole('button', { name: 'Add an ETH transfer' }))
    const fields = within(editor('ETH transfer'))
    type(fields.getByLabelText('Recipient'), BEN)
    type(fields.getByLabelText('Amount in ETH'), '1')
    fireEvent.click(fields.getByRole('button', { name: 'Add action' }))
    await waitFor(() =>
      expect(within(screen.getByTestId('simulation')).getByRole('alert').textContent).toBe(
        'Simulated against the Safe as it stands: the batch fails: ERC20: transfer amount exceeds balance. It could not be executed today.',
      ),
    )
  })
})
