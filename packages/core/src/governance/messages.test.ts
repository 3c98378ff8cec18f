import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import fc from 'fast-check'
import {
  type Hex,
  hashStruct,
  hashTypedData,
  keccak256,
  type TypedDataDefinition,
  type VerifyTypedDataParameters,
  verifyTypedData,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { SIGNATURE_MAX_BYTES } from '../primitives.ts'
import {
  BASIC_CHOICES,
  type DelegateStatementMessage,
  delegateStatementId,
  delegateStatementTypedData,
  governanceDomain,
  type ProposalMessage,
  proposalId,
  proposalMessageSchema,
  proposalTypedData,
  signedDelegateStatementSchema,
  signedProposalSchema,
  signedVoteSchema,
  signGovernanceMessage,
  type VoteMessage,
  voteId,
  voteMessageSchema,
  voteTypedData,
} from './messages.ts'
import { GOVERNANCE_LIMITS } from './rules.ts'

const author = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const domain = governanceDomain({ chainId: 31337, token: '0x5FbDB2315678afecb367f032d93F642f64180aa3' })

const proposal: ProposalMessage = {
  author: author.address,
  title: 'Fund the community hall',
  body: '## Why\nWe need a roof.',
  kind: 'basic',
  choices: [...BASIC_CHOICES],
  start: 1_800_000_000,
  end: 1_800_000_000 + 7 * 24 * 3600,
  snapshot: 120,
  quorum: '1000000000000000000000',
  threshold: '1000000000000000000',
  abstainCountsToQuorum: true,
  timestamp: 1_799_999_000,
}
const vote = (overrides: Partial<VoteMessage> = {}): VoteMessage => ({
  voter: author.address,
  proposal: proposalId(domain, proposal),
  choices: [1],
  reason: 'Roofs matter.',
  timestamp: 1_800_000_100,
  ...overrides,
})

const statement = (overrides: Partial<DelegateStatementMessage> = {}): DelegateStatementMessage => ({
  delegate: author.address,
  statement: '## Why me\nI read every proposal.',
  timestamp: 1_800_000_200,
  ...overrides,
})

describe('typed data', () => {
  test('behavior: a signed proposal and vote verify against the server-built typed data; the id is the digest', async () => {
    const proposalData = proposalTypedData(domain, proposal)
    const signature = await author.signTypedData(proposalData)
    expect(await verifyTypedData({ ...proposalData, address: author.address, signature })).toBe(true)
    expect(proposalId(domain, proposal)).toBe(hashTypedData(proposalData))

    const voteData = voteTypedData(domain, vote())
    const voteSignature = await author.signTypedData(voteData)
    expect(await verifyTypedData({ ...voteData, address: author.address, signature: voteSignature })).toBe(
      true,
    )
    expect(voteId(domain, vote())).toBe(hashTypedData(voteData))
  })

  test('behavior: a signature does not verify under another domain, proposal or choice', async () => {
    const signature = await author.signTypedData(voteTypedData(domain, vote()))
    const verifies = (data: ReturnType<typeof voteTypedData>) =>
      verifyTypedData({ ...data, address: author.address, signature })
    const others = [
      voteTypedData({ ...domain, chainId: 1 }, vote()),
      voteTypedData({ ...domain, verifyingContract: '0x0000000000000000000000000000000000000001' }, vote()),
      voteTypedData({ ...domain, name: 'Snapshot' } as unknown as typeof domain, vote()),
      voteTypedData({ ...domain, version: '2' } as unknown as typeof domain, vote()),
      voteTypedData(domain, vote({ proposal: `0x${'11'.repeat(32)}` })),
      voteTypedData(domain, vote({ choices: [2] })),
      voteTypedData(domain, vote({ reason: 'Roofs matter!' })),
    ]
    for (const data of others) expect(await verifies(data)).toBe(false)
  })

  test('behavior: a signed delegate statement verifies against the server-built typed data; the id is the digest; another domain, delegate or text does not verify', async () => {
    const data = delegateStatementTypedData(domain, statement())
    const signature = await author.signTypedData(data)
    expect(await verifyTypedData({ ...data, address: author.address, signature })).toBe(true)
    expect(delegateStatementId(domain, statement())).toBe(hashTypedData(data))
    const others = [
      delegateStatementTypedData({ ...domain, chainId: 1 }, statement()),
      delegateStatementTypedData(
        { ...domain, verifyingContract: '0x0000000000000000000000000000000000000001' },
        statement(),
      ),
      delegateStatementTypedData(
        domain,
        statement({ delegate: '0x0000000000000000000000000000000000000002' }),
      ),
      delegateStatementTypedData(domain, statement({ statement: 'I read some proposals.' })),
      delegateStatementTypedData(domain, statement({ timestamp: 1_800_000_201 })),
    ]
    for (const other of others) {
      expect(await verifyTypedData({ ...other, address: author.address, signature })).toBe(false)
    }
    // Not a vote: the same fields under another type never share a digest.
    expect(delegateStatementId(domain, statement())).not.toBe(voteId(domain, vote()))
  })

  test('behavior: the JSON message survives a round trip through the schema unchanged, and so does its id', () => {
    const json = JSON.parse(JSON.stringify(proposal))
    expect(proposalId(domain, proposalMessageSchema.parse(json))).toBe(proposalId(domain, proposal))
    const voteJson = JSON.parse(JSON.stringify(vote()))
    expect(voteId(domain, voteMessageSchema.parse(voteJson))).toBe(voteId(domain, vote()))
  })
})

type VectorField = { name: string; type: string }
type Vector = {
  name: string
  domain: Record<string, unknown>
  primaryType: string
  types: Record<string, VectorField[]>
  data: Record<string, unknown>
  encoded: Hex
  digest: Hex
}
const vectorsFile = readFileSync(new URL('../../test-fixtures/eip712/typed-data.json.gz', import.meta.url))
const vectors: Vector[] = JSON.parse(gunzipSync(vectorsFile).toString())

/** ethers' vectors write integers as decimal or hex strings; viem takes bigint. */
function widen(type: string, value: unknown, types: Record<string, VectorField[]>): unknown {
  const array = /^(.*)\[(\d*)\]$/.exec(type)
  if (array) return (value as unknown[]).map((item) => widen(array[1] as string, item, types))
  if (/^u?int\d*$/.test(type)) return BigInt(value as string | number)
  const struct = types[type]
  if (struct) {
    const record = value as Record<string, unknown>
    return Object.fromEntries(
      struct.map((field) => [field.name, widen(field.type, record[field.name], types)]),
    )
  }
  return value
}

describe('the EIP-712 vectors of ethers (test-fixtures/eip712/SOURCES.md)', () => {
  test('default: the file is the one SOURCES.md names (sha256) and holds the 130 cases it had when copied', () => {
    const sources = readFileSync(new URL('../../test-fixtures/eip712/SOURCES.md', import.meta.url), 'utf8')
    const recorded = /^([0-9a-f]{64}) {2}typed-data\.json\.gz$/m.exec(sources)?.[1]
    expect(createHash('sha256').update(vectorsFile).digest('hex')).toBe(recorded)
    expect(vectors).toHaveLength(130)
  })

  test.each(vectors.map((vector) => [vector.name, vector] as const))(
    'parameters: %s hashes to its digest through hashTypedData, and its struct to keccak256(encoded)',
    (_name, vector) => {
      const domain =
        vector.domain.chainId === undefined
          ? vector.domain
          : { ...vector.domain, chainId: BigInt(vector.domain.chainId as number) }
      const message = widen(vector.primaryType, vector.data, vector.types) as Record<string, unknown>
      const typed = { domain, types: vector.types, primaryType: vector.primaryType, message }
      expect(hashTypedData(typed as Parameters<typeof hashTypedData>[0])).toBe(vector.digest)
      expect(hashStruct({ data: message, primaryType: vector.primaryType, types: vector.types })).toBe(
        keccak256(vector.encoded),
      )
    },
  )
})

describe('message schemas (adversarial vote cases)', () => {
  const signed = (message: unknown) => ({ message, signature: `0x${'ab'.repeat(65)}` })

  test.each([
    ['choice 0', [0]],
    ['a negative choice', [-1]],
    ['a fractional choice', [1.5]],
    ['a string choice', ['1']],
    ['a huge choice', [2 ** 40]],
    ['duplicated choices', [1, 1]],
    ['no choice', []],
    ['choices as a string', '1'],
    ['too many choices', Array.from({ length: 21 }, (_, i) => i + 1)],
  ])('parameters: a vote with %s → refused', (_name, choices) => {
    expect(signedVoteSchema.safeParse(signed({ ...vote(), choices })).success).toBe(false)
  })

  test.each([
    ['an unknown field', { ...vote(), weight: '1000' }],
    [
      'a prototype-pollution key',
      JSON.parse(`{"__proto__": {"admin": true}, ${JSON.stringify(vote()).slice(1)}`),
    ],
    ['a constructor key', { ...vote(), constructor: { prototype: {} } }],
    ['a NUL byte in the reason', { ...vote(), reason: 'ok\u0000hidden' }],
    ['a lone high surrogate in the reason', { ...vote(), reason: 'ok\ud83d' }],
    ['a lone low surrogate in the reason', { ...vote(), reason: '\ude00ok' }],
    ['a surrogate pair in the wrong order', { ...vote(), reason: '\ude00\ud83d' }],
    ['an oversized reason', { ...vote(), reason: 'x'.repeat(GOVERNANCE_LIMITS.reasonMax + 1) }],
    ['a lower-case voter', { ...vote(), voter: author.address.toLowerCase() }],
    ['an upper-case proposal id', { ...vote(), proposal: vote().proposal.toUpperCase().replace('0X', '0x') }],
    ['a fractional timestamp', { ...vote(), timestamp: 1.5 }],
    ['a missing timestamp', { ...vote(), timestamp: undefined }],
  ])('parameters: a vote with %s → refused', (_name, message) => {
    expect(signedVoteSchema.safeParse(signed(message)).success).toBe(false)
  })

  test('behavior: SQL and HTML in text are valid text, kept verbatim', () => {
    const reason = `'); DROP TABLE votes; -- <script>alert(1)</script>`
    expect(signedVoteSchema.parse(signed({ ...vote(), reason })).message.reason).toBe(reason)
  })

  test('behavior: texts differing only in a lone surrogate share one digest, so they are refused; pairs are fine', () => {
    // Why the schema refuses them: EIP-712 hashes UTF-8, where each lone surrogate becomes U+FFFD.
    const digests = ['ok\ufffd', 'ok\ud83d', 'ok\ude00'].map((reason) =>
      hashTypedData(voteTypedData(domain, vote({ reason }))),
    )
    expect(new Set(digests).size).toBe(1)
    expect(signedVoteSchema.safeParse(signed(vote({ reason: 'ok\ufffd' }))).success).toBe(true)
    const emoji = 'Roofs 🏠 matter 👍🏽'
    expect(signedVoteSchema.parse(signed(vote({ reason: emoji }))).message.reason).toBe(emoji)
  })

  test('property: any JSON value is refused without throwing unless it is a whole valid vote', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (message) => {
        expect(signedVoteSchema.safeParse(signed(message)).success).toBe(false)
        expect(signedVoteSchema.safeParse(message).success).toBe(false)
        expect(proposalMessageSchema.safeParse(message).success).toBe(false)
      }),
    )
  })

  test('property: a valid vote with any field missing, or any extra field, is refused', () => {
    const valid = vote()
    const fields = Object.keys(valid)
    fc.assert(
      fc.property(
        fc.constantFrom(...fields),
        fc.string({ minLength: 1 }).filter((key) => !fields.includes(key)),
        fc.jsonValue(),
        (missing, extraKey, extraValue) => {
          const without = Object.fromEntries(Object.entries(valid).filter(([key]) => key !== missing))
          expect(signedVoteSchema.safeParse(signed(without)).success).toBe(false)
          const extra = JSON.parse(JSON.stringify({ ...valid, [extraKey]: extraValue }))
          expect(signedVoteSchema.safeParse(signed(extra)).success).toBe(false)
        },
      ),
    )
  })

  test.each([
    ['an empty title', { title: '  ' }],
    ['a title over the limit', { title: 'x'.repeat(GOVERNANCE_LIMITS.titleMax + 1) }],
    ['a body over the limit', { body: 'x'.repeat(GOVERNANCE_LIMITS.bodyMax + 1) }],
    ['a basic proposal with other choices', { choices: ['Yes', 'No'] }],
    ['one choice', { kind: 'single-choice', choices: ['Only'] }],
    ['21 choices', { kind: 'approval', choices: Array.from({ length: 21 }, (_, i) => `C${i}`) }],
    ['a duplicated choice', { kind: 'single-choice', choices: ['A', 'A'] }],
    ['an empty choice', { kind: 'single-choice', choices: ['A', ' '] }],
    [
      'a choice over the limit',
      { kind: 'approval', choices: ['A', 'x'.repeat(GOVERNANCE_LIMITS.choiceMax + 1)] },
    ],
    ['a NUL byte in the body', { body: 'a\u0000b' }],
    ['a lone surrogate in the title', { title: 'Roof \ud83d' }],
    ['a lone surrogate in a choice', { kind: 'single-choice', choices: ['A', '\ude00'] }],
    ['a basic proposal with its choices reordered', { choices: ['Against', 'For', 'Abstain'] }],
    ['a period over 90 days', { end: proposal.start + GOVERNANCE_LIMITS.periodMaxSeconds + 1 }],
    ['a fractional start', { start: proposal.start + 0.5 }],
    ['a negative snapshot', { snapshot: -1 }],
    ['a quorum with a leading zero', { quorum: '01' }],
    ['abstain counting as a string', { abstainCountsToQuorum: 'true' }],
    ['an unknown field', { weight: 1 }],
    ['a period under an hour', { end: proposal.start + 3599 }],
    ['an end before the start', { end: proposal.start - 1 }],
    ['a quorum as a number', { quorum: 1000 }],
    ['a negative quorum', { quorum: '-1' }],
    ['a quorum in words', { quorum: 'a thousand' }],
    ['a fractional threshold', { threshold: '1.5' }],
    ['a threshold over uint256', { threshold: (2n ** 256n).toString() }],
    ['an unknown kind', { kind: 'ranked' }],
  ])('parameters: a proposal with %s → refused with a message', (_name, overrides) => {
    const result = proposalMessageSchema.safeParse({ ...proposal, ...overrides })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toMatch(/\w+ \w+/)
  })

  test('parameters: single-choice and approval proposals take their own choices', () => {
    for (const kind of ['single-choice', 'approval'] as const) {
      expect(
        proposalMessageSchema.safeParse({ ...proposal, kind, choices: ['Oak', 'Pine', 'Elm'] }).success,
      ).toBe(true)
    }
  })
})

