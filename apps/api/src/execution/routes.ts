// HTTP for a proposal's execution through the treasury Safe (ADR 051), the simulation of a batch and the
// spending per category: validate strictly, call the service, map its answer.
import {
  actionProblems,
  proposalExecutionSchema,
  safeSignatureRequestSchema,
  simulateRequestSchema,
  simulationSchema,
  treasurySpendingSchema,
} from '@guildhall/core'
import type { FastifyInstance } from 'fastify'
import { requireProposal } from '../governance/proposals.ts'
import { ApiError } from '../platform/http/errors.ts'
import { type ApiTypeProvider, errorAnswers } from '../platform/http/openapi.ts'
import { named, proposalIdParams } from '../platform/http/params.ts'
import type { ExecutionDeps } from './deps.ts'
import { addSignature, proposalExecution, queueExecution } from './executions.ts'
import { simulateActions } from './simulation.ts'
import { spendingByCategory } from './spending.ts'

const SIGNATURE_BODY_LIMIT = 4 * 1024
/** Room for the most actions with the most data (GOVERNANCE_LIMITS), as hex. */
const SIMULATE_BODY_LIMIT = 256 * 1024

const proposalId = named('proposal id', proposalIdParams)

export interface ExecutionRouteOptions {
  deps: ExecutionDeps
  /** Queue, signature and simulation requests each client may make per minute, each route counted apart. */
  rateLimitPerMinute: number
}

export async function executionRoutes(
  app: FastifyInstance,
  { deps, rateLimitPerMinute }: ExecutionRouteOptions,
) {
  const limit = { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } }
  const api = app.withTypeProvider<ApiTypeProvider>()

  api.get(
    '/api/proposals/:id/execution',
    {
      schema: {
        summary:
          'A proposal’s execution through the treasury Safe: its state, queued transaction and signatures',
        tags: ['execution'],
        params: proposalId,
        response: { 200: proposalExecutionSchema, ...errorAnswers },
      },
    },
    async (request) => proposalExecution(deps, await requireProposal(deps.governance, request.params.id)),
  )

  api.post(
    '/api/proposals/:id/execution/queue',
    {
      config: limit,
      schema: {
        summary: 'Queue a passed proposal’s Safe transaction at the next free nonce (simulated first)',
        tags: ['execution'],
        params: proposalId,
        response: { 201: proposalExecutionSchema, ...errorAnswers },
      },
    },
    async (request, reply) => {
      const proposal = await requireProposal(deps.governance, request.params.id)
      return reply.status(201).send(await queueExecution(deps, proposal))
    },
  )

  api.post(
    '/api/proposals/:id/execution/signatures',
    {
      bodyLimit: SIGNATURE_BODY_LIMIT,
      config: limit,
      schema: {
        summary: 'An owner’s signature of the queued Safe transaction (201 stored, 200 the same one again)',
        tags: ['execution'],
        params: proposalId,
        body: named('Safe signature', safeSignatureRequestSchema),
        response: { 200: proposalExecutionSchema, 201: proposalExecutionSchema, ...errorAnswers },
      },
    },
    async (request, reply) => {
      const proposal = await requireProposal(deps.governance, request.params.id)
      const { execution, created } = await addSignature(deps, proposal, request.body)
      return reply.status(created ? 201 : 200).send(execution)
    },
  )

  api.post(
    '/api/treasury/simulate',
    {
      bodyLimit: SIMULATE_BODY_LIMIT,
      config: limit,
      schema: {
        summary: 'Simulate a batch of actions as the treasury Safe would run it, without signatures',
        tags: ['execution'],
        body: named('simulation', simulateRequestSchema),
        response: { 200: simulationSchema, ...errorAnswers },
      },
    },
    async (request) => {
      const { actions, changesSafeSettings } = request.body
      if (deps.safe) {
        const [problem] = actionProblems(actions, { safe: deps.safe, changesSafeSettings })
        if (problem) throw new ApiError(422, 'bad_actions', problem.message)
      }
      return simulateActions(deps, actions)
    },
  )

  api.get(
    '/api/treasury/spending',
    {
      schema: {
        summary: 'What executed proposals paid out, per proposal category and token',
        tags: ['treasury'],
        response: { 200: treasurySpendingSchema, ...errorAnswers },
      },
    },
    async () => spendingByCategory(deps),
  )
}
