import {
  relativeTime,
  shortenAddress,
  TREASURY_HISTORY_DIRECTIONS,
  type TreasuryAsset,
  type TreasuryHistoryDirection,
  type TreasuryHistoryItem,
} from '@guildhall/core'
import { Link, useSearchParams } from 'react-router'
import { Card } from '../../components/card.tsx'
import { MorePages } from '../../components/more-pages.tsx'
import { describeRequestError } from '../../lib/api.ts'
import { MemberName } from '../../lib/names.tsx'
import { AddressText } from './address-text.tsx'
import { historyQuery, type TreasuryHistoryFilter, tokenParam } from './queries/keys.ts'
import { useTreasuryHistory } from './queries/treasury-history.ts'
import type { TreasuryAmount } from './token-amounts.ts'

const DIRECTION_LABELS: Record<TreasuryHistoryDirection, string> = {
  incoming: 'Incoming',
  outgoing: 'Outgoing',
  settings: 'Settings',
  executions: 'Executions',
}

const DAY_SECONDS = 86_400

/** A date field's day (the reader's time zone) as unix seconds at its start. */
const dayStart = (day: string) => Math.floor(new Date(`${day}T00:00:00`).getTime() / 1000)
/** …and that of its last second. */
const dayEnd = (day: string) => dayStart(day) + DAY_SECONDS - 1
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/

/** The filter as the page's URL keeps it (dates as the date fields write them). */
function filterFromParams(
  params: URLSearchParams,
): TreasuryHistoryFilter & { fromDay: string; toDay: string } {
  const direction = params.get('direction') ?? ''
  const fromDay = DAY_PATTERN.test(params.get('from') ?? '') ? (params.get('from') as string) : ''
  const toDay = DAY_PATTERN.test(params.get('to') ?? '') ? (params.get('to') as string) : ''
  return {
    direction: (TREASURY_HISTORY_DIRECTIONS as readonly string[]).includes(direction)
      ? (direction as TreasuryHistoryDirection)
      : undefined,
    token: params.get('token') || undefined,
    from: fromDay ? dayStart(fromDay) : undefined,
    to: toDay ? dayEnd(toDay) : undefined,
    fromDay,
    toDay,
  }
}

/**
 * The treasury's history, newest first, a page at a time: filtered by direction, token and dates (kept in
 * the page's URL with the page size, as the directory keeps its own), each row linking the proposal it
 * carried out, and the same rows as a CSV file.
 */
export function TreasuryHistory({ assets, amount }: { assets: TreasuryAsset[]; amount: TreasuryAmount }) {
  const [params, setParams] = useSearchParams()
  const { fromDay, toDay, ...filter } = filterFromParams(params)
  const history = useTreasuryHistory({ ...filter, limit: Number(params.get('limit')) || undefined })
  const rows = history.data?.pages.flatMap((page) => page.items) ?? []
  const set = (key: string, value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current)
        if (value) next.set(key, value)
        else next.delete(key)
        return next
      },
      { replace: true },
    )
  const csv = historyQuery(filter).toString()
  return (
    <Card title="History" testId="treasury-history">
      <div className="form treasury-filters">
        <label>
          <span>Show</span>
          <select value={filter.direction ?? ''} onChange={(event) => set('direction', event.target.value)}>
            <option value="">Everything</option>
            {TREASURY_HISTORY_DIRECTIONS.map((direction) => (
              <option key={direction} value={direction}>
                {DIRECTION_LABELS[direction]}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Token</span>
          <select value={filter.token ?? ''} onChange={(event) => set('token', event.target.value)}>
            <option value="">Any token</option>
            {assets.map((asset) => (
              <option key={asset.token ?? 'native'} value={tokenParam(asset.token)}>
                {asset.symbol}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>From</span>
          <input
            type="date"
            value={fromDay}
            max={toDay || undefined}
            onChange={(e) => set('from', e.target.value)}
          />
        </label>
        <label>
          <span>To</span>
          <input
            type="date"
            value={toDay}
            min={fromDay || undefined}
            onChange={(e) => set('to', e.target.value)}
          />
        </label>
      </div>
      <p>
        <a href={`/api/treasury/history.csv${csv ? `?${csv}` : ''}`} download data-testid="treasury-csv">
          Download these rows as CSV
        </a>
      </p>
      {history.error && rows.length === 0 ? (
        <p role="alert">The history could not be loaded. {describeRequestError(history.error)}</p>
      ) : history.isPending ? (
        <p className="muted">Loading the history…</p>
      ) : rows.length === 0 ? (
        <p className="muted">Nothing matches.</p>
      ) : (
        <ol
          className="treasury-history"
          aria-busy={history.isPlaceholderData}
          data-testid="treasury-history-list"
        >
          {rows.map((item) => (
            <HistoryRow key={item.id} item={item} amount={amount} />
          ))}
        </ol>
      )}
      <MorePages list={history} what="history" />
    </Card>
  )
}

/** What a row is, in a word or two. */
const KIND_LABELS: Record<TreasuryHistoryItem['kind'], string> = {
  incoming: 'Received',
  outgoing: 'Sent',
  settings: 'Settings changed',
  execution: 'Executed',
  'execution-failed': 'Execution failed',
  unexplained: 'Unexplained',
}

function HistoryRow({ item, amount }: { item: TreasuryHistoryItem; amount: TreasuryAmount }) {
  const now = Math.floor(Date.now() / 1000)
  const moved = item.amount === null ? null : amount(item.token, item.amount)
  return (
    <li
      className={`treasury-row treasury-row-${item.kind}`}
      data-testid="treasury-row"
      data-kind={item.kind}
      data-id={item.id}
    >
      <span className="treasury-row-what">
        <span className="treasury-row-kind">{KIND_LABELS[item.kind]}</span>
        {item.kind === 'unexplained' ? (
          <span>{moved ?? 'The balance'} moved in ways this page cannot see.</span>
        ) : (
          <>
            {moved ? <span className="treasury-row-amount">{moved}</span> : null}
            {item.counterparty ? (
              <span>
                {item.kind === 'incoming' ? 'from ' : 'to '}
                <MemberName address={item.counterparty} avatarSize={16} />
              </span>
            ) : null}
            {item.detail && !moved ? (
              <span className="treasury-row-detail">
                <AddressText text={item.detail} />
              </span>
            ) : null}
          </>
        )}
      </span>
      <span className="treasury-row-context muted">
        {item.proposal ? (
          <Link to={`/proposals/${item.proposal.id}`} data-testid="treasury-row-proposal">
            {item.proposal.title}
          </Link>
        ) : item.outsideGuildhall ? (
          <span data-testid="treasury-row-outside">executed outside Guildhall</span>
        ) : null}
        {item.safeNonce !== null ? <span>nonce {item.safeNonce}</span> : null}
        <time dateTime={new Date(item.timestamp * 1000).toISOString()} title={`block ${item.blockNumber}`}>
          {relativeTime(item.timestamp, now)}
        </time>
        {item.transactionHash ? (
          <span className="treasury-row-tx" title={item.transactionHash}>
            {shortenAddress(item.transactionHash)}
          </span>
        ) : null}
      </span>
    </li>
  )
}
