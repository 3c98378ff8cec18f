// The browser's recount ("Verify this result", "Verify this thread"): the same code as `npm run recount`,
// off the main thread.
import { type RecountMessage, type RecountRequest, runRecountRequest } from './recount-request.ts'

const post = (message: RecountMessage) => postMessage(message)

addEventListener('message', (event: MessageEvent<RecountRequest>) => runRecountRequest(event.data, post))
