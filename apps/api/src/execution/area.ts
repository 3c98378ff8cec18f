// The execution area: passed proposals carried out through the treasury Safe (ADR 051), the simulation of
// a batch, and the spending per category. It runs over governance: without it there is none.

import type { GovernanceDeps } from '../governance/deps.ts'
import type { Area, AreaContext } from '../platform/area.ts'
import type { ExecutionDeps } from './deps.ts'
import { executionRoutes } from './routes.ts'

export function executionArea(
  { settings }: AreaContext,
  governance: GovernanceDeps | undefined,
): Area | undefined {
  if (!governance) return undefined
  const deps: ExecutionDeps = {
    governance,
    safe: settings.treasury?.safe ?? null,
    chainId: governance.domain.chainId,
    delaySeconds: settings.execution.delaySeconds,
    expirySeconds: settings.execution.expirySeconds,
  }
  return {
    plugin: async (app) => {
      await app.register(executionRoutes, { deps, rateLimitPerMinute: settings.execution.rateLimitPerMinute })
    },
  }
}
