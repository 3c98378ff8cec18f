import { createServer } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { type AnvilInstance, getFreePort, startAnvil } from './anvil.ts'

let anvil: AnvilInstance | undefined
afterEach(async () => {
  await anvil?.stop()
  anvil = undefined
})

async function rpc(url: string, method: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
  })
  return ((await response.json()) as { result: string }).result
}

test('default: answers on 127.0.0.1 with the requested chain id, and stop() ends it', async () => {
  const port = await getFreePort()
  anvil = await startAnvil({ port, chainId: 4242, quiet: true })
  expect(anvil.url).toBe(`http://127.0.0.1:${port}`)
  expect(await rpc(anvil.url, 'eth_chainId')).toBe('0x1092')
  expect(await rpc(anvil.url, 'eth_accounts')).toHaveLength(10)
  await anvil.stop()
  await anvil.stop() // idempotent
  await expect(rpc(anvil.url, 'eth_chainId')).rejects.toThrow()
})

test('behavior: a taken port fails fast with anvil output in the error', async () => {
  const port = await getFreePort()
  const blocker = createServer()
  await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve))
  try {
    await expect(startAnvil({ port, chainId: 31337, quiet: true })).rejects.toThrow(
      /exited early[\s\S]*anvil output/,
    )
  } finally {
    blocker.close()
  }
})
