// The round table of a ranked-choice count, from the tally JSON the API publishes (counted here by core's
// own tally, as the server counts it), and why each elimination happened when a tie rule decided.
import { type TallyJson, tally, tallyToJson } from '@guildhall/core'
import { cleanup, render, screen, within } from '@testing-library/react'
import { afterEach, expect, test } from 'vitest'
import { RankedChart } from './ranked-chart.tsx'
import { RankedRounds } from './ranked-rounds.tsx'

afterEach(cleanup)

/** The published tally of a ranked-choice proposal with these choices and ballots (ranking, power). */
function rankedTally(choices: readonly string[], ballots: [number[], bigint][]): TallyJson {
  return tallyToJson(
    tally(
      { kind: 'ranked-choice', choiceCount: choices.length, quorum: 1n, abstainCountsToQuorum: true },
      ballots.map(([ranking, power]) => ({ choices: ranking, power })),
    ),
  )
}

const units = (value: bigint) => `${value} u`

function renderRounds(choices: string[], json: TallyJson, open = false) {
  render(
    <RankedRounds
      choices={choices}
      rounds={json.rounds ?? []}
      winners={json.leading}
      open={open}
      format={units}
    />,
  )
  const table = screen.getByTestId('rounds-table')
  const cells = (row: HTMLElement) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent)
  return {
    header: within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent),
    rows: screen.getAllByTestId('round-row').map(cells),
    continuing: cells(screen.getByTestId('round-continuing')),
    majority: cells(screen.getByTestId('round-majority')),
    eliminated: cells(screen.getByTestId('round-eliminated')),
    reasons: screen.queryAllByRole('listitem').map((item) => item.textContent),
  }
}

const CITIES = ['Lisbon', 'Porto', 'Braga', 'Faro']
/** Round 1: 1250 / 850 / 500 / 0 of 2600, Faro out; round 2: Braga out, its 500 to Porto; round 3: Porto 1350. */
const THREE_ROUNDS: [number[], bigint][] = [
  [[1, 2, 3, 4], 1250n],
  [[2, 1, 3, 4], 850n],
  [[3, 2, 1, 4], 500n],
]

test('behavior: the round table from a TallyJson: a row per choice, a column per round, eliminated choices "out" (never 0), the continuing power, the majority it takes and who was eliminated after each round', () => {
  const json = rankedTally(CITIES, THREE_ROUNDS)
  expect(json.outcome).toBe('passed')
  const table = renderRounds(CITIES, json)
  expect(table.header).toEqual(['Choice', 'Round 1', 'Round 2', 'Round 3'])
  expect(table.rows).toEqual([
    ['Lisbon', '1250 u', '1250 u', '1250 u'],
    ['Porto', '850 u', '850 u', '1350 u · wins'],
    ['Braga', '500 u', '500 u · eliminated', 'out'],
    ['Faro', '0 u · eliminated', 'out', 'out'],
  ])
  expect(table.continuing).toEqual(['Continuing', '2600 u', '2600 u', '2600 u'])
  // More than half: more than 1300 units wins (1301 does, 1300 does not).
  expect(table.majority).toEqual(['To win: more than', '1300 u', '1300 u', '1300 u'])
  expect(table.eliminated).toEqual(['Eliminated', 'Faro', 'Braga', '—'])
  // Each elimination had one choice with the least power: no tie rule to explain.
  expect(table.reasons).toEqual([])
})

test('behavior: while voting is open the one ahead "leads"; an exact final tie marks every tied choice', () => {
  const open = renderRounds(CITIES, rankedTally(CITIES, THREE_ROUNDS), true)
  expect(open.rows[1]).toEqual(['Porto', '850 u', '850 u', '1350 u · leads'])
  cleanup()
  const json = rankedTally(
    ['Yes', 'No'],
    [
      [[1, 2], 5n],
      [[2, 1], 5n],
    ],
  )
  expect(json.outcome).toBe('tie')
  expect(renderRounds(['Yes', 'No'], json).rows).toEqual([
    ['Yes', '5 u · tied'],
    ['No', '5 u · tied'],
  ])
})

