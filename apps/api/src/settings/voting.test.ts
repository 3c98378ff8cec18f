// QUADRATIC_VOTING (voting.ts): whether proposals may be quadratic, and what the public config says of it.
import { expect, test } from 'vitest'
import { parseEnv } from './env.ts'
import { base, envError } from './env-test-helpers.ts'

test('QUADRATIC_VOTING defaults to off; on and off set the public config’s governance.quadraticVoting; anything else is refused by name', () => {
  expect(parseEnv(base).publicConfig.governance.quadraticVoting).toBe(false)
  expect(parseEnv({ ...base, QUADRATIC_VOTING: 'on' }).publicConfig.governance.quadraticVoting).toBe(true)
  expect(parseEnv({ ...base, QUADRATIC_VOTING: 'off' }).publicConfig.governance.quadraticVoting).toBe(false)
  for (const value of ['yes', 'true', '1', 'ON'])
    expect(envError({ ...base, QUADRATIC_VOTING: value }).message, value).toContain('- QUADRATIC_VOTING:')
})
