// The variables of live streams (ADR 064): how many one client address, and one instance, may hold open.
import { z } from 'zod'

export const liveVariables = z.object({
  /** Open live streams per client address on one instance: a few tabs each, and a bound on what one client holds. */
  LIVE_STREAMS_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(16),
  /** Open live streams on one instance; beyond it a new one is refused (503 `live_full`) and the page polls. */
  LIVE_MAX_STREAMS: z.coerce.number().int().min(1).max(1_000_000).default(5_000),
})

export interface LiveSettings {
  streamsPerClient: number
  maxStreams: number
}

export const liveSettings = (e: z.output<typeof liveVariables>): LiveSettings => ({
  streamsPerClient: e.LIVE_STREAMS_PER_CLIENT,
  maxStreams: e.LIVE_MAX_STREAMS,
})
