// Delegate statements over HTTP against a real chain (anvil with the demo DAO) and a real database (PGlite,
// or PostgreSQL under scripts/with-postgres.sh): the adversarial vote cases of docs/security.md, for
// statements: forgeries, bounds, hostile input, contract signers and the rate limit.
import {
  type DelegateStatementMessage,
  delegateStatementId,
  GOVERNANCE_LIMITS,
  LOCAL_CHAIN_ID,
  signGovernanceMessage,
  TIMESTAMP_MAX_AGE_SECONDS,
  TIMESTAMP_MAX_SKEW_SECONDS,
} from '@guildhall/core'
import { signHashAsSafe } from '@guildhall/devchain/safe'
import { describe, expect, test } from 'vitest'
import {
  ada,
  app,
  appOn,
  ben,
  domain,
  getStatement,
  logEntriesOf,
  newcomer,
  publish,
  safes,
  signedStatement,
  statementUrl,
  stranger,
  useStatementsBed,
  versionsOf,
} from '../../testbed/beds/statements.ts'
import { nowSeconds } from '../../testbed/signers.ts'
import { jsonHeaders } from '../../testbed/test-app.ts'

useStatementsBed()

describe('delegate statements refused (the adversarial vote cases, for statements)', () => {
  test.each([
    [
      'another key',
      async () => ({
        ...(await signedStatement(ben)),
        signature: (await signedStatement(stranger)).signature,
      }),
    ],
    ['another chain id', () => signedStatement(ben, {}, { ...domain, chainId: 1 })],
    [
      'another token',
      () =>
        signedStatement(
          ben,
          {},
          { ...domain, verifyingContract: '0x0000000000000000000000000000000000000001' },
        ),
    ],
    [
      'another domain name',
      () => signedStatement(ben, {}, { ...domain, name: 'Snapshot' } as unknown as typeof domain),
    ],
    [
      'another version',
      () => signedStatement(ben, {}, { ...domain, version: '2' } as unknown as typeof domain),
    ],
    [
      'the text altered',
      async () => {
        const signed = await signedStatement(ben, { statement: 'I will vote For.' })
        return { ...signed, message: { ...signed.message, statement: 'I will vote Against.' } }
      },
    ],
    [
      'another delegate (filed under Ben, signed by the stranger for herself)',
      async () => {
        const signed = await signedStatement(stranger)
        return { ...signed, message: { ...signed.message, delegate: ben.address } }
      },
    ],
  ])('parameters: a statement signed with %s → 401, nothing stored', async (_name, make) => {
    const before = await versionsOf(ben.address)
    const { message, signature } = await make()
    const response = await publish(ben.address, { message, signature })
    expect(response.statusCode).toBe(401)
    expect(response.json().error).toBe('bad_signature')
    expect(await versionsOf(ben.address)).toBe(before)
  })

  test('behavior: a statement signed by Ada but filed under Ben’s address → 401 (the server takes the delegate from the URL)', async () => {
    const before = await versionsOf(ben.address)
    const signed = await signedStatement(ada, { statement: 'Filed elsewhere.' })
    const response = await publish(ben.address, signed)
    expect(response.statusCode).toBe(401)
    expect(await versionsOf(ben.address)).toBe(before)
    expect(await logEntriesOf(signed.id)).toEqual([])
  })

  test.each([
    [
      'signed more than TIMESTAMP_MAX_AGE_SECONDS ago',
      () => nowSeconds() - TIMESTAMP_MAX_AGE_SECONDS - 60,
      /signed more than 6 days ago/,
    ],
    [
      'dated beyond TIMESTAMP_MAX_SKEW_SECONDS ahead',
      () => nowSeconds() + TIMESTAMP_MAX_SKEW_SECONDS + 60,
      /more than 5 minutes ahead/,
    ],
  ])('boundary: a statement %s → 422 naming the limit, nothing stored', async (_name, timestamp, message) => {
    const signer = newcomer()
    const signed = await signedStatement(signer, { timestamp: timestamp() })
    const response = await publish(signer.address, signed)
    expect(response.statusCode).toBe(422)
    expect(response.json()).toEqual({ error: 'bad_timestamp', message: expect.stringMatching(message) })
    expect(await versionsOf(signer.address)).toBe(0)
  })

  test('boundary: oversized → 400 naming the limit (characters, then UTF-8 bytes); a body beyond what any statement needs → 413; nothing stored', async () => {
    const signer = newcomer()
    const L = GOVERNANCE_LIMITS
    const atLimit = await signedStatement(signer, { statement: 'é'.repeat(L.statementMaxBytes / 2) })
    const characters = await signedStatement(signer, { statement: 'x'.repeat(L.statementMax + 1) })
    const bytes = await signedStatement(signer, {
      statement: `${'é'.repeat(L.statementMaxBytes / 2 - 1)}€`,
    })
    const tooManyCharacters = await publish(signer.address, characters)
    expect(tooManyCharacters.statusCode).toBe(400)
    expect(tooManyCharacters.json().message).toContain('The statement must be at most 10000 characters')
    const tooManyBytes = await publish(signer.address, bytes)
    expect(tooManyBytes.statusCode).toBe(400)
    expect(tooManyBytes.json().message).toContain('The statement must be at most 20000 bytes in UTF-8')
    const huge = await publish(signer.address, {
      ...atLimit,
      message: { ...atLimit.message, statement: 'x'.repeat(70_000) },
    })
    expect(huge.statusCode).toBe(413)
    expect(await versionsOf(signer.address)).toBe(0)
    // At both limits, and every character escaped in JSON (\u00e9, 6 bytes each): within the body limit.
    const escaped = JSON.stringify({ message: atLimit.message, signature: atLimit.signature }).replaceAll(
      'é',
      '\\u00e9',
    )
    const response = await app.inject({
      method: 'POST',
      url: statementUrl(signer.address),
      headers: jsonHeaders,
      payload: escaped,
    })
    expect(response.statusCode).toBe(201)
    expect((await getStatement(signer.address)).json().message.statement).toBe(atLimit.message.statement)
  })

  test('behavior: NUL bytes, a lone UTF-16 surrogate, prototype-pollution keys and unknown fields → 400, nothing stored', async () => {
    const signer = newcomer()
    const signed = await signedStatement(signer)
    for (const message of [
      { ...signed.message, statement: 'a\u0000b' },
      { ...signed.message, statement: 'ok\ud83d' },
      { ...signed.message, version: 2 },
      JSON.parse(`{"__proto__":{"polluted":true},${JSON.stringify(signed.message).slice(1)}`),
    ]) {
      const response = await publish(signer.address, { message, signature: signed.signature })
      expect(response.statusCode, JSON.stringify(message).slice(0, 60)).toBe(400)
    }
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined()
    const surrogate = await publish(signer.address, {
      message: { ...signed.message, statement: 'ok\ud83d' },
      signature: signed.signature,
    })
    expect(surrogate.json().message).toContain('The statement must be valid Unicode text')
    expect(await versionsOf(signer.address)).toBe(0)
  })

  test('behavior: markdown with a script, an onerror handler and a javascript: link is stored and answered verbatim (it is signed; the page sanitises it)', async () => {
    const statement = `<script>alert(1)</script><img src=x onerror=alert(1)> [me](javascript:alert(1)) '); DROP TABLE votes; --`
    const signer = newcomer()
    const signed = await signedStatement(signer, { statement })
    expect((await publish(signer.address, signed)).statusCode).toBe(201)
    expect((await getStatement(signer.address)).json().message.statement).toBe(statement)
  })

  test('behavior: a 1-of-1 Safe publishes with its owner’s ERC-1271 signature → 201; the owner’s own signature for the Safe → 401', async () => {
    const message: DelegateStatementMessage = {
      delegate: safes.oneOfOne.address,
      statement: 'The treasury multisig speaks here.',
      timestamp: nowSeconds(),
    }
    const id = delegateStatementId(domain, message)
    const ownersKey = (await signGovernanceMessage(ada, domain, { type: 'DelegateStatement', message }))
      .signature
    expect((await publish(message.delegate, { message, signature: ownersKey })).statusCode).toBe(401)
    const signature = await signHashAsSafe({
      safe: message.delegate,
      chainId: LOCAL_CHAIN_ID,
      owners: [ada],
      hash: id,
    })
    const response = await publish(message.delegate, { message, signature })
    expect(response.statusCode).toBe(201)
    expect((await getStatement(message.delegate)).json()).toMatchObject({ id, signature })
  })

  test('behavior: a burst beyond GOVERNANCE_RATE_LIMIT_PER_MINUTE → 429 before any check; reading is not limited', async () => {
    const limited = await appOn({ GOVERNANCE_RATE_LIMIT_PER_MINUTE: '2' })
    try {
      const signer = newcomer()
      const signed = await signedStatement(signer)
      // A client no other test is: on PostgreSQL the counts of every app on the database are one.
      const remoteAddress = '203.0.113.15'
      const statuses = []
      for (let i = 0; i < 3; i++) {
        const response = await limited.inject({
          method: 'POST',
          url: statementUrl(signer.address),
          headers: jsonHeaders,
          payload: JSON.stringify({ message: signed.message, signature: signed.signature }),
          remoteAddress,
        })
        statuses.push(response.statusCode)
      }
      expect(statuses).toEqual([201, 200, 429])
      const reads = []
      for (let i = 0; i < 3; i++) {
        reads.push(
          (await limited.inject({ method: 'GET', url: statementUrl(signer.address), remoteAddress }))
            .statusCode,
        )
      }
      expect(reads).toEqual([200, 200, 200])
    } finally {
      await limited.close()
    }
  })
})
