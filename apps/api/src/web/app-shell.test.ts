import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { APP_SHELL_PLACEHOLDER, glossaryEntry, MAIN_NAV, PUBLIC_CONFIG_PLACEHOLDER } from '@guildhall/core'
import { describe, expect, test } from 'vitest'
import {
  escapeHtml,
  renderAppShell,
  renderDataPreloads,
  renderFeedLinks,
  renderProposalHeader,
} from './app-shell.ts'

const dao = { name: 'Guildhall Demo DAO', description: 'A demo community.' }

/** The links' text and whether each is the current page, in order. */
function links(html: string): Array<{ text: string; current: boolean }> {
  return [...html.matchAll(/<a([^>]*)>([^<]*)<\/a>/g)].map((match) => ({
    text: match[2] ?? '',
    current: (match[1] ?? '').includes('aria-current="page"'),
  }))
}

describe('renderAppShell', () => {
  test('default: the Overview gets the header, the DAO heading and its description', () => {
    const html = renderAppShell({ dao }, '/')
    expect(html).toBe(
      '<header class="header">' +
        '<a aria-current="page" class="brand active" href="/" data-discover="true">Guildhall Demo DAO</a>' +
        '<nav class="nav" aria-label="Main">' +
        '<a aria-current="page" class="active" href="/" data-discover="true">Overview</a>' +
        '<a class="" href="/proposals" data-discover="true">Proposals</a>' +
        '<a class="" href="/discussions" data-discover="true">Discussions</a>' +
        '<a class="" href="/members" data-discover="true">Members</a>' +
        '<a class="" href="/treasury" data-discover="true">Treasury</a>' +
        '</nav>' +
        '<div class="connect"><div class="connect-slot">' +
        '<button type="button" class="connect-stand-in" style="visibility:hidden" tabindex="-1">Connect Wallet</button>' +
        '</div></div></header>' +
        '<div class="notices" aria-live="assertive"></div>' +
        '<main class="main"><article class="page"><header class="page-header">' +
        '<h1>Guildhall Demo DAO</h1><p class="lead">A demo community.</p>' +
        '</header></article></main>',
    )
  })

  test('behavior: other pages get the header with their section current, and an empty main', () => {
    for (const [url, current] of [
      ['/proposals', 'Proposals'],
      ['/proposals/12?tab=votes', 'Proposals'],
      ['/Members/', 'Members'],
      ['/treasury#top', 'Treasury'],
      ['/discussions/0xab', 'Discussions'],
    ] as const) {
      const html = renderAppShell({ dao }, url)
      expect(links(html), url).toEqual([
        { text: dao.name, current: false },
        ...MAIN_NAV.map((item) => ({ text: item.label, current: item.label === current })),
      ])
      expect(html, url).toContain('<main class="main"></main>')
    }
  })

  test('behavior: a page outside the navigation has no current link', () => {
    for (const url of ['/account/sessions', '/proposalsx', '/nowhere?x=/']) {
      expect(
        links(renderAppShell({ dao }, url)).some((link) => link.current),
        url,
      ).toBe(false)
    }
  })

  test("behavior: with sign-in on, the header keeps the session line's place, empty as in React's first render", () => {
    const html = renderAppShell({ dao, signIn: true }, '/proposals')
    expect(html).toContain('</div></div><div class="session"></div></header>')
    expect(renderAppShell({ dao, signIn: false }, '/proposals')).not.toContain('class="session"')
  })

  test('behavior: the Overview without a description has no lead paragraph', () => {
    const html = renderAppShell({ dao: { name: 'Plain DAO', description: '' } }, '/?ref=x')
    expect(html).toContain('<header class="page-header"><h1>Plain DAO</h1></header>')
    expect(html).not.toContain('class="lead"')
  })

  test('behavior: the DAO name and description are operator text, escaped wherever they appear', () => {
    const hostile = {
      name: `<script>alert("x")</script>'&amp;`,
      description: `</p><img src=x onerror="alert('y')"> $' $&`,
    }
    const html = renderAppShell({ dao: hostile }, '/')
    expect(html).not.toContain('<script')
    expect(html).not.toContain('<img')
    const escapedName = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;amp;'
    // Twice: the brand link and the heading.
    expect(html.split(escapedName)).toHaveLength(3)
    expect(html).toContain(
      `<p class="lead">&lt;/p&gt;&lt;img src=x onerror=&quot;alert(&#39;y&#39;)&quot;&gt; $&#39; $&amp;</p>`,
    )
  })
})