/**
 * Every limit packages/core declares, at its boundary: the value at the limit passes the shared schema
 * and one step beyond is refused with a message naming the limit. Keyed by GOVERNANCE_LIMITS, so a new
 * limit without a case here does not compile.
 */
describe('delegate statement schema (the vote cases, for statements)', () => {
  const signed = (message: unknown) => ({ message, signature: `0x${'ab'.repeat(65)}` })

  test.each([
    ['an unknown field', { ...statement(), version: 2 }],
    [
      'a prototype-pollution key',
      JSON.parse(`{"__proto__": {"admin": true}, ${JSON.stringify(statement()).slice(1)}`),
    ],
    ['a NUL byte', { ...statement(), statement: 'ok\u0000hidden' }],
    ['a lone high surrogate', { ...statement(), statement: 'ok\ud83d' }],
    ['a lone low surrogate', { ...statement(), statement: '\ude00ok' }],
    ['a lower-case delegate', { ...statement(), delegate: author.address.toLowerCase() }],
    ['a fractional timestamp', { ...statement(), timestamp: 1.5 }],
    ['a negative timestamp', { ...statement(), timestamp: -1 }],
    ['a statement that is not text', { ...statement(), statement: 42 }],
  ])('parameters: a statement with %s → refused', (_name, message) => {
    expect(signedDelegateStatementSchema.safeParse(signed(message)).success).toBe(false)
  })

  test('behavior: markdown with HTML, scripts and links is kept verbatim (it is signed; the page sanitises it), and so is an empty statement (a withdrawal)', () => {
    for (const text of [
      `<script>alert(1)</script><img src=x onerror=alert(1)> [x](javascript:alert(1)) 🏠`,
      '',
    ]) {
      expect(
        signedDelegateStatementSchema.parse(signed(statement({ statement: text }))).message.statement,
      ).toBe(text)
    }
  })
})

