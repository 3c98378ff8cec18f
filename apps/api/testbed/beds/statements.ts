// The setup the delegate statement tests share (statements, statement-refusals): the demo DAO on a real chain
// (anvil) and a real database (PGlite, or PostgreSQL under scripts/with-postgres.sh), the demo Safes, the app
// on them, and statements signed, published and counted. A test file calls useStatementsBed() once at its
// top; the bindings below are live (ES modules), set by its beforeAll.
import { type DelegateStatementMessage, LOCAL_CHAIN_ID } from '@guildhall/core'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { deploySafes, type SafeDeployment } from '@guildhall/devchain/safe'
import { count, eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import type { Address, Hex, PrivateKeyAccount } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll } from 'vitest'
import { delegateStatements, governanceLog } from '../../src/platform/db/schema.ts'
import type { TestDatabase } from '../../src/platform/db/test-database.ts'
import { demoDomain, member, signStatement } from '../signers.ts'
import { postJson, startTestbed, stopTestbed, testApp } from '../test-app.ts'

export const ada = member(1)
export const ben = member(2)
export const cleo = member(3)
/** An address no other test speaks for: statements need no tokens. */
export const newcomer = () => privateKeyToAccount(generatePrivateKey())
export const stranger = privateKeyToAccount(
  '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318',
)

export let anvil: AnvilInstance
let deployment: DemoDeployment
export let database: TestDatabase
export let app: FastifyInstance
export let domain: ReturnType<typeof demoDomain>
export let safes: SafeDeployment

/** An app sharing this file's database; on PostgreSQL every app on it counts rate limits together. */
export const appOn = (env: Record<string, string> = {}) =>
  testApp(
    { anvil, deployment, database },
    { env: { SIGN_IN: 'off', EXPORT_RATE_LIMIT_PER_MINUTE: '100000', ...env } },
  )

export const post = (url: string, body: unknown) => postJson(app, url, body)
export const statementUrl = (delegate: Address) => `/api/delegates/${delegate}/statement`
export const getStatement = (delegate: string) =>
  app.inject({ method: 'GET', url: `/api/delegates/${delegate}/statement` })

/** A statement by `signer`, signed under `signingDomain` (the DAO's unless a test forges one). */
export const signedStatement = (
  signer: PrivateKeyAccount,
  overrides: Partial<DelegateStatementMessage> = {},
  signingDomain = domain,
) => signStatement(signer, signingDomain, overrides)

/** The request body of a signed statement: exactly the message and the signature. */
export const publish = (delegate: Address, { message, signature }: { message: unknown; signature: Hex }) =>
  post(statementUrl(delegate), { message, signature })

export const versionsOf = async (delegate: Address) =>
  (
    await database.db
      .select({ n: count() })
      .from(delegateStatements)
      .where(eq(delegateStatements.delegate, delegate))
  )[0]?.n ?? 0
export const logEntriesOf = async (messageId: Hex) =>
  database.db.select().from(governanceLog).where(eq(governanceLog.messageId, messageId))

/** Starts the bed before the file's tests and stops it after them. */
export function useStatementsBed() {
  beforeAll(async () => {
    ;({ anvil, deployment, database } = await startTestbed())
    safes = await deploySafes({ rpcUrl: anvil.url, chainId: LOCAL_CHAIN_ID })
    domain = demoDomain(deployment)
    app = await appOn()
  }, 60_000)
  afterAll(() => stopTestbed({ anvil, database }, app))
}
