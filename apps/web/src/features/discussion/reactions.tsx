import { REACTION_EMOJI, REACTIONS, type Reaction } from '@guildhall/core'

const LABELS: Record<Reaction, string> = {
  'thumbs-up': 'Thumbs up',
  heart: 'Heart',
  party: 'Party',
  laugh: 'Laugh',
  thinking: 'Thinking',
  eyes: 'Eyes',
}

/** The fixed set of reactions, each with its count; the member's own are pressed, and a press toggles. */
export function Reactions({
  reactions,
  disabled,
  onToggle,
}: {
  reactions: readonly { reaction: string; count: number; mine: boolean }[]
  /** Signed out, or may not post: the counts show, nothing can be pressed. */
  disabled: boolean
  onToggle: (reaction: Reaction, on: boolean) => void
}) {
  const byName = new Map(reactions.map((row) => [row.reaction, row]))
  return (
    <fieldset className="reactions" aria-label="Reactions">
      {REACTIONS.map((reaction) => {
        const row = byName.get(reaction)
        const count = row?.count ?? 0
        if (disabled && count === 0) return null
        return (
          <button
            key={reaction}
            type="button"
            className="reaction"
            aria-pressed={row?.mine ?? false}
            aria-label={`${LABELS[reaction]}: ${count}`}
            disabled={disabled}
            onClick={() => onToggle(reaction, !(row?.mine ?? false))}
          >
            <span aria-hidden="true">{REACTION_EMOJI[reaction]}</span>
            {count > 0 ? <span aria-hidden="true">{count}</span> : null}
          </button>
        )
      })}
    </fieldset>
  )
}
