// The sign-in, Lighthouse and governance sections of `npm run bench` (the web section is in web.ts).

import { findChromium } from '../../e2e/support/chromium.ts'
import type { BenchContext, SectionResult } from '../bench.ts'
import { formatGovernanceReport, runGovernanceBench } from './governance.ts'
import { formatLighthouseReport, LIGHTHOUSE_BUDGET, runLighthouse } from './lighthouse.ts'
import { formatNamesReport, runNamesBench } from './names.ts'
import { formatSignInReport, runSignInBench } from './sign-in.ts'

/** Sign-in: verify latency and throughput, 1000 accounts at 50 and 200 concurrent, PGlite and PostgreSQL. */
export async function signInSection(ctx: BenchContext): Promise<SectionResult> {
  const result = await runSignInBench({ log: ctx.step })
  return { json: { signIn: result }, report: formatSignInReport(result), misses: 0 }
}

/** Lighthouse on the Overview and a proposal page, desktop and mobile presets. */
export async function lighthouseSection(ctx: BenchContext): Promise<SectionResult> {
  const chromiumPath = findChromium()
  if (!chromiumPath) throw new Error('no Chromium found: install one or set CHROMIUM_PATH')
  const { appUrl } = await ctx.startStack(await ctx.webDist())
  const result = await runLighthouse({ appUrl, chromiumPath, log: ctx.step })
  const misses = result.runs.filter(
    (run) =>
      (run.preset === 'mobile' && (run.scores.performance ?? 0) < LIGHTHOUSE_BUDGET.mobilePerformance) ||
      (run.scores.accessibility ?? 0) < LIGHTHOUSE_BUDGET.accessibility,
  ).length
  return { json: { lighthouse: result }, report: formatLighthouseReport(result), misses }
}

/**
 * Governance: vote ingest (PGlite, PostgreSQL), tally time for 10k / 100k / 1M votes, index speed on 100k
 * transfers, voting-power lookups.
 */
export async function governanceSection(ctx: BenchContext): Promise<SectionResult> {
  const result = await runGovernanceBench({ log: ctx.step })
  return { json: { governance: result }, report: formatGovernanceReport(result), misses: 0 }
}

/** Names: a cold refresh of 1,000 addresses on the local name service, lookups per second and per RPC call. */
export async function namesSection(ctx: BenchContext): Promise<SectionResult> {
  const result = await runNamesBench({ log: ctx.step })
  return { json: { names: result }, report: formatNamesReport(result), misses: 0 }
}
