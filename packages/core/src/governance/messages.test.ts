import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import fc from 'fast-check'
import {
  concatHex,
  encodeAbiParameters,
  getAddress,
  type Hex,
  hashStruct,
  hashTypedData,
  keccak256,
  parseAbiParameters,
  type TypedDataDefinition,
  toHex,
  type VerifyTypedDataParameters,
  verifyTypedData,
} from 'viem'
import { describe, expect, test } from 'vitest'
import type { ProposalAction } from '../treasury/actions.ts'
import { typedDataDigest } from '../typed-data-digest.ts'
import {
  delegateStatementId,
  delegateStatementTypedData,
  type ProposalMessage,
  type ProposalMessageV2,
  proposalId,
  proposalMessageSchema,
  proposalTypedData,
  signGovernanceMessage,
  type VoteMessage,
  voteId,
  voteMessageSchema,
  voteTypedData,
} from './messages.ts'
import { author, domain, proposal, statement, vote, voteV2 } from './messages-test-helpers.ts'

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

  test('behavior: the ids (the domain separator hashed once per domain) equal viem’s hashTypedData for every kind, under several domains taken in turn; a message hashTypedData refuses is refused', () => {
    const domains = [
      domain,
      { ...domain, chainId: 1 },
      { ...domain, verifyingContract: '0x0000000000000000000000000000000000000001' as const },
    ]
    // Each domain twice, interleaved: the second time its separator comes from the cache.
    for (const turn of [0, 1])
      for (const [index, d] of domains.entries()) {
        const v1 = vote({ choices: [1 + ((index + turn) % 3)], reason: `turn ${turn}` })
        const v2 = voteV2({ choices: [2, 3], weights: [index + 1, turn + 1] })
        expect(voteId(d, v1)).toBe(hashTypedData(voteTypedData(d, v1)))
        expect(voteId(d, v2)).toBe(hashTypedData(voteTypedData(d, v2)))
        expect(proposalId(d, proposal)).toBe(hashTypedData(proposalTypedData(d, proposal)))
        expect(delegateStatementId(d, statement())).toBe(
          hashTypedData(delegateStatementTypedData(d, statement())),
        )
      }
    const badAddress = vote({ voter: '0x0000000000000000000000000000000000000Zz1' as never })
    expect(() => hashTypedData(voteTypedData(domain, badAddress))).toThrow()
    expect(() => voteId(domain, badAddress)).toThrow(/Address/)
    const shortProposal = vote({ proposal: '0x1234' })
    expect(() => voteId(domain, shortProposal)).toThrow(/Expected bytes32/)
    const textBool = { ...proposal, abstainCountsToQuorum: 'false' as never }
    expect(() => hashTypedData(proposalTypedData(domain, textBool))).toThrow()
    expect(() => proposalId(domain, textBool)).toThrow(/bool/)
  })

  test('behavior: for any vote and any proposal with actions, the id equals viem’s hashTypedData (typedDataDigest’s own encoding against viem’s)', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 40 })
    const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => getAddress(toHex(bytes)))
    const uint32 = fc.integer({ min: 0, max: 2 ** 32 - 1 })
    const seconds = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })
    fc.assert(
      fc.property(
        address,
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.array(uint32, { maxLength: 6 }),
        fc.array(uint32, { maxLength: 6 }),
        text,
        seconds,
        (voter, proposalBytes, choices, weights, reason, timestamp) => {
          const v1 = vote({ voter, proposal: toHex(proposalBytes), choices, reason, timestamp })
          const v2 = voteV2({ voter, proposal: v1.proposal, choices, weights, reason, timestamp })
          expect(voteId(domain, v1)).toBe(hashTypedData(voteTypedData(domain, v1)))
          expect(voteId(domain, v2)).toBe(hashTypedData(voteTypedData(domain, v2)))
        },
      ),
      { numRuns: 200 },
    )
    const action = fc.record({
      target: address,
      value: fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map(String),
      data: fc.uint8Array({ maxLength: 80 }).map((bytes) => toHex(bytes)),
    })
    fc.assert(
      fc.property(
        text,
        text,
        fc.array(action, { maxLength: 3 }),
        fc.boolean(),
        (title, body, actions, flag) => {
          const withActions = {
            ...proposal,
            title,
            body,
            version: 2,
            category: 'Treasury',
            changesSafeSettings: flag,
            abstainCountsToQuorum: !flag,
            actions,
          } as ProposalMessageV2
          expect(proposalId(domain, withActions)).toBe(hashTypedData(proposalTypedData(domain, withActions)))
        },
      ),
      { numRuns: 100 },
    )
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
    'parameters: %s hashes to its digest through hashTypedData and typedDataDigest, and its struct to keccak256(encoded)',
    (_name, vector) => {
      const domain =
        vector.domain.chainId === undefined
          ? vector.domain
          : { ...vector.domain, chainId: BigInt(vector.domain.chainId as number) }
      const message = widen(vector.primaryType, vector.data, vector.types) as Record<string, unknown>
      const typed = { domain, types: vector.types, primaryType: vector.primaryType, message }
      expect(hashTypedData(typed as Parameters<typeof hashTypedData>[0])).toBe(vector.digest)
      expect(typedDataDigest(typed as unknown as TypedDataDefinition)).toBe(vector.digest)
      expect(hashStruct({ data: message, primaryType: vector.primaryType, types: vector.types })).toBe(
        keccak256(vector.encoded),
      )
    },
  )
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