test('behavior: a bottom tie names the rule that decided it: the previous round, then the first preferences, then all together', () => {
  // Round 1: E (3) out, its ballot to D. Round 2: C and D tied at 7; D had 4 in round 1, C 7: D out.
  const previous = rankedTally(
    ['A', 'B', 'C', 'D', 'E'],
    [
      [[1, 2, 3, 4, 5], 10n],
      [[2, 1, 3, 4, 5], 9n],
      [[3, 2, 1, 4, 5], 7n],
      [[4, 1, 2, 3, 5], 4n],
      [[5, 4, 2, 1, 3], 3n],
    ],
  )
  expect(renderRounds(['A', 'B', 'C', 'D', 'E'], previous).reasons).toEqual([
    'C and D tied at 7 u in round 2; D had less in round 1 (4 u), so D was eliminated.',
  ])
  cleanup()
  // Round 3: X and Y tied at 4, and in round 2 too (W's ballot reached Y there); X had 4 first preferences, Y 3.
  const choices = ['A', 'B', 'X', 'Y', 'V', 'W']
  const first = rankedTally(choices, [
    [[1, 2, 3, 4, 5, 6], 10n],
    [[2, 1, 3, 4, 5, 6], 9n],
    [[3, 1, 2, 4, 5, 6], 4n],
    [[4, 2, 1, 3, 5, 6], 3n],
    [[5, 1, 2, 3, 4, 6], 2n],
    [[6, 4, 2, 1, 3, 5], 1n],
  ])
  const table = renderRounds(choices, first)
  expect(table.eliminated).toEqual(['Eliminated', 'W', 'V', 'Y', 'X', '—'])
  expect(table.reasons).toEqual([
    'X and Y tied at 4 u in round 3 and no earlier round told them apart; Y had fewer first preferences (3 u), so Y was eliminated.',
  ])
  cleanup()
  // Round 1: D and E both without first preferences: nothing tells them apart.
  const together = rankedTally(
    ['A', 'B', 'C', 'D', 'E'],
    [
      [[1, 2, 3, 4, 5], 5n],
      [[2, 1, 3, 4, 5], 4n],
      [[3, 2, 1, 4, 5], 3n],
    ],
  )
  const tied = renderRounds(['A', 'B', 'C', 'D', 'E'], together)
  expect(tied.eliminated).toEqual(['Eliminated', 'D and E', 'C', '—'])
  expect(tied.reasons).toEqual(['D and E tied at 0 u in round 1, so they were eliminated together.'])
})

test('behavior: an elimination the rules do not give from the published figures is said so, with what to do', () => {
  const json = rankedTally(CITIES, THREE_ROUNDS)
  const [first, ...rest] = json.rounds ?? []
  // Published as if Braga (500) had gone out after round 1 instead of Faro (0).
  const altered = { ...json, rounds: [{ ...(first as NonNullable<typeof first>), eliminated: [3] }, ...rest] }
  expect(renderRounds(CITIES, altered).reasons).toEqual([
    'After round 1 Braga was eliminated, which the tie rules do not give from these figures: verify this result.',
  ])
})

test('behavior: the chart draws a bar per round and says in words where each eliminated choice’s power went; its parts follow the rounds', () => {
  const json = rankedTally(CITIES, THREE_ROUNDS)
  render(<RankedChart choices={CITIES} rounds={json.rounds ?? []} format={units} />)
  const image = screen.getByRole('img', {
    name: 'After round 1 Faro was eliminated: no power moved. After round 2 Braga was eliminated: its ballots moved 500 u to Porto.',
  })
  const rows = image.querySelectorAll('svg')
  expect(rows).toHaveLength(3)
  // Round 3: Lisbon's own, Porto's own, then Braga's 500 in Braga's colour inside Porto's outline.
  const last = [...(rows[2]?.querySelectorAll('rect.chart-bar') ?? [])]
  expect(last.map((rect) => rect.getAttribute('class'))).toEqual([
    'visx-bar chart-bar chart-choice-0',
    'visx-bar chart-bar chart-choice-1',
    'visx-bar chart-bar chart-choice-2',
  ])
  const widths = last.map((rect) => Number(rect.getAttribute('width')))
  // 1250 : 850 : 500 of 2600, across 600 drawing units.
  expect(widths.map((width) => Math.round(width))).toEqual([288, 196, 115])
  expect(rows[2]?.querySelectorAll('rect.stacked-group')).toHaveLength(2)
  expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(CITIES)
})
