import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import wasm from 'vite-plugin-wasm'

/**
 * Writes .br and .gz next to every text asset, so the server sends them pre-compressed (no CPU per
 * request). A phone on a slow link pays for bytes on the wire, not for bytes on disk.
 */
function precompress(): Plugin {
  let outDir = 'dist'
  return {
    name: 'guildhall:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir
    },
    async closeBundle() {
      const assets = join(outDir, 'assets')
      for (const name of await readdir(assets)) {
        if (!/\.(js|css|svg|json)$/.test(name)) continue
        const path = join(assets, name)
        const content = await readFile(path)
        if (content.length < 1024) continue
        await writeFile(
          `${path}.br`,
          brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        )
        await writeFile(`${path}.gz`, gzipSync(content, { level: 9 }))
      }
    },
  }
}

/**
 * Writes the first page's stylesheets (≈ 5 KiB) into index.html instead of linking them: the shell the
 * server renders there can paint as soon as the HTML has arrived, without a round trip for its CSS.
 * Stylesheets with url() references (relative to /assets/) stay linked.
 */
function inlineEntryCss(): Plugin {
  return {
    name: 'guildhall:inline-entry-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        return html.replace(
          /<link rel="stylesheet"[^>]*? href="\/(assets\/[^"]+\.css)"[^>]*>/g,
          (tag, fileName: string) => {
            const asset = context.bundle?.[fileName]
            if (asset?.type !== 'asset') return tag
            const css = String(asset.source)
            return css.includes('url(') || css.includes('</') ? tag : `<style>${css.trim()}</style>`
          },
        )
      },
    },
  }
}

/**
 * RainbowKit's transaction store asks wagmi for a "public client" only to hand it to viem's
 * waitForTransactionReceipt function, which works on the bare client (viem's actions fall back to their
 * functions). wagmi's getPublicClient attaches every public action of viem, and with them their signature
 * and ABI code: ≈ 45 KiB gzip loaded with the wallet kit for nothing. Here it returns the bare client.
 * Our code must not rely on it: biome.json forbids `usePublicClient` / `getPublicClient` in it (use
 * `useClient` and viem's action functions, as the delegation panel does). ADR 012.
 */
function barePublicClient(): Plugin {
  return {
    name: 'guildhall:bare-public-client',
    enforce: 'pre',
    load(id) {
      if (!id.endsWith('/@wagmi/core/dist/esm/actions/getPublicClient.js')) return
      return "export { getClient as getPublicClient } from './getClient.js'\n"
    },
  }
}

/**
 * RainbowKit imports ua-parser-js (≈ 12 KiB gzip, a database of browsers, engines, devices and systems)
 * only to read `os.name` once and pick a wallet's desktop download link for Windows, macOS or Linux.
 * Inside RainbowKit, and nowhere else, it gets a stand-in that reads just that (ADR 014); a unit test
 * holds the stand-in to ua-parser-js's answers.
 */
function rainbowKitUserAgentStandIn(): Plugin {
  const standIn = join(import.meta.dirname, 'src/wallet-kit/ua-parser-for-rainbowkit.ts')
  return {
    name: 'guildhall:rainbowkit-ua-parser',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === 'ua-parser-js' && importer?.includes('/@rainbow-me/rainbowkit/dist/')) return standIn
    },
  }
}

export default defineConfig({
  plugins: [barePublicClient(), rainbowKitUserAgentStandIn(), react(), precompress(), inlineEntryCss()],
  build: {
    target: 'es2022',
    sourcemap: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'vendor', tags: ['$initial'], test: /[\\/]node_modules[\\/]/, priority: 2 },
            { name: 'app', tags: ['$initial'], priority: 1 },
          ],
        },
      },
    },
  },
  // The recount's recovery workers run libsecp256k1 compiled to WebAssembly (tiny-secp256k1, which imports
  // its .wasm as an ES module): only the workers load it, and only when a member asks for a recount (ADR 083).
  worker: { format: 'es', plugins: () => [wasm()] },
  server: { host: '127.0.0.1' },
})
