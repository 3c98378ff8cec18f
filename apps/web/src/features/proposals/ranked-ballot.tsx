import { type PointerEvent, useEffect, useRef, useState } from 'react'

/** Moves `ranking[from]` to position `to` (0-based), the others keeping their order. */
export function moveRank(ranking: readonly number[], from: number, to: number): number[] {
  const next = [...ranking]
  const [moved] = next.splice(from, 1)
  if (moved !== undefined) next.splice(to, 0, moved)
  return next
}

/**
 * A ranked-choice ballot: every choice in the member's order, first = most preferred. Reordered by dragging a
 * row's handle (pointer events: mouse, touch and pen alike, ADR 061) or by each row's "Move up" and "Move down"
 * buttons, which a keyboard reaches; every move is announced with the choice's new position.
 */
export function RankedBallot({
  choices,
  ranking,
  onChange,
}: {
  /** The proposal's choices, choice n at index n - 1. */
  choices: readonly string[]
  /** 1-based choices, most preferred first: a full ranking. */
  ranking: readonly number[]
  onChange: (ranking: number[]) => void
}) {
  const [announcement, setAnnouncement] = useState('')
  const [dragged, setDragged] = useState<number>()
  const rows = useRef(new Map<number, HTMLLIElement>())
  // The button pressed keeps the focus as its row moves; at the end of the list it is disabled, so the
  // focus goes to the row's other button.
  const [focus, setFocus] = useState<{ choice: number; direction: 'up' | 'down' }>()
  const buttons = useRef(new Map<string, HTMLButtonElement>())

  useEffect(() => {
    if (!focus) return
    const button = buttons.current.get(`${focus.choice}-${focus.direction}`)
    const other = buttons.current.get(`${focus.choice}-${focus.direction === 'up' ? 'down' : 'up'}`)
    ;(button?.disabled ? other : button)?.focus()
  }, [focus])

  const name = (choice: number) => choices[choice - 1] ?? `Choice ${choice}`
  const announce = (choice: number, position: number) =>
    setAnnouncement(`${name(choice)} moved to position ${position} of ${ranking.length}.`)

  function move(from: number, to: number, direction: 'up' | 'down') {
    const choice = ranking[from]
    if (choice === undefined || to < 0 || to >= ranking.length) return
    onChange(moveRank(ranking, from, to))
    announce(choice, to + 1)
    setFocus({ choice, direction })
  }

  // Dragging: the row follows the pointer through the list; the list is reordered as the pointer passes the
  // middle of another row, so what is shown is always the ranking that would be signed. Pointer events can
  // come faster than renders: each reads the ranking its predecessor made, not the last render's.
  const latest = useRef(ranking)
  latest.current = ranking
  const grabbed = useRef<number>(undefined)
  function onPointerDown(event: PointerEvent<HTMLElement>, choice: number) {
    if (event.button !== 0) return
    event.currentTarget.setPointerCapture(event.pointerId)
    event.preventDefault()
    grabbed.current = choice
    setDragged(choice)
  }
  function onPointerMove(event: PointerEvent<HTMLElement>) {
    const dragged = grabbed.current
    if (dragged === undefined) return
    const current = latest.current
    // Its new place: after every other row whose middle the pointer is below.
    const to = current.filter((choice) => {
      const box = choice === dragged ? undefined : rows.current.get(choice)?.getBoundingClientRect()
      return box !== undefined && event.clientY > box.top + box.height / 2
    }).length
    const from = current.indexOf(dragged)
    if (to === from) return
    const next = moveRank(current, from, to)
    latest.current = next
    onChange(next)
  }
  function onPointerEnd() {
    const dragged = grabbed.current
    if (dragged === undefined) return
    announce(dragged, latest.current.indexOf(dragged) + 1)
    grabbed.current = undefined
    setDragged(undefined)
  }

  return (
    <fieldset className="choices ranked-ballot">
      <legend className="muted">
        Rank every choice, most preferred first: drag a row by its handle, or use its Move up and Move down
        buttons.
      </legend>
      <ol data-testid="ranking">
        {ranking.map((choice, index) => (
          <li
            key={choice}
            ref={(row) => {
              if (row) rows.current.set(choice, row)
              else rows.current.delete(choice)
            }}
            className={dragged === choice ? 'dragging' : undefined}
          >
            <span
              className="drag-handle"
              aria-hidden="true"
              data-testid={`drag-${choice}`}
              onPointerDown={(event) => onPointerDown(event, choice)}
              onPointerMove={onPointerMove}
              onPointerUp={onPointerEnd}
              onPointerCancel={onPointerEnd}
            >
              ⠿
            </span>
            <span className="rank">{index + 1}.</span>
            <span className="rank-choice">{name(choice)}</span>
            <span className="rank-buttons">
              <button
                type="button"
                className="button"
                aria-label={`Move ${name(choice)} up`}
                disabled={index === 0}
                ref={(button) => {
                  if (button) buttons.current.set(`${choice}-up`, button)
                }}
                onClick={() => move(index, index - 1, 'up')}
              >
                ↑
              </button>
              <button
                type="button"
                className="button"
                aria-label={`Move ${name(choice)} down`}
                disabled={index === ranking.length - 1}
                ref={(button) => {
                  if (button) buttons.current.set(`${choice}-down`, button)
                }}
                onClick={() => move(index, index + 1, 'down')}
              >
                ↓
              </button>
            </span>
          </li>
        ))}
      </ol>
      <p className="muted" aria-live="polite" data-testid="ranking-announcement">
        {announcement}
      </p>
    </fieldset>
  )
}
