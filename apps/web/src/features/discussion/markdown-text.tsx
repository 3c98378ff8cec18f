import { Suspense } from 'react'
import { Preloaded, preloadable } from '../../lib/preloadable.ts'
import { linkMentions } from './mentions.ts'

// The sanitising renderer of signed texts, its own chunk (loaded with the first comment shown).
const markdown = preloadable(
  () => import('../../components/markdown.tsx'),
  (m) => m.Markdown,
)

/** A comment's or topic's text: markdown, sanitised, with each mention a link to its member's page. */
export function DiscussionText({ body, mentions }: { body: string; mentions: readonly string[] }) {
  return (
    <Suspense fallback={<p className="muted">{body}</p>}>
      <Preloaded code={markdown} props={{ text: linkMentions(body, mentions) }} />
    </Suspense>
  )
}
