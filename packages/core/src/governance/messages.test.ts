import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import {
  type Hex,
  hashStruct,
  hashTypedData,
  keccak256,
  type TypedDataDefinition,
  type VerifyTypedDataParameters,
  verifyTypedData,
} from 'viem'
import { describe, expect, test } from 'vitest'
import {
  delegateStatementId,
  delegateStatementTypedData,
  proposalId,
  proposalMessageSchema,
  proposalTypedData,
  signGovernanceMessage,
  voteId,
  voteMessageSchema,
  voteTypedData,
} from './messages.ts'
import { author, domain, proposal, statement, vote } from './messages-test-helpers.ts'

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
