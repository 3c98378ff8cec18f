import { fireEvent, render } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { Markdown, sanitizeHtml } from './markdown.tsx'

const rendered = (text: string) => render(<Markdown text={text} />).container

describe('Markdown (signed proposal bodies and delegate statements)', () => {
  test('behavior: scripts, event handlers, javascript: links, frames, styles (a page restyled or covered) and forms (a fake prompt) never reach the page; the text around them does', () => {
    const page = rendered(
      [
        '# Ada for delegate',
        '<script>window.pwned = 1</script>',
        '<img src="x" onerror="window.pwned = 2">',
        '[my record](javascript:window.pwned=3) and <a href="javascript:alert(1)">a raw link</a>',
        '<iframe src="https://example.com"></iframe>',
        '<div onclick="alert(1)" style="position:fixed;inset:0">covers the page</div>',
        '<style>body { display: none }</style>',
        '<form action="https://evil.example"><input name="seed"><button>Restore</button></form>',
      ].join('\n\n'),
    )
    expect(page.querySelector('h1')?.textContent).toBe('Ada for delegate')
    expect(page.querySelector('script, iframe, style, form, input, button')).toBeNull()
    const withHandlers = [...page.querySelectorAll('*')].filter((element) =>
      element.getAttributeNames().some((name) => name.startsWith('on') || name === 'style'),
    )
    expect(withHandlers).toEqual([])
    for (const link of page.querySelectorAll('a'))
      expect(link.getAttribute('href') ?? '').not.toMatch(/script:/i)
    expect(page.textContent).toContain('my record')
    expect(page.textContent).toContain('covers the page')
    expect((window as { pwned?: number }).pwned).toBeUndefined()
  })

  test('behavior: ordinary markdown (emphasis, lists, https links, images) is kept', () => {
    const page = rendered(
      'I **read** every proposal.\n\n- one\n- two\n\n[forum](https://forum.example/ada) ![me](https://img.example/ada.png)',
    )
    expect(page.querySelector('strong')?.textContent).toBe('read')
    expect(page.querySelectorAll('li')).toHaveLength(2)
    expect(page.querySelector('a')?.getAttribute('href')).toBe('https://forum.example/ada')
    expect(page.querySelector('img')?.getAttribute('src')).toBe('https://img.example/ada.png')
  })

  test('behavior: an image whose source sanitising removed, or one the page cannot show (relative, not http), is removed entirely, with the paragraph it leaves empty', () => {
    const page = rendered(
      [
        'Before.',
        '<img src="x" onerror="window.pwned = 4">',
        '<img src="javascript:alert(1)" alt="bad">',
        '![](ftp://files.example/me.png)',
        'After.',
      ].join('\n\n'),
    )
    expect(page.querySelectorAll('img')).toHaveLength(0)
    expect([...page.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['Before.', 'After.'])
  })

  test('behavior: a link whose target sanitising removed (javascript:, data:) becomes its text, in place', () => {
    const page = rendered(
      'See [my record](javascript:window.pwned=3) and <a href="data:text/html,hi">a raw link</a> or [the forum](https://forum.example).',
    )
    const links = [...page.querySelectorAll('a')]
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://forum.example'])
    expect(page.querySelector('p')?.textContent).toBe('See my record and a raw link or the forum.')
  })

  test('behavior: an element emptied by sanitising is removed (an SVG, a frame or a script in its own block), an element with text left in it stays', () => {
    const html = sanitizeHtml(
      [
        '<p>Kept.</p>',
        '<div><svg width="200" height="200"><script>alert(1)</script><circle r="9"/></svg></div>',
        '<p><iframe src="https://example.com"></iframe></p>',
        '<blockquote><p><script>alert(2)</script></p></blockquote>',
        '<p>Text <script>alert(3)</script>stays.</p>',
      ].join(''),
    )
    expect(html).toBe('<p>Kept.</p><p>Text stays.</p>')
  })

  test('behavior: an image that fails to load gives way to its description, or to nothing without one', () => {
    const page = rendered(
      'Me: ![Ada at the forum](https://img.example/ada.png)\n\n![](https://img.example/gone.png)',
    )
    const [described, bare] = [...page.querySelectorAll('img')]
    if (!described || !bare) throw new Error('both images should be rendered before they fail')
    fireEvent.error(described)
    fireEvent.error(bare)
    expect(page.querySelectorAll('img')).toHaveLength(0)
    expect([...page.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['Me: Ada at the forum'])
  })
})
