/**
 * The discussion's limits and its reactions (ADR 052), apart from the message schemas (`messages.ts`) so the
 * public config can name them without bringing those schemas into the web app's first page.
 */

/** Limits of every field; the forms state the same numbers. */
export const DISCUSSION_LIMITS = {
  bodyMaxChars: 10_000,
  titleMaxChars: 200,
  reasonMaxChars: 500,
  /** A top-level comment has depth 0, a reply its parent's depth + 1. */
  depthMax: 3,
  mentionsMax: 20,
  keyLifetimeMaxSeconds: 30 * 86_400,
} as const

/** The fixed set of reactions, as signed; the emoji is only how they are shown. */
export const REACTIONS = ['thumbs-up', 'heart', 'party', 'laugh', 'thinking', 'eyes'] as const
export type Reaction = (typeof REACTIONS)[number]
