// The built web app: its static files, and index.html for every other GET (the page), written with the
// public config, the app shell and, on a proposal's page, its heading.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import fastifyStatic, { type FastifyStaticOptions } from '@fastify/static'
import {
  APP_SHELL_PLACEHOLDER,
  PUBLIC_CONFIG_ELEMENT_ID,
  PUBLIC_CONFIG_PLACEHOLDER,
  type PublicConfig,
} from '@guildhall/core'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { type GovernanceDeps, seconds } from '../governance/deps.ts'
import { findProposal, proposalSummary } from '../governance/proposals.ts'
import { ApiError } from '../platform/http/errors.ts'
import {
  proposalPageId,
  renderAppShell,
  renderDataPreloads,
  renderFeedLinks,
  renderProposalHeader,
} from './app-shell.ts'

export interface WebShellOptions {
  /** The build's folder (index.html, assets). */
  webDist: string
  publicConfig: PublicConfig
  /** Present when proposals are served: a proposal's page then carries its heading. */
  governance?: GovernanceDeps
}

/** JSON safe inside a <script> element: no way to close the element or open a comment. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

/**
 * @fastify/static options for a Vite build's files as Guildhall serves them (the bench serves its reference
 * pages with them too, so they are compared on equal terms): the pre-compressed copy when the client takes
 * it, hashed assets cached for good, everything else revalidated.
 */
export function staticFilesOptions(root: string): FastifyStaticOptions {
  return {
    root,
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
  }
}

/** On the root scope: the not-found handler it sets answers every path. */
export const webShellPlugin = fp(
  async (app: FastifyInstance, { webDist, publicConfig, governance }: WebShellOptions) => {
    const template = await readFile(join(webDist, 'index.html'), 'utf8')
    if (!template.includes(PUBLIC_CONFIG_PLACEHOLDER))
      throw new Error(`index.html lacks ${PUBLIC_CONFIG_PLACEHOLDER}`)
    const configScript = `<script id="${PUBLIC_CONFIG_ELEMENT_ID}" type="application/json">${scriptSafeJson(publicConfig)}</script>`
    // The shell (active link, the Overview's heading) and the data preloads differ by page. A build
    // without the shell's placeholder still works, it just paints when the JavaScript has run. Functions,
    // not strings: replace() would read `$'` or `$&` in operator text as patterns.
    const indexHtml = (url: string, page: string) =>
      template
        .replace(
          PUBLIC_CONFIG_PLACEHOLDER,
          () => configScript + renderDataPreloads(url) + renderFeedLinks(url, publicConfig.dao.name),
        )
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
    // index.html is never served as a file: the route below writes it.
    await app.register(fastifyStatic, { ...staticFilesOptions(webDist), index: false, wildcard: false })
    const notFound = (request: FastifyRequest) =>
      ApiError.notFound(`No route for ${request.method} ${request.url.split('?')[0]}`)
    // Every other GET is a client route: the page. A route rather than the not-found handler, so the
    // compression hook covers it.
    app.get('/*', async (request, reply) => {
      if (
        request.url.startsWith('/api/') ||
        request.url.startsWith('/rpc/') ||
        request.url.startsWith('/feeds/')
      )
        throw notFound(request)
      const page = await pageContent(request.url)
      return reply.type('text/html').header('cache-control', 'no-cache').send(indexHtml(request.url, page))
    })
    app.setNotFoundHandler(async (request) => {
      throw notFound(request)
    })
  },
  { name: 'guildhall-web-shell' },
)