describe('escapeHtml', () => {
  test('behavior: escapes the five characters that can end text or a quoted attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    )
    expect(escapeHtml('Guildhall — DAO ✓')).toBe('Guildhall — DAO ✓')
  })
})

test('default: the web app’s index.html holds both placeholders, the shell inside #root', () => {
  const html = readFileSync(join(import.meta.dirname, '../../../web/index.html'), 'utf8')
  expect(html).toContain(PUBLIC_CONFIG_PLACEHOLDER)
  expect(html).toContain(`<div id="root">${APP_SHELL_PLACEHOLDER}</div>`)
})

describe('renderDataPreloads', () => {
  const id = `0x${'ab12'.repeat(16)}`

  test("default: a proposal's page preloads its detail, as the page fetches it", () => {
    for (const url of [`/proposals/${id}`, `/proposals/${id}/`, `/proposals/${id}?tab=votes#top`]) {
      expect(renderDataPreloads(url), url).toBe(
        `<link rel="preload" href="/api/proposals/${id}" as="fetch" crossorigin>`,
      )
    }
  })

  test('behavior: other pages, and ids the API would refuse, preload nothing', () => {
    for (const url of [
      '/',
      '/proposals',
      '/proposals/new',
      `/proposals/${id.toUpperCase().replace('0X', '0x')}`,
      `/proposals/${id}0`,
      `/proposals/${id}/votes`,
      `/proposals/${id.slice(0, -1)}"><script>`,
      `/x/proposals/${id}`,
    ]) {
      expect(renderDataPreloads(url), url).toBe('')
    }
  })
})

describe('renderProposalHeader', () => {
  const proposal = {
    state: 'active' as const,
    title: 'Fix the <roof> & "gutters"',
    author: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    start: 1_800_000_000,
    end: 1_800_000_000 + 3 * 86_400,
    snapshot: 120,
    now: 1_800_000_000 + 3600,
  }

  test('default: the state, the title (escaped) and the byline, as the proposal page draws them', () => {
    expect(renderProposalHeader(proposal)).toBe(
      '<article class="page"><p><a href="/proposals" data-discover="true">← Proposals</a></p>' +
        '<header class="page-header"><span class="state state-active">Active</span>' +
        '<h1>Fix the &lt;roof&gt; &amp; &quot;gutters&quot;</h1>' +
        '<p class="muted">By 0xf3…2266 · <span>Voting ends in 3 days</span> · ' +
        // The snapshot block is a term explained on hover and focus, linking to the glossary, as on the page.
        '<span class="term"><a class="term-link" aria-describedby="shell-term-snapshot-block" ' +
        'href="/glossary#snapshot-block" data-discover="true">snapshot block 120</a>' +
        `<span class="term-tip" role="tooltip" id="shell-term-snapshot-block">${glossaryEntry('snapshot-block').short}</span></span></p>` +
        '</header></article>',
    )
  })

  test("behavior: a proposal's page shell holds the heading in main, with Proposals current", () => {
    const html = renderAppShell({ dao }, `/proposals/0x${'ab'.repeat(32)}`, renderProposalHeader(proposal))
    expect(html).toContain(`<main class="main">${renderProposalHeader(proposal)}</main>`)
    expect(links(html).find((link) => link.current)?.text).toBe('Proposals')
  })
})

test('behavior: feed autodiscovery: the Overview and proposal pages link the proposals feed, a proposal page its discussion feed too, the discussion pages the topics feed, other pages none; the DAO name is escaped', () => {
  const id = `0x${'ab'.repeat(32)}`
  const proposals =
    '<link rel="alternate" type="application/atom+xml" href="/feeds/proposals.atom" title="A &lt;b&gt; DAO: proposals">'
  expect(renderFeedLinks('/', 'A <b> DAO')).toBe(proposals)
  expect(renderFeedLinks('/proposals?state=active', 'A <b> DAO')).toBe(proposals)
  expect(renderFeedLinks(`/proposals/${id}`, 'A <b> DAO')).toBe(
    `<link rel="alternate" type="application/atom+xml" href="/feeds/proposals/${id}/discussion.atom" title="This proposal’s discussion">${proposals}`,
  )
  expect(renderFeedLinks('/discussions/0x12', 'D')).toBe(
    '<link rel="alternate" type="application/atom+xml" href="/feeds/topics.atom" title="D: discussions">',
  )
  expect(renderFeedLinks('/members', 'D')).toBe('')
  expect(renderFeedLinks('/treasury', 'D')).toBe('')
})
