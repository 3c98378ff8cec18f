import { apiFetch } from '../../../lib/api.ts'

/** A logout that could not reach the server; retried before the next session check (survives reloads). */
const LOGOUT_PENDING_KEY = 'guildhall.auth.logoutPending'

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage
  } catch {
    return undefined
  }
}

export const logoutPending = {
  get: () => storage()?.getItem(LOGOUT_PENDING_KEY) === '1',
  set: () => storage()?.setItem(LOGOUT_PENDING_KEY, '1'),
  clear: () => storage()?.removeItem(LOGOUT_PENDING_KEY),
}

/** POST /api/auth/logout; true when the server has no session for us any more (its 204). */
export async function postLogout(): Promise<boolean> {
  try {
    // 204 whether or not a session was left: sent again if the connection failed.
    const response = await apiFetch('POST', '/api/auth/logout', {}, { idempotent: true })
    const done = response.ok
    if (done) logoutPending.clear()
    else logoutPending.set()
    return done
  } catch {
    logoutPending.set()
    return false
  }
}
