// The variables of the metrics (ADR 065): a listener of their own for Prometheus, and whether the public
// origin serves them too, behind a token. Neither set: no metrics are kept at all.
import { z } from 'zod'

/** Long enough that guessing it over the network is hopeless; `openssl rand -hex 32` gives 64. */
const TOKEN_MIN_LENGTH = 32

export const metricsVariables = z.object({
  /** A second listener serving only GET /metrics; unset: none. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  /** Where that listener listens: loopback unless the operator's Prometheus scrapes from elsewhere. */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** The public origin's GET /metrics, with `Authorization: Bearer <token>`; unset: 404 there. */
  METRICS_TOKEN: z
    .string()
    .min(TOKEN_MIN_LENGTH, `must be at least ${TOKEN_MIN_LENGTH} characters`)
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces (it is sent in a header)')
    .optional(),
})

export interface MetricsSettings {
  /** The metrics listener's port; undefined: no such listener. */
  port: number | undefined
  host: string
  /** The bearer token of the public origin's /metrics; undefined: that path answers 404. */
  token: string | undefined
}

export const metricsSettings = (e: z.output<typeof metricsVariables>): MetricsSettings => ({
  port: e.METRICS_PORT,
  host: e.METRICS_HOST,
  token: e.METRICS_TOKEN,
})

/** Metrics are kept only where something can read them: the listener, or the public path with its token. */
export const metricsEnabled = ({ port, token }: MetricsSettings): boolean =>
  port !== undefined || token !== undefined

/** The two listeners cannot share a port (0 picks a free one for each, so it never collides). */
export function metricsPortProblems(
  env: Record<string, string | undefined>,
  serverPort: number | undefined,
): string[] {
  const port = metricsVariables.shape.METRICS_PORT.safeParse(env.METRICS_PORT).data
  return port !== undefined && port !== 0 && port === serverPort
    ? ['- METRICS_PORT: must differ from PORT']
    : []
}