describe('limits (GOVERNANCE_LIMITS, one by one)', () => {
  const signature = `0x${'ab'.repeat(65)}`
  const proposalWith = (overrides: Partial<ProposalMessage> | Record<string, unknown>) =>
    signedProposalSchema.safeParse({ message: { ...proposal, ...overrides }, signature })
  const voteWith = (overrides: Partial<VoteMessage> | Record<string, unknown>) =>
    signedVoteSchema.safeParse({ message: { ...vote(), ...overrides }, signature })
  const statementWith = (overrides: Partial<DelegateStatementMessage> | Record<string, unknown>) =>
    signedDelegateStatementSchema.safeParse({ message: { ...statement(), ...overrides }, signature })
  const L = GOVERNANCE_LIMITS
  const names = (n: number) => Array.from({ length: n }, (_, i) => `Choice ${i + 1}`)
  const ahead = (seconds: number) => ({
    start: proposal.timestamp + seconds,
    end: proposal.timestamp + seconds + L.periodMinSeconds,
  })
  type Check = (
    overrides: Record<string, unknown>,
  ) => ReturnType<typeof proposalWith | typeof voteWith | typeof statementWith>
  const cases: Record<
    keyof typeof GOVERNANCE_LIMITS,
    [check: Check, atLimit: Record<string, unknown>, beyond: Record<string, unknown>, message: string][]
  > = {
    titleMax: [
      [
        proposalWith,
        { title: 'x'.repeat(L.titleMax) },
        { title: 'x'.repeat(L.titleMax + 1) },
        'The title must be at most 200 characters',
      ],
    ],
    bodyMax: [
      [
        proposalWith,
        { body: 'x'.repeat(L.bodyMax) },
        { body: 'x'.repeat(L.bodyMax + 1) },
        'The body must be at most 20000 characters',
      ],
    ],
    choicesMin: [
      [
        proposalWith,
        { kind: 'single-choice', choices: names(L.choicesMin) },
        { kind: 'single-choice', choices: names(L.choicesMin - 1) },
        'A proposal needs at least 2 choices',
      ],
    ],
    choicesMax: [
      [
        proposalWith,
        { kind: 'approval', choices: names(L.choicesMax) },
        { kind: 'approval', choices: names(L.choicesMax + 1) },
        'A proposal has at most 20 choices',
      ],
      [
        voteWith,
        { choices: Array.from({ length: L.choicesMax }, (_, i) => i + 1) },
        { choices: Array.from({ length: L.choicesMax + 1 }, (_, i) => i + 1) },
        'No proposal has more than 20 choices',
      ],
      [
        voteWith,
        { choices: [L.choicesMax] },
        { choices: [L.choicesMax + 1] },
        'No proposal has more than 20 choices',
      ],
    ],
    choiceMax: [
      [
        proposalWith,
        { kind: 'single-choice', choices: ['A', 'x'.repeat(L.choiceMax)] },
        { kind: 'single-choice', choices: ['A', 'x'.repeat(L.choiceMax + 1)] },
        'A choice must be at most 80 characters',
      ],
    ],
    reasonMax: [
      [
        voteWith,
        { reason: 'x'.repeat(L.reasonMax) },
        { reason: 'x'.repeat(L.reasonMax + 1) },
        'The reason must be at most 1000 characters',
      ],
    ],
    statementMax: [
      [
        statementWith,
        { statement: 'x'.repeat(L.statementMax) },
        { statement: 'x'.repeat(L.statementMax + 1) },
        'The statement must be at most 10000 characters',
      ],
    ],
    statementMaxBytes: [
      // Within the characters, beyond the bytes: 2-byte letters up to the limit, then one 3-byte sign.
      [
        statementWith,
        { statement: 'é'.repeat(L.statementMaxBytes / 2) },
        { statement: `${'é'.repeat(L.statementMaxBytes / 2 - 1)}€` },
        'The statement must be at most 20000 bytes in UTF-8 (an accented letter takes 2, most other scripts 3, an emoji 4)',
      ],
    ],
    periodMinSeconds: [
      [
        proposalWith,
        { end: proposal.start + L.periodMinSeconds },
        { end: proposal.start + L.periodMinSeconds - 1 },
        'The voting period must last from 1 hour to 90 days',
      ],
    ],
    periodMaxSeconds: [
      [
        proposalWith,
        { end: proposal.start + L.periodMaxSeconds },
        { end: proposal.start + L.periodMaxSeconds + 1 },
        'The voting period must last from 1 hour to 90 days',
      ],
    ],
    startMaxAheadSeconds: [
      [
        proposalWith,
        ahead(L.startMaxAheadSeconds),
        ahead(L.startMaxAheadSeconds + 1),
        'A proposal may start at most 30 days after it is signed',
      ],
      [
        proposalWith,
        ahead(0),
        ahead(10 * 365 * 24 * 3600),
        'A proposal may start at most 30 days after it is signed',
      ],
    ],
  }

  test.each(
    Object.entries(cases).flatMap(([name, list]) => list.map((c, i) => [`${name} #${i + 1}`, ...c] as const)),
  )(
    'boundary: %s — at the limit accepted, one beyond refused with its message',
    (_name, check, atLimit, beyond, message) => {
      const accepted = check(atLimit)
      expect(accepted.error?.issues).toBeUndefined()
      const refused = check(beyond)
      expect(refused.success).toBe(false)
      expect(refused.error?.issues.map((issue) => issue.message)).toContain(message)
    },
  )

  test('boundary: a signature of SIGNATURE_MAX_BYTES is taken, one byte more is refused', () => {
    const withSignature = (bytes: number) =>
      signedVoteSchema.safeParse({ message: vote(), signature: `0x${'ab'.repeat(bytes)}` })
    expect(withSignature(SIGNATURE_MAX_BYTES).success).toBe(true)
    expect(withSignature(SIGNATURE_MAX_BYTES + 1).error?.issues.map((issue) => issue.message)).toEqual([
      `must be at most ${SIGNATURE_MAX_BYTES} bytes`,
    ])
  })
})

