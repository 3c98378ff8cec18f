import DOMPurify from 'dompurify'
import { marked } from 'marked'
import { useMemo } from 'react'

/**
 * A proposal's markdown, rendered and then sanitised: authors are anyone with enough tokens, so raw HTML,
 * scripts, event handlers and javascript: links are removed before anything reaches the page.
 */
export function Markdown({ text }: { text: string }) {
  const html = useMemo(() => DOMPurify.sanitize(marked.parse(text, { async: false, gfm: true })), [text])
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify just above.
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
}
