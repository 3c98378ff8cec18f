// Shared by the layout specs: what a reader sees of addresses.
import type { Page } from '@playwright/test'
import { expect } from '../support/fixtures.ts'

/**
 * No address on the page is broken across lines: every run of an address's digits as written (a full
 * address's half, components/full-address.tsx, or a shortened address, 0x12…abcd) lies on one line.
 */
export async function expectAddressesWhole(page: Page) {
  const broken = await page.evaluate(() => {
    const found: string[] = []
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of (node.textContent ?? '').matchAll(/0x[0-9a-fA-F]{2,}(?:…[0-9a-fA-F]{4})?/g)) {
        const range = document.createRange()
        range.setStart(node, match.index)
        range.setEnd(node, match.index + match[0].length)
        const lines = new Set(
          [...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)),
        )
        if (lines.size > 1) found.push(match[0])
      }
    }
    return found
  })
  expect(broken, 'addresses broken across lines').toEqual([])
}
