import { type Address, getAddress } from 'viem'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { ApiRequestError } from './api.ts'
import { fetchName } from './names.tsx'

afterEach(() => {
  vi.unstubAllGlobals()
})

const address = (i: number) => getAddress(`0x${i.toString(16).padStart(40, '0')}`) as Address

/** A server that names every address `name-<last hex digits>` and records the addresses of each request. */
function namingServer() {
  const requests: string[][] = []
  vi.stubGlobal('fetch', async (url: string) => {
    const addresses = new URL(url, 'http://app').searchParams.get('addresses')?.split(',') ?? []
    requests.push(addresses)
    const names = addresses.map((a) => ({
      address: a,
      name: `name-${Number.parseInt(a.slice(-4), 16)}.eth`,
      avatarUrl: null,
      pending: false,
    }))
    return new Response(JSON.stringify({ names }), { headers: { 'content-type': 'application/json' } })
  })
  return requests
}

describe('fetchName: the asks of one tick share requests', () => {
  test('behavior: 150 addresses asked together go as one request of 100 and one of 50', async () => {
    const requests = namingServer()
    const answers = await Promise.all(Array.from({ length: 150 }, (_, i) => fetchName(address(i + 1))))
    expect(requests.map((r) => r.length)).toEqual([100, 50])
    expect(answers.map((a) => a.name)).toEqual(Array.from({ length: 150 }, (_, i) => `name-${i + 1}.eth`))
  })

  test('behavior: one address asked twice in a tick is sent once and answers both', async () => {
    const requests = namingServer()
    const [first, second] = await Promise.all([fetchName(address(7)), fetchName(address(7))])
    expect(requests).toEqual([[address(7)]])
    expect(first).toEqual(second)
    expect(first?.name).toBe('name-7.eth')
  })

  test('behavior: asks in later ticks go in a later request', async () => {
    const requests = namingServer()
    await fetchName(address(1))
    await fetchName(address(2))
    expect(requests).toEqual([[address(1)], [address(2)]])
  })

  test('failure: a refused request fails every ask it carried, with the server’s sentence', async () => {
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response(JSON.stringify({ error: 'Too Many Requests', message: 'Slow down.' }), {
          status: 429,
          headers: { 'content-type': 'application/json' },
        }),
    )
    const asks = [fetchName(address(1)), fetchName(address(2))]
    for (const ask of asks)
      await expect(ask).rejects.toEqual(new ApiRequestError(429, 'Slow down.', 'Too Many Requests'))
  })
})
