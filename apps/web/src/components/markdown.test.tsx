import { render } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { Markdown } from './markdown.tsx'

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
})
