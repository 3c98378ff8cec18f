// The execution settings (execution.ts, ADR 051): the objection delay, the expiry and the rate limit.
import { expect, test } from 'vitest'
import { parseEnv } from './env.ts'

const local = { CHAIN_IDS: '31337', RPC_URL_31337: 'http://127.0.0.1:8545', WALLETS: 'injected' }

test('EXECUTION_DELAY_SECONDS defaults to a day, EXECUTION_EXPIRY_SECONDS to 30 days, EXECUTION_RATE_LIMIT_PER_MINUTE to 30; each takes a whole number in its bounds, anything else is refused naming the variable', () => {
  expect(parseEnv(local).execution).toEqual({
    delaySeconds: 86_400,
    expirySeconds: 2_592_000,
    rateLimitPerMinute: 30,
  })
  expect(
    parseEnv({
      ...local,
      EXECUTION_DELAY_SECONDS: '0',
      EXECUTION_EXPIRY_SECONDS: '60',
      EXECUTION_RATE_LIMIT_PER_MINUTE: '1',
    }).execution,
  ).toEqual({ delaySeconds: 0, expirySeconds: 60, rateLimitPerMinute: 1 })
  const refused: [string, string[]][] = [
    ['EXECUTION_DELAY_SECONDS', ['-1', '1.5', 'a day', String(365 * 86_400 + 1)]],
    ['EXECUTION_EXPIRY_SECONDS', ['59', '1.5', 'never']],
    ['EXECUTION_RATE_LIMIT_PER_MINUTE', ['0', '1.5', 'lots']],
  ]
  for (const [name, values] of refused)
    for (const value of values)
      expect(() => parseEnv({ ...local, [name]: value }), `${name}=${value}`).toThrow(new RegExp(name))
})
