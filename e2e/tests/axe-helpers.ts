// axe-core (@axe-core/playwright) on a page as it is now: the accessibility spec's check, shared with the
// specs of pages whose full state needs a fixture of their own (the treasury's Safe).
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']

/** A violation axe may report without failing the test: one rule, on the elements a selector names. */
export interface KnownIssue {
  rule: string
  selector: string
}

/** A violation as reported: the rule, and each failing element's CSS path with axe's summary. */
interface Finding {
  rule: string
  nodes: { target: string; summary: string }[]
}

/**
 * axe's findings on the page as it is now, in a form that reads well in a failed assertion, less the
 * given known issues; `excused` counts the elements those covered, so a fixed issue shows up.
 */
export async function axeFindings(
  page: Page,
  known: KnownIssue[] = [],
): Promise<{ findings: Finding[]; excused: number }> {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze()
  let excused = 0
  const findings: Finding[] = []
  for (const violation of violations) {
    const nodes: Finding['nodes'] = []
    for (const node of violation.nodes) {
      const target = node.target.join(' ')
      const selectors = known.filter((issue) => issue.rule === violation.id).map((issue) => issue.selector)
      const isKnown =
        selectors.length > 0 &&
        (await page.evaluate(
          ({ target, selectors }) =>
            selectors.some((selector) => document.querySelector(target)?.matches(selector) === true),
          { target, selectors },
        ))
      if (isKnown) excused += 1
      else nodes.push({ target, summary: node.failureSummary ?? '' })
    }
    if (nodes.length > 0)
      findings.push({ rule: `${violation.id} (${violation.impact}): ${violation.help}`, nodes })
  }
  return { findings, excused }
}
