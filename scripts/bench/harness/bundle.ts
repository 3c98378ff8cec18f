// Bundle figures from a production build (Guildhall's or a reference page's), for the sections that measure pages
// (web, treasury): sizes are of the files on disk, and the import graph from Vite's manifest.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Size } from '../harness/schema.ts'

type ManifestChunk = { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] }

/** Raw and gzip (level 9, each file on its own) bytes of these dist-relative files, e.g. `assets/x.js`. */
export function sizeOf(dist: string, files: string[]): Size {
  let raw = 0
  let gzip = 0
  for (const file of files) {
    const bytes = readFileSync(join(dist, file))
    raw += bytes.length
    gzip += gzipSync(bytes, { level: 9 }).length
  }
  return { files: files.length, raw, gzip }
}

/** Every JavaScript file Vite emitted (source maps excluded). */
export function allJs(dist: string): string[] {
  return readdirSync(join(dist, 'assets'))
    .filter((name) => name.endsWith('.js'))
    .map((name) => `assets/${name}`)
}

/** JS that dist/index.html loads itself: its module scripts and modulepreload links. */
export function indexHtmlJs(dist: string): string[] {
  const html = readFileSync(join(dist, 'index.html'), 'utf8')
  const refs = [
    ...html.matchAll(/<script[^>]*\bsrc="\/([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\/([^"]+\.js)"/g),
  ]
  return [...new Set(refs.map((match) => match[1] as string))]
}

/** The entry chunks of Vite's manifest plus everything they import statically, transitively. */
export function staticGraphJs(dist: string): string[] {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >
  const seen = new Set<string>()
  const visit = (key: string) => {
    const chunk = manifest[key]
    if (!chunk || seen.has(chunk.file)) return
    seen.add(chunk.file)
    for (const imported of chunk.imports ?? []) visit(imported)
  }
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key)
  return [...seen].filter((file) => file.endsWith('.js'))
}

/** The JS files of the manifest's chunks whose source (the manifest's key, e.g. `src/features/x/page.tsx`) matches. */
export function chunksFrom(dist: string, source: (key: string) => boolean): string[] {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >
  return Object.entries(manifest)
    .filter(([key, chunk]) => source(key) && chunk.file.endsWith('.js'))
    .map(([, chunk]) => chunk.file)
}

/**
 * Writes .br and .gz beside each text asset of a build, exactly as apps/web/vite.config.ts's `precompress`
 * plugin does for Guildhall, so the reference pages are served as compressed as Guildhall is.
 */
export function precompress(dist: string): void {
  const assets = join(dist, 'assets')
  for (const name of readdirSync(assets)) {
    if (!/\.(js|css|svg|json)$/.test(name)) continue
    const path = join(assets, name)
    const content = readFileSync(path)
    if (content.length < 1024) continue
    writeFileSync(
      `${path}.br`,
      brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    )
    writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }))
  }
}
