import { describeRequestError } from '../lib/api.ts'

/** What the pager reads of a keyset-paged list (TanStack Query's infinite query). */
type PagedList = {
  hasNextPage: boolean
  isFetchingNextPage: boolean
  isFetchNextPageError: boolean
  /** The rows shown are another list's, kept while this one loads: no next page of them. */
  isPlaceholderData: boolean
  error: Error | null
  fetchNextPage: () => unknown
}

/** "Show more <what>" under a paged list, and the sentence when a further page fails. */
export function MorePages({ list, what }: { list: PagedList; what: string }) {
  return (
    <>
      {list.isFetchNextPageError ? (
        <p role="alert">
          More {what} could not be loaded. {describeRequestError(list.error)}
        </p>
      ) : null}
      {list.hasNextPage && !list.isPlaceholderData ? (
        <p>
          <button
            type="button"
            className="button"
            disabled={list.isFetchingNextPage}
            onClick={() => void list.fetchNextPage()}
          >
            {list.isFetchingNextPage ? 'Loading…' : `Show more ${what}`}
          </button>
        </p>
      ) : null}
    </>
  )
}
