import DOMPurify from 'dompurify'
import { marked } from 'marked'
import { useMemo } from 'react'
import './markdown.css'

/**
 * Beyond DOMPurify's defaults (no scripts, handlers or javascript: links), which keep styles and forms:
 * a style could hide the page or lay a fake one over it, a form could ask for a seed phrase.
 */
const PURIFY_OPTIONS = {
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'],
  FORBID_ATTR: ['style'],
}

/**
 * Markdown from a signed message (a proposal's body, a delegate's statement), rendered and then sanitised:
 * its authors are anyone with a key, so raw HTML, scripts, event handlers and javascript: links are removed
 * before anything reaches the page. Its own chunk (≈ 26 KiB gzip): pages load it on demand.
 */
export function Markdown({ text }: { text: string }) {
  const html = useMemo(
    () => DOMPurify.sanitize(marked.parse(text, { async: false, gfm: true }), PURIFY_OPTIONS),
    [text],
  )
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify just above.
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
}
