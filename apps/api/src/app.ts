import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import fastifyCompress from '@fastify/compress'
import fastifyCookie from '@fastify/cookie'
import fastifyCors from '@fastify/cors'
import fastifyHelmet from '@fastify/helmet'
import fastifyRateLimit from '@fastify/rate-limit'
import fastifyStatic from '@fastify/static'
import {
  APP_SHELL_PLACEHOLDER,
  governanceDomain,
  HTTP_TIMEOUT_MS,
  PUBLIC_CONFIG_ELEMENT_ID,
  PUBLIC_CONFIG_PLACEHOLDER,
} from '@guildhall/core'
import { signInStatement } from '@guildhall/core/siwe'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { type Address, createPublicClient, http, type PublicClient, withTimeout } from 'viem'
import { proposalPageId, renderAppShell, renderDataPreloads, renderProposalHeader } from './app-shell.ts'
import { contentSecurityPolicy } from './csp.ts'
import type { Database } from './db/client.ts'
import type { Settings } from './env.ts'
import { ApiError } from './errors.ts'
import { TokenIndex } from './indexer/token-index.ts'
import { errorsPlugin } from './plugins/errors.ts'
import { authRoutes } from './routes/auth.ts'
import { governanceRoutes } from './routes/governance.ts'
import { rpcProxyRoutes } from './rpc-proxy.ts'
import { findProposal, type GovernanceDeps, proposalSummary, seconds } from './services/governance.ts'

export interface AppDeps {
  settings: Settings
  /** Required when sign-in is on. */
  database?: Database
  logger?: boolean | { level: string }
  now?: () => Date
}

