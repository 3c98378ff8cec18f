// The two reference pages the bench compares Guildhall with (scripts/bench/web/reference/*): their production
// builds (Vite, the same React plugin and target as apps/web) and a small server for them on 127.0.0.1.
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import { staticFilesOptions } from '@guildhall/api'
import react from '@vitejs/plugin-react'
import Fastify from 'fastify'
import { build } from 'vite'
import { precompress } from '../harness/bundle.ts'

export type ReferenceName = 'rainbowkit' | 'floor'

export const REFERENCES: Record<ReferenceName, { label: string }> = {
  rainbowkit: { label: 'bare RainbowKit' },
  floor: { label: 'plain wagmi floor' },
}

const sources = join(import.meta.dirname, 'reference')

/** Production build of one reference page into `outDir`, with .br/.gz beside its assets like Guildhall's. */
export async function buildReference(name: ReferenceName, outDir: string): Promise<void> {
  await build({
    configFile: false,
    root: join(sources, name),
    base: '/',
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, manifest: true, target: 'es2022', sourcemap: true },
  })
  await precompress(outDir)
}

/**
 * Serves a reference build the way Guildhall's API serves apps/web (staticFilesOptions of
 * apps/api/src/web/web-shell.ts), so every page gets brotli from the same pre-compressed files (a phone
 * on a slow link pays for bytes on the wire: serving the references uncompressed would make Guildhall look
 * better than it is) and the same cache headers; and POST /rpc/<chainId> proxied to the same anvil.
 */
export async function serveReference(
  dist: string,
  rpc: { chainId: number; upstreamUrl: string },
): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify({ logger: false })
  app.post(`/rpc/${rpc.chainId}`, async (request, reply) => {
    const upstream = await fetch(rpc.upstreamUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request.body),
      signal: AbortSignal.timeout(10_000),
    })
    return reply
      .status(upstream.status)
      .header('content-type', 'application/json')
      .send(await upstream.text())
  })
  await app.register(fastifyStatic, staticFilesOptions(dist))
  const address = await app.listen({ host: '127.0.0.1', port: 0 })
  return { url: `${address}/`, close: () => app.close() }
}