describe('signGovernanceMessage', () => {
  /** `signed` carries `id` and a signature by the author over exactly `typedData`. */
  async function expectSignedOver(
    signed: { signature: Hex; id: Hex },
    typedData: TypedDataDefinition,
    id: Hex,
  ) {
    expect(signed.id).toBe(id)
    const parameters = { address: author.address, signature: signed.signature, ...typedData }
    expect(await verifyTypedData(parameters as VerifyTypedDataParameters)).toBe(true)
  }

  test('behavior: each kind is signed over its own typed data and carries the id the API stores it under', async () => {
    await expectSignedOver(
      await signGovernanceMessage(author, domain, { type: 'Proposal', message: proposal }),
      proposalTypedData(domain, proposal) as TypedDataDefinition,
      proposalId(domain, proposal),
    )
    await expectSignedOver(
      await signGovernanceMessage(author, domain, { type: 'Vote', message: vote() }),
      voteTypedData(domain, vote()) as TypedDataDefinition,
      voteId(domain, vote()),
    )
    await expectSignedOver(
      await signGovernanceMessage(author, domain, { type: 'DelegateStatement', message: statement() }),
      delegateStatementTypedData(domain, statement()) as TypedDataDefinition,
      delegateStatementId(domain, statement()),
    )
  })
})