describe('proposal versions (ADR 048)', () => {
  const payment = { target: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: '5', data: '0x' } as const
  const call = {
    target: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    value: '0',
    data: '0xa9059cbb00',
  } as const
  const v2 = (overrides: Partial<ProposalMessageV2> = {}): ProposalMessageV2 => ({
    ...proposal,
    version: 2,
    category: 'Grants',
    changesSafeSettings: false,
    actions: [payment, call],
    ...overrides,
  })

  test('default: a version 1 proposal keeps the id and the signature it had before version 2 existed', async () => {
    // Recorded from the version 1 code before version 2 was added: ids already stored must never change.
    expect(proposalId(domain, proposal)).toBe(
      '0x5b5c239c42081aedababee52be938cfd0761b92953a6b20118611048379ff2a8',
    )
    expect(await author.signTypedData(proposalTypedData(domain, proposal))).toBe(
      '0x9d70ae0f1deff89a286e934ba18f2c0dfd1f2e109a39a40cc9c885d4e343cebb5813a974c83db3a75d0d21746f8011773ce45882d147ff99defb7c6f9046f5ad1c',
    )
    expect(proposalTypedData(domain, proposal).types).not.toHaveProperty('Action')
  })

  test('behavior: version 2 hashes as EIP-712 spells it out: version 1 fields, category, changesSafeSettings, Action[] actions', () => {
    const message = v2()
    const actionType = 'Action(address target,uint256 value,bytes data)'
    const proposalType = `Proposal(address author,string title,string body,string kind,string[] choices,uint64 start,uint64 end,uint64 snapshot,uint256 quorum,uint256 threshold,bool abstainCountsToQuorum,uint64 timestamp,string category,bool changesSafeSettings,Action[] actions)${actionType}`
    const hashText = (text: string) => keccak256(toHex(text))
    const actionHash = (action: ProposalAction) =>
      keccak256(
        encodeAbiParameters(parseAbiParameters('bytes32, address, uint256, bytes32'), [
          hashText(actionType),
          action.target,
          BigInt(action.value),
          keccak256(action.data),
        ]),
      )
    const struct = keccak256(
      encodeAbiParameters(
        parseAbiParameters(
          'bytes32, address, bytes32, bytes32, bytes32, bytes32, uint64, uint64, uint64, uint256, uint256, bool, uint64, bytes32, bool, bytes32',
        ),
        [
          hashText(proposalType),
          message.author,
          hashText(message.title),
          hashText(message.body),
          hashText(message.kind),
          keccak256(concatHex(message.choices.map(hashText))),
          BigInt(message.start),
          BigInt(message.end),
          BigInt(message.snapshot),
          BigInt(message.quorum),
          BigInt(message.threshold),
          message.abstainCountsToQuorum,
          BigInt(message.timestamp),
          hashText(message.category),
          message.changesSafeSettings,
          keccak256(concatHex(message.actions.map(actionHash))),
        ],
      ),
    )
    const typedData = proposalTypedData(domain, message)
    expect(hashStruct({ data: typedData.message, primaryType: 'Proposal', types: typedData.types })).toBe(
      struct,
    )
    expect(proposalId(domain, message)).toBe(hashTypedData(typedData))
  })

  test('behavior: a version 2 signature verifies under its own types only; every signed field changes the id', async () => {
    const message = v2()
    const signature = await author.signTypedData(proposalTypedData(domain, message))
    expect(
      await verifyTypedData({
        ...proposalTypedData(domain, message),
        address: author.address,
        signature,
      } as VerifyTypedDataParameters),
    ).toBe(true)
    const { version: _, category: __, changesSafeSettings: ___, actions: ____, ...asV1 } = message
    const others: ProposalMessage[] = [
      asV1,
      v2({ category: 'Operations' }),
      v2({ changesSafeSettings: true }),
      v2({ actions: [payment] }),
      v2({ actions: [call, payment] }),
      v2({ actions: [{ ...payment, value: '6' }, call] }),
      v2({ actions: [payment, { ...call, data: '0xa9059cbb01' }] }),
    ]
    const ids = new Set([proposalId(domain, message), ...others.map((other) => proposalId(domain, other))])
    expect(ids.size).toBe(others.length + 1)
    for (const other of others) {
      const data = proposalTypedData(domain, other)
      expect(
        await verifyTypedData({ ...data, address: author.address, signature } as VerifyTypedDataParameters),
      ).toBe(false)
    }
    // Without actions or a category it is still version 2, with its own id.
    expect(proposalId(domain, v2({ category: '', actions: [] }))).not.toBe(proposalId(domain, proposal))
  })

  test('behavior: the schema reads version 1 and version 2 JSON back unchanged, ids included', () => {
    const json = JSON.parse(JSON.stringify(v2()))
    expect(proposalMessageSchema.parse(json)).toEqual(v2())
    expect(proposalId(domain, proposalMessageSchema.parse(json))).toBe(proposalId(domain, v2()))
    expect(proposalMessageSchema.parse(JSON.parse(JSON.stringify(proposal)))).toEqual(proposal)
    // `version: 1` spelled out is the same version 1 proposal: the same types, the same id.
    const spelled = proposalMessageSchema.parse({ ...proposal, version: 1 })
    expect(proposalId(domain, spelled)).toBe(proposalId(domain, proposal))
  })

  test.each([
    [
      'actions on a single-choice proposal',
      v2({ kind: 'single-choice', choices: ['A', 'B'] }),
      'actions',
      'Only a basic proposal (For, Against, Abstain) may carry actions: its result says whether to make them',
    ],
    [
      'the settings flag with no actions',
      v2({ changesSafeSettings: true, actions: [] }),
      'changesSafeSettings',
      "A proposal that changes the Safe's settings carries the actions that change them",
    ],
    ['version 3', { ...v2(), version: 3 }, 'version', 'The version must be 1 (or absent) or 2'],
    [
      'a version 1 proposal with a category',
      { ...proposal, category: 'Grants' },
      '',
      'Unrecognized key: "category"',
    ],
    [
      'a version 2 proposal without actions',
      (({ actions: _, ...rest }) => rest)(v2()),
      'actions',
      'Invalid input: expected array, received undefined',
    ],
    [
      'a zero-address target',
      v2({ actions: [{ ...payment, target: '0x0000000000000000000000000000000000000000' }] }),
      'actions.0.target',
      'The target must not be the zero address',
    ],
  ])('parameters: %s is refused at its field with a sentence', (_name, message, path, text) => {
    const parsed = proposalMessageSchema.safeParse(message)
    expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([[path, text]])
  })
})

