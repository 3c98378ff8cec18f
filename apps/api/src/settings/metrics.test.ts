// METRICS_PORT, METRICS_HOST and METRICS_TOKEN (metrics.ts, ADR 065): where Prometheus reads the metrics.
import { describe, expect, test } from 'vitest'
import { parseEnv } from './env.ts'
import { base, envError } from './env-test-helpers.ts'

const TOKEN = 'f'.repeat(32)

describe('parseEnv: METRICS_PORT, METRICS_HOST and METRICS_TOKEN', () => {
  test('default: no listener of their own (on loopback once a port is set) and no token', () => {
    expect(parseEnv(base).metrics).toEqual({ port: undefined, host: '127.0.0.1', token: undefined })
    expect(parseEnv({ ...base, METRICS_PORT: '9464', METRICS_TOKEN: TOKEN }).metrics).toEqual({
      port: 9464,
      host: '127.0.0.1',
      token: TOKEN,
    })
    expect(parseEnv({ ...base, METRICS_PORT: '0', METRICS_HOST: '10.0.1.11' }).metrics).toMatchObject({
      port: 0,
      host: '10.0.1.11',
    })
  })

  test('parameters: a port outside 0–65535 or the server’s own, a token under 32 characters or with a space, is refused by name', () => {
    for (const port of ['-1', '65536', '1.5', 'metrics']) {
      expect(envError({ ...base, METRICS_PORT: port }).message, port).toContain('- METRICS_PORT:')
    }
    expect(envError({ ...base, PORT: '8080', METRICS_PORT: '8080' }).message).toContain(
      '- METRICS_PORT: must differ from PORT',
    )
    expect(envError({ ...base, METRICS_PORT: '3000' }).message).toContain(
      '- METRICS_PORT: must differ from PORT',
    )
    // Both 0: each listener takes a free port of its own.
    expect(parseEnv({ ...base, PORT: '0', METRICS_PORT: '0' }).metrics.port).toBe(0)
    expect(envError({ ...base, METRICS_TOKEN: TOKEN.slice(1) }).message).toContain(
      '- METRICS_TOKEN: must be at least 32 characters',
    )
    expect(envError({ ...base, METRICS_TOKEN: `${TOKEN} x` }).message).toContain(
      '- METRICS_TOKEN: must be printable ASCII without spaces (it is sent in a header)',
    )
  })
})
