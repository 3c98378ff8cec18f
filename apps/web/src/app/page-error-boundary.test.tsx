import { render, screen } from '@testing-library/react'
import { lazy, Suspense } from 'react'
import { describe, expect, it } from 'vitest'
import { expectConsoleError } from '../test/console-guard.ts'
import { PageErrorBoundary } from './page-error-boundary.tsx'

// What a browser says when a page's chunk is gone (a new release replaced the files).
const chunkGone = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'))

describe('PageErrorBoundary', () => {
  it('says in words that a page whose code cannot load could not be shown, and clears on navigation', async () => {
    expectConsoleError(/Failed to fetch dynamically imported module/)
    const MissingPage = lazy(chunkGone)
    const page = (path: string, content: React.ReactNode) => (
      <PageErrorBoundary resetKey={path}>
        <Suspense fallback={null}>{content}</Suspense>
      </PageErrorBoundary>
    )
    const { rerender } = render(page('/proposals', <MissingPage />))
    expect(await screen.findByRole('heading', { name: 'This page could not be shown' })).toBeTruthy()
    expect(screen.getByRole('alert').textContent).toContain('Reload the page to try again')

    rerender(page('/members', <h1>Members</h1>))
    expect(screen.getByRole('heading', { name: 'Members' })).toBeTruthy()
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('shows the page itself while nothing fails', () => {
    render(
      <PageErrorBoundary resetKey="/">
        <h1>Overview</h1>
      </PageErrorBoundary>,
    )
    expect(screen.getByRole('heading', { name: 'Overview' })).toBeTruthy()
  })
})
