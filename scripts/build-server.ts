/**
 * The production server as plain JavaScript (ADR 066): apps/api/src/server.ts and everything it imports,
 * ours and the libraries', bundled by esbuild into one ES module, `apps/api/dist/server.js`, which
 * `node apps/api/dist/server.js` runs with no TypeScript loader. Beside it: the committed migrations
 * (`drizzle/`, which the bundle finds next to itself) and the signature worker (`recover-worker.mjs`,
 * loaded by its URL, so never bundled). `npm run build` runs it after the web app's build.
 *
 *   npx tsx scripts/build-server.ts
 */
import { existsSync } from 'node:fs'
import { cp, mkdir, readFile, rm } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'

const root = resolve(import.meta.dirname, '..')
const api = join(root, 'apps/api')
/** Where `npm run build` writes it. */
const SERVER_DIST = join(api, 'dist')

/**
 * Packages left to node_modules, imported at run time: those with files of their own beside their code
 * (PGlite's WebAssembly and data, Piscina's worker, the API page's static files, @fastify/swagger's own
 * package.json, pino's transport workers), with native parts (pg's optional pg-native, ws's bufferutil and
 * utf-8-validate), and their dependants. Bundled, a package that finds a file from `__dirname` would look in
 * dist/; the build refuses one (`refuseFileFinders`).
 */
export const EXTERNAL = [
  '@electric-sql/pglite',
  'pg',
  'piscina',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  'pino',
  'bufferutil',
  'utf-8-validate',
]
/** Files the bundle loads by their URL beside it, copied when they exist. */
const BESIDE = [{ from: join(api, 'src/platform/signatures/recover-worker.mjs'), to: 'recover-worker.mjs' }]

export type ServerBuild = { outDir: string; serverFile: string; bytes: number }

/** Bundles the server into `outDir` (emptied first), with the migrations and worker beside it. */
export async function buildServer({ outDir = SERVER_DIST }: { outDir?: string } = {}): Promise<ServerBuild> {
  await rm(outDir, { recursive: true, force: true })
  await mkdir(outDir, { recursive: true })
  const serverFile = join(outDir, 'server.js')
  const result = await build({
    // The metafile's paths (read below) are relative to the repository, wherever the build is run from.
    absWorkingDir: root,
    entryPoints: [join(api, 'src/server.ts')],
    outfile: serverFile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    external: EXTERNAL,
    // The libraries written as CommonJS call require() for Node's modules and the external packages; an ES
    // module has no require, so the bundle makes one that resolves from where it lies.
    banner: {
      js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);",
    },
    plugins: [sameCopyOfExternals(outDir)],
    metafile: true,
    logLevel: 'warning',
  })
  await refuseFileFinders(Object.keys(result.metafile.inputs))
  await cp(join(api, 'drizzle'), join(outDir, 'drizzle'), { recursive: true })
  for (const file of BESIDE) {
    await cp(file.from, join(outDir, file.to)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error
    })
  }
  return { outDir, serverFile, bytes: result.metafile.outputs[relative(root, serverFile)]?.bytes ?? 0 }
}

/** The package a file of node_modules belongs to (scoped or not), or undefined for our own code. */
function packageOf(input: string): string | undefined {
  return input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/)?.[1]
}

/**
 * Fails the build when bundled library code uses `__dirname` or `__filename`: in the bundle they would not
 * name the library's folder, so such a package must stay external (EXTERNAL).
 */
export async function refuseFileFinders(inputs: string[]): Promise<void> {
  const finders = new Set<string>()
  for (const input of inputs) {
    const name = packageOf(input)
    if (!name) continue
    const code = await readFile(join(root, input), 'utf8')
    if (/\b__(dirname|filename)\b/.test(code)) finders.add(name)
  }
  if (finders.size > 0) {
    throw new Error(
      `These packages find files beside their own code and cannot be bundled; add them to EXTERNAL in scripts/build-server.ts: ${[...finders].join(', ')}`,
    )
  }
}

/**
 * An external package is imported from the bundle's folder at run time, so it must be the copy its importer
 * would have found: a package nested under another's node_modules (another version) fails the build.
 */
function sameCopyOfExternals(outDir: string): Plugin {
  const names = EXTERNAL.map((name) => name.replace(/[/.]/g, '\\$&'))
  return {
    name: 'same-copy-of-externals',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^(${names.join('|')})(/|$)`) }, (args) => {
        const name = EXTERNAL.find((n) => args.path === n || args.path.startsWith(`${n}/`)) as string
        const fromImporter = packageFolder(name, args.resolveDir)
        const fromBundle = packageFolder(name, outDir)
        if (fromImporter !== fromBundle) {
          return {
            errors: [
              {
                text: `${name}: ${relative(root, args.importer)} uses ${fromImporter}, the bundle would load ${fromBundle}`,
              },
            ],
          }
        }
        return { path: args.path, external: true }
      })
    },
  }
}

/** The folder Node finds package `name` in from `dir`: the first node_modules up the tree that has it. */
function packageFolder(name: string, dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, 'node_modules', name)
    if (existsSync(candidate)) return candidate
    if (dirname(at) === at) return undefined
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = await buildServer()
  console.log(`built ${relative(root, built.serverFile)} (${(built.bytes / 1024 / 1024).toFixed(1)} MiB)`)
}
