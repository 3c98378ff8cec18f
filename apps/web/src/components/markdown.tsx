import DOMPurify from 'dompurify'
import { marked } from 'marked'
import { useEffect, useMemo, useRef } from 'react'
import './markdown.css'

/**
 * Beyond DOMPurify's defaults (no scripts, handlers or javascript: links), which keep styles and forms:
 * a style could hide the page or lay a fake one over it, a form could ask for a seed phrase. HTML only:
 * no SVG or MathML, whose sanitised remains are empty boxes.
 */
const PURIFY_OPTIONS = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'],
  FORBID_ATTR: ['style'],
}

/** Where a kept image may come from: the web, or the text itself (a data: image). */
const IMAGE_SOURCE = /^(https?:\/\/|data:image\/)/i
/** Where a kept link may go: the web, mail, or a page of this app. */
const LINK_TARGET = /^(https?:\/\/|mailto:|\/(?!\/))/i
/** What an element holds that shows without text. */
const SHOWS_WITHOUT_TEXT = 'img, br, hr, video, audio, td, th'

const showsNothing = (element: Element) =>
  (element.textContent ?? '').trim() === '' && element.querySelector(SHOWS_WITHOUT_TEXT) === null

/** Removes `element`, then each ancestor inside `root` that is left showing nothing. */
function removeWithEmptiedAncestors(element: Element, root: Element) {
  let parent = element.parentElement
  element.remove()
  while (parent && parent !== root && root.contains(parent) && showsNothing(parent)) {
    const next: HTMLElement | null = parent.parentElement
    parent.remove()
    parent = next
  }
}

/**
 * `html` sanitised, without the husks sanitising leaves: an image whose source went (or was never one the
 * page can show) is removed, a link whose target went becomes its text, and an element emptied by a removal
 * is removed. Parsed in a document of its own, which loads and runs nothing.
 */
export function sanitizeHtml(html: string): string {
  const root = document.implementation.createHTMLDocument('').createElement('div')
  root.innerHTML = html
  const parents = new Map<Element, Element>()
  for (const element of root.querySelectorAll('*'))
    if (element.parentElement) parents.set(element, element.parentElement)
  DOMPurify.sanitize(root, { ...PURIFY_OPTIONS, IN_PLACE: true })
  // The nearest surviving ancestor of each removed element held it: if it shows nothing now, it goes too.
  for (const [element] of parents) {
    if (root.contains(element)) continue
    let holder = parents.get(element)
    while (holder && holder !== root && !root.contains(holder)) holder = parents.get(holder)
    if (holder && holder !== root && showsNothing(holder)) removeWithEmptiedAncestors(holder, root)
  }
  for (const image of root.querySelectorAll('img')) {
    if (!IMAGE_SOURCE.test(image.getAttribute('src') ?? '')) removeWithEmptiedAncestors(image, root)
  }
  for (const link of root.querySelectorAll('a')) {
    if (!LINK_TARGET.test(link.getAttribute('href') ?? '')) link.replaceWith(...link.childNodes)
  }
  return root.innerHTML
}

/** An image that could not be shown (refused by the page's policy, gone): its description, else nothing. */
function replaceBrokenImage(image: HTMLImageElement, root: Element) {
  const alt = image.getAttribute('alt')?.trim()
  if (alt) image.replaceWith(alt)
  else removeWithEmptiedAncestors(image, root)
}

/**
 * Markdown from a signed message (a proposal's body, a delegate's statement), rendered and then sanitised:
 * its authors are anyone with a key, so raw HTML, scripts, event handlers and javascript: links are removed
 * before anything reaches the page, and so are the husks they leave (`sanitizeHtml`); an image that fails to
 * load gives way to its description. Its own chunk (≈ 26 KiB gzip): pages load it on demand.
 */
export function Markdown({ text }: { text: string }) {
  const html = useMemo(() => sanitizeHtml(marked.parse(text, { async: false, gfm: true })), [text])
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const root = ref.current
    if (!root || html === '') return
    const broken = (event: Event) => {
      if (event.target instanceof HTMLImageElement) replaceBrokenImage(event.target, root)
    }
    // Error events do not bubble: listen in the capture phase. An image that failed before this ran is
    // recognised by having finished without a picture.
    root.addEventListener('error', broken, true)
    for (const image of root.querySelectorAll('img'))
      if (image.complete && image.naturalWidth === 0 && image.getAttribute('src'))
        replaceBrokenImage(image, root)
    return () => root.removeEventListener('error', broken, true)
  }, [html])
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify in sanitizeHtml.
  return <div ref={ref} className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
}