/** JSON safe inside a <script> element: no way to close the element or open a comment. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

const CONTRACT_CHECK_TIMEOUT_MS = 5_000
/** How long a holders request waits for the token index's first sync before answering 503. */
const HOLDERS_WAIT_MS = 5_000
/** Methods that change nothing; any other one needs our Origin. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
/** Builds the HTTP app; never listens (tests use inject(), server.ts listens). */
export async function buildApp({
  settings,
  database,
  logger = false,
  now = () => new Date(),
}: AppDeps): Promise<FastifyInstance> {
  const { timeouts } = settings
  const app = Fastify({
    logger,
    bodyLimit: 64 * 1024,
    // Bounds on what a client may hold open: a request whose headers or body trickle in (or stop) gets
    // 408, a connection silent mid-request is closed, an idle keep-alive connection is closed.
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      headersTimeout: timeouts.headersMs,
      // Node checks the request and headers timeouts on this interval (30 s by default), so a late check
      // would stretch them; a small fraction of the headers timeout keeps them close to their values.
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(timeouts.headersMs / 4))),
    },
  })
  const { publicConfig } = settings
  const daoChain = settings.chains[0]

  const origin = publicConfig.appUrl
  const https = origin.startsWith('https://')

  await app.register(errorsPlugin, { database })

  // Only JSON bodies: form and text bodies (what a cross-site form can send) are refused with 415.
  app.removeContentTypeParser('text/plain')
  // Session-bearing answers are never compressed: a body holding a secret next to text an attacker chose
  // would leak the secret through its compressed size (BREACH). Added before the plugin's own onRoute hook.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/auth/')) route.compress = false
  })
  // Before every route, so the page, /rpc and /api answers are covered; static files arrive pre-compressed.
  // Its brotli quality defaults to 4 (near gzip's speed) for bodies made per request; the build's files use 11.
  await app.register(fastifyCompress)
  await app.register(fastifyCookie)
  await app.register(fastifyHelmet, {
    // The full policy, built from the settings (chains' RPC hosts, the configured wallets' SDK hosts).
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(settings) },
    frameguard: false,
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginEmbedderPolicy: false,
    hsts: https,
  })
  await app.register(fastifyCors, { origin: [origin], credentials: true })
  await app.register(fastifyRateLimit, { global: false })

  // Cookies ride along on cross-site requests: every request that may change something must come from our
  // own pages, whatever path it names and however that path is spelled (the router decodes `%61pi` and
  // takes absolute-form targets, so the URL's text proves nothing). Only routes that read no cookie and
  // must serve other origins say so (`config.anyOrigin`: /rpc, called by wallets from their own origin).
  app.addHook('onRequest', async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return
    if ((request.routeOptions.config as { anyOrigin?: boolean }).anyOrigin === true) return
    if (request.headers.origin !== origin) {
      return reply
        .status(403)
        .send({ error: 'bad_origin', message: 'This request must come from the Guildhall app itself.' })
    }
  })

  app.get('/api/health', async () => ({ status: 'ok' }))
  // Ready = able to serve: the database answers.
  app.get('/api/ready', async () => {
    if (database && !(await database.ping()))
      throw ApiError.databaseUnavailable('The database does not answer.')
    return { status: 'ready' }
  })

  if (publicConfig.signIn) {
    if (!database) throw new Error('Sign-in is on, so buildApp needs a database')
    // Short timeout: only contract-account sign-ins wait on the chain, and they get a 503 rather than hang.
    const clients = new Map(
      settings.chains.map((chain) => [
        chain.id,
        createPublicClient({
          transport: http(chain.upstreamRpcUrl, { timeout: CONTRACT_CHECK_TIMEOUT_MS, retryCount: 1 }),
        }),
      ]),
    )
    await app.register(authRoutes, {
      deps: {
        db: database.db,
        now,
        policy: {
          domain: new URL(origin).host,
          origin,
          allowedChainIds: settings.chains.map((chain) => chain.id),
          statement: signInStatement(publicConfig.dao.name),
        },
        clientFor: (chainId) => clients.get(chainId) as PublicClient | undefined,
      },
      secure: https,
      rateLimitPerMinute: settings.authRateLimitPerMinute,
    })
  }

  // The token index (issue 5): follows the governance token's events into the database in the background,
  // and answers holders and voting power locally. Without a database there is nothing to keep it in.
  const daoClient = daoChain
    ? (createPublicClient({
        transport: http(daoChain.upstreamRpcUrl, { timeout: HTTP_TIMEOUT_MS }),
        batch: { multicall: true },
      }) as PublicClient)
    : undefined
  const tokenIndex =
    publicConfig.token && daoChain && daoClient && database
      ? new TokenIndex({
          db: database.db,
          client: daoClient,
          chainId: daoChain.id,
          token: publicConfig.token.address as Address,
          fromBlock: settings.tokenDeployBlock,
          confirmations: settings.tokenIndexConfirmations,
          multicall3: daoChain.multicall3,
          logger: app.log,
        })
      : undefined
  let governance: GovernanceDeps | undefined
  if (tokenIndex && daoClient && database && publicConfig.token) {
    app.addHook('onReady', async () => tokenIndex.start())
    app.addHook('onClose', async () => tokenIndex.stop())
    governance = {
      database,
      client: daoClient,
      tokenIndex,
      domain: governanceDomain({ chainId: publicConfig.token.chainId, token: publicConfig.token.address }),
      rules: publicConfig.governance,
      snapshotMaxAgeBlocks: settings.snapshotMaxAgeBlocks,
      now,
    }
    await app.register(governanceRoutes, {
      deps: governance,
      writeRateLimitPerMinute: settings.governanceRateLimitPerMinute,
      exportRateLimitPerMinute: settings.exportRateLimitPerMinute,
    })
  }

  app.get('/api/token/holders', async (_request, reply) => {
    if (!tokenIndex)
      return reply.status(404).send({ error: 'no_token', message: 'No governance token is configured.' })
    try {
      // Before the first sync has finished, this request waits for it (bounded): the figure is then exact.
      const stats =
        (await tokenIndex.holders()) ??
        (await withTimeout(() => tokenIndex.syncOnce(), { timeout: HOLDERS_WAIT_MS }).then(() =>
          tokenIndex.holders(),
        ))
      if (!stats) throw new Error('token index not ready')
      return { holders: stats.holders, blockNumber: String(stats.blockNumber) }
    } catch {
      throw ApiError.chainUnavailable()
    }
  })

  // Local development chains are served from the app's own origin so the browser needs one URL.
  await app.register(rpcProxyRoutes, { chains: settings.chains.filter((chain) => chain.proxied) })

  if (settings.webDist) {
    const template = await readFile(join(settings.webDist, 'index.html'), 'utf8')
    if (!template.includes(PUBLIC_CONFIG_PLACEHOLDER))
      throw new Error(`index.html lacks ${PUBLIC_CONFIG_PLACEHOLDER}`)
    const configScript = `<script id="${PUBLIC_CONFIG_ELEMENT_ID}" type="application/json">${scriptSafeJson(publicConfig)}</script>`
    // The shell (active link, the Overview's heading) and the data preloads differ by page. A build
    // without the shell's placeholder still works, it just paints when the JavaScript has run. Functions,
    // not strings: replace() would read `$'` or `$&` in operator text as patterns.
    const indexHtml = (url: string, page: string) =>
      template
        .replace(PUBLIC_CONFIG_PLACEHOLDER, () => configScript + renderDataPreloads(url))
        .replace(APP_SHELL_PLACEHOLDER, () => renderAppShell(publicConfig, url, page))
    // A proposal's page carries its heading; a proposal that cannot be read (unknown, database down)
    // leaves it out, and the page says why once its code runs.
    const pageContent = async (url: string): Promise<string> => {
      const id = proposalPageId(url)
      if (!id || !governance) return ''
      try {
        const proposal = await findProposal(governance, id)
        if (!proposal) return ''
        const nowSeconds = seconds(governance.now())
        return renderProposalHeader({ ...proposalSummary(proposal, nowSeconds), now: nowSeconds })
      } catch (error) {
        app.log.warn({ err: error }, 'the page shell goes without the proposal heading')
        return ''
      }
    }
    await app.register(fastifyStatic, {
      root: settings.webDist,
      index: false,
      wildcard: false,
      // The build writes .br and .gz beside each asset (apps/web/vite.config.ts).
      preCompressed: true,
      // Our setHeaders decides caching; the plugin's own header would replace it with max-age=0.
      cacheControl: false,
      setHeaders(res, path) {
        // Vite's hashed assets never change; everything else is revalidated.
        res.setHeader(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        )
      },
    })
    const notFound = (request: FastifyRequest, reply: FastifyReply) =>
      reply.status(404).send({
        error: 'not_found',
        message: `No route for ${request.method} ${request.url.split('?')[0]}`,
      })
    // Every other GET is a client route: the page. A route rather than the not-found handler, so the
    // compression hook covers it.
    app.get('/*', (request, reply) => {
      if (request.url.startsWith('/api/') || request.url.startsWith('/rpc/')) return notFound(request, reply)
      return pageContent(request.url).then((page) =>
        reply.type('text/html').header('cache-control', 'no-cache').send(indexHtml(request.url, page)),
      )
    })
    app.setNotFoundHandler(notFound)
  }

  return app
}
