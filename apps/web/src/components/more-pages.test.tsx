import { render, screen } from '@testing-library/react'
import { describe, expect, test, vi } from 'vitest'
import { ApiRequestError } from '../lib/api.ts'
import { MorePages } from './more-pages.tsx'

const list = {
  hasNextPage: true,
  isFetchingNextPage: false,
  isFetchNextPageError: false,
  isPlaceholderData: false,
  error: null,
  fetchNextPage: () => undefined,
}

describe('MorePages: the pager of every keyset list', () => {
  test('behavior: "Show more votes" while there is a next page, which it asks for; "Loading…" and disabled while it loads; nothing after the last page or under another list’s placeholder rows', () => {
    const fetchNextPage = vi.fn()
    const { rerender } = render(<MorePages list={{ ...list, fetchNextPage }} what="votes" />)
    screen.getByRole('button', { name: 'Show more votes' }).click()
    expect(fetchNextPage).toHaveBeenCalledTimes(1)
    rerender(<MorePages list={{ ...list, isFetchingNextPage: true }} what="votes" />)
    expect(screen.getByRole('button', { name: 'Loading…' }).hasAttribute('disabled')).toBe(true)
    rerender(<MorePages list={{ ...list, hasNextPage: false }} what="votes" />)
    expect(screen.queryByRole('button')).toBeNull()
    rerender(<MorePages list={{ ...list, isPlaceholderData: true }} what="votes" />)
    expect(screen.queryByRole('button')).toBeNull()
    expect(screen.queryByRole('alert')).toBeNull()
  })

  test('behavior: a further page that fails says "More proposals could not be loaded." with the server’s sentence, and Show more stays to try again', () => {
    const error = new ApiRequestError(503, 'The database is unavailable. Try again in a few seconds.')
    render(<MorePages list={{ ...list, isFetchNextPageError: true, error }} what="proposals" />)
    expect(screen.getByRole('alert').textContent).toBe(
      'More proposals could not be loaded. The database is unavailable. Try again in a few seconds.',
    )
    expect(screen.getByRole('button', { name: 'Show more proposals' })).toBeTruthy()
  })
})
