// The API's reference page (ADR 045): /api/docs/ draws GET /api/openapi.json from this server's own files,
// under the app's Content-Security-Policy, and asks no other host for anything.
import { expect, test } from '../support/fixtures.ts'

// No CSP violation at all on the page (the fixture fails the test on any).
test.use({ expectedCspViolations: [] })

test('the API reference page shows every route of /api/openapi.json and loads nothing from another host', async ({
  page,
  app,
  offOriginRequests,
}) => {
  const requested: string[] = []
  page.on('request', (request) => {
    requested.push(request.url())
  })
  const document: { paths: Record<string, Record<string, unknown>> } = await (
    await page.request.get(`${app.url}/api/openapi.json`)
  ).json()
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => ({ path, method })),
  )
  // Governance, live events, members, names, token, health and the RPC proxy of each local chain.
  expect(operations.length).toBeGreaterThan(20)

  await page.goto(`${app.url}/api/docs/`)
  await expect(page.getByRole('heading', { name: /Guildhall API/ })).toBeVisible()
  // Every operation, under its tag, with its method and path.
  await expect(page.locator('.opblock')).toHaveCount(operations.length)
  for (const { path, method } of operations) {
    await expect(
      page.locator(`.opblock-${method}`).locator(`.opblock-summary-path[data-path="${path}"]`),
      `${method.toUpperCase()} ${path}`,
    ).toHaveCount(1)
  }
  // One opened: its parameters and answers are drawn from the schemas.
  await page.locator('.opblock-summary-path[data-path="/api/proposals/{id}/votes"]').first().click()
  const opened = page.locator('.opblock.is-open')
  await expect(opened.getByText('voter', { exact: true })).toBeVisible()
  await expect(opened.locator('.response[data-code="4XX"]')).toBeVisible()
  await page.waitForLoadState('networkidle')

  expect(requested.length).toBeGreaterThanOrEqual(6)
  for (const url of requested) {
    const { protocol, hostname } = new URL(url)
    if (protocol === 'data:' || protocol === 'blob:') continue
    expect(hostname, url).toBe('127.0.0.1')
  }
  expect(offOriginRequests).toEqual([])
})
