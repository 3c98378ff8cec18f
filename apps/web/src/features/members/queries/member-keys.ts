/**
 * The query keys of a member's page, one root per member: what they are called in the URL (an address in
 * any case, or a name) for their figures, their address for their lists.
 */
export const memberPageKeys = {
  all: ['api', 'member'] as const,
  member: (who: string) => [...memberPageKeys.all, who.toLowerCase()] as const,
  list: (address: string, list: 'votes' | 'proposals' | 'delegators' | 'power') =>
    [...memberPageKeys.all, address.toLowerCase(), list] as const,
}

/** How many rows a list of the member page asks at a time. */
const MEMBER_PAGE_ROWS = 10

/** The query string of one page of a member's list: its size and where the previous page stopped. */
export const pageQuery = (cursor: string | undefined) => {
  const query = new URLSearchParams({ limit: String(MEMBER_PAGE_ROWS) })
  if (cursor) query.set('cursor', cursor)
  return query
}