describe('vote versions (ADR 059)', () => {
  const weighted = voteV2({ choices: [3, 1], weights: [70, 30] })

  test('default: a version 1 vote keeps the id and the signature it had before version 2 existed', async () => {
    // Recorded from the version 1 code before version 2 was added: ids already stored must never change.
    expect(voteId(domain, vote())).toBe('0xe1680fbbf853363a7688ae29e20bc7939052e2bad683b6c5dffa2ae72ed8d7f2')
    expect(await author.signTypedData(voteTypedData(domain, vote()))).toBe(
      '0x816fff70e9bf3e744047fc1524d7333cac55608bca9210b114e2a33ae6d645f452c2b2337e8526d6b4ac67df5264e658efd3e87eabea21b8a7d9a233bb17ad9f1b',
    )
    expect(voteTypedData(domain, { ...vote(), version: 1 })).toEqual(voteTypedData(domain, vote()))
  })

  test('behavior: version 2 hashes as EIP-712 spells it out: voter, proposal, choices, weights, reason, timestamp', () => {
    const voteType =
      'Vote(address voter,bytes32 proposal,uint32[] choices,uint32[] weights,string reason,uint64 timestamp)'
    const hashText = (text: string) => keccak256(toHex(text))
    const uint32s = (values: readonly number[]) =>
      keccak256(concatHex(values.map((value) => encodeAbiParameters(parseAbiParameters('uint32'), [value]))))
    const struct = keccak256(
      encodeAbiParameters(
        parseAbiParameters('bytes32, address, bytes32, bytes32, bytes32, bytes32, uint64'),
        [
          hashText(voteType),
          weighted.voter,
          weighted.proposal,
          uint32s(weighted.choices),
          uint32s(weighted.weights),
          hashText(weighted.reason),
          BigInt(weighted.timestamp),
        ],
      ),
    )
    const typedData = voteTypedData(domain, weighted)
    expect(hashStruct({ data: typedData.message, primaryType: 'Vote', types: typedData.types })).toBe(struct)
    expect(voteId(domain, weighted)).toBe(hashTypedData(typedData))
  })

  test('behavior: a version 2 signature verifies under its own types only; weights and their order change the id', async () => {
    const signature = await author.signTypedData(voteTypedData(domain, weighted))
    const verify = (message: VoteMessage) =>
      verifyTypedData({
        ...voteTypedData(domain, message),
        address: author.address,
        signature,
      } as VerifyTypedDataParameters)
    expect(await verify(weighted)).toBe(true)
    const { version: _, weights: __, ...asV1 } = weighted
    const others: VoteMessage[] = [
      asV1,
      { ...weighted, weights: [30, 70] },
      { ...weighted, weights: [7, 3] },
      { ...weighted, choices: [1, 3] },
      { ...weighted, weights: [70, 31] },
    ]
    const ids = new Set([voteId(domain, weighted), ...others.map((other) => voteId(domain, other))])
    expect(ids.size).toBe(others.length + 1)
    for (const other of others) expect(await verify(other)).toBe(false)
    // With no weights it is still version 2, with its own id.
    expect(voteId(domain, voteV2({ weights: [] }))).not.toBe(voteId(domain, vote()))
  })

  test('behavior: the schema reads version 1 and version 2 JSON back unchanged, ids included', async () => {
    const json = JSON.parse(JSON.stringify(weighted))
    expect(voteMessageSchema.parse(json)).toEqual(weighted)
    expect(voteId(domain, voteMessageSchema.parse(json))).toBe(voteId(domain, weighted))
    expect(voteMessageSchema.parse(JSON.parse(JSON.stringify(vote())))).toEqual(vote())
    const signed = await signGovernanceMessage(author, domain, { type: 'Vote', message: weighted })
    expect(signed.id).toBe(voteId(domain, weighted))
  })

  test.each([
    [
      'a zero weight',
      voteV2({ choices: [1, 2], weights: [1, 0] }),
      'weights.1',
      'Each weight must be at least 1; leave a choice out to give it nothing',
    ],
    [
      'a negative weight',
      voteV2({ weights: [-1] }),
      'weights.0',
      'Each weight must be at least 1; leave a choice out to give it nothing',
    ],
    ['a fractional weight', voteV2({ weights: [1.5] }), 'weights.0', 'Each weight must be a whole number'],
    ['a weight as a string', { ...voteV2(), weights: ['1'] }, 'weights.0', 'Each weight must be a number'],
    ['version 3', { ...voteV2(), version: 3 }, 'version', 'The version must be 1 (or absent) or 2'],
    ['a version 1 vote with weights', { ...vote(), weights: [1] }, '', 'Unrecognized key: "weights"'],
    [
      'a version 2 vote without weights',
      (({ weights: _, ...rest }) => rest)(voteV2()),
      'weights',
      'Invalid input: expected array, received undefined',
    ],
  ])('parameters: %s is refused at its field with a sentence', (_name, message, path, text) => {
    const parsed = voteMessageSchema.safeParse(message)
    expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([[path, text]])
  })
})
