// The discussion section's browser figures: the proposal page's cold load until its thread's first comment
// shows, the 10,000-comment thread's page and the 10-comment one's interleaved (the harness's desktop and
// phone profiles, a fresh context each), as the treasury section times its page.
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { loadUntilShown, PROFILES } from '../harness/browser.ts'
import type { DiscussionBenchResult } from '../harness/schema.ts'
import { spread } from '../harness/stats.ts'

const LOADS_PER_PROFILE = 5

/** What "shown" means: the proposal's title and the thread's first comment each have a box. */
const THREAD_SHOWN_SELECTORS = ['h1', '#discussion [data-testid="comment"]']

type ThreadPageLoad = DiscussionBenchResult['browser']['pageLoads'][number]

/** Cold loads of each proposal page (`pages`: comments → URL) on every profile, interleaved. */
export async function threadLoads(
  browser: Browser,
  pages: { comments: number; url: string }[],
  failureDir: string,
): Promise<ThreadPageLoad[]> {
  const loads: ThreadPageLoad[] = []
  for (const profile of PROFILES) {
    const samples = pages.map(() => [] as number[])
    for (let i = 0; i < LOADS_PER_PROFILE; i++) {
      for (const [p, { comments, url }] of pages.entries()) {
        const context = await browser.newContext({ ...profile.context, locale: 'en-US' })
        try {
          const failure = join(failureDir, `failed-discussion-${profile.name}-${comments}.png`)
          samples[p]?.push(await loadUntilShown(context, profile, url, THREAD_SHOWN_SELECTORS, failure))
        } finally {
          await context.close()
        }
      }
    }
    for (const [p, { comments }] of pages.entries())
      loads.push({ profile: profile.name, comments, shownMs: spread(samples[p] ?? []) })
  }
  return loads
}
