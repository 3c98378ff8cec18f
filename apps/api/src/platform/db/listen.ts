// LISTEN on PostgreSQL (Database.listen, client.ts): a connection of its own, opened again when it drops.
import pg from 'pg'

/** How long a dropped LISTEN connection waits before it is opened again. */
const LISTEN_RETRY_MS = 1_000

/** LISTEN on a connection outside the pool (a pooled one would be handed to queries), reopened when it drops. */
export async function listenPostgres(
  connection: { databaseUrl: string; connectionTimeoutMillis: number },
  channel: string,
  handlers: {
    onNotify(payload: string): void
    onReconnect(): void
    onError?: ((error: Error) => void) | undefined
  },
): Promise<() => Promise<void>> {
  let current: pg.Client | undefined
  let stopped = false
  let retry: NodeJS.Timeout | undefined
  const open = async () => {
    const client = new pg.Client({
      connectionString: connection.databaseUrl,
      connectionTimeoutMillis: connection.connectionTimeoutMillis,
      keepAlive: true,
      application_name: 'guildhall-listen',
    })
    const dropped = (error?: Error) => {
      if (current !== client) return
      current = undefined
      if (error) handlers.onError?.(error)
      client.end().catch(() => {})
      reopenLater()
    }
    client.on('error', dropped)
    client.on('end', () => dropped())
    client.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) handlers.onNotify(message.payload)
    })
    try {
      await client.connect()
      await client.query(`listen ${client.escapeIdentifier(channel)}`)
    } catch (error) {
      await client.end().catch(() => {})
      throw error
    }
    if (stopped) await client.end()
    else current = client
  }
  const reopenLater = () => {
    if (stopped || retry) return
    retry = setTimeout(async () => {
      retry = undefined
      if (stopped) return
      try {
        await open()
        handlers.onReconnect()
      } catch (error) {
        handlers.onError?.(error as Error)
        reopenLater()
      }
    }, LISTEN_RETRY_MS)
  }
  // A server starting while the database is away still starts (its reads answer 503 until it is back).
  await open().catch((error: Error) => {
    handlers.onError?.(error)
    reopenLater()
  })
  return async () => {
    stopped = true
    clearTimeout(retry)
    const client = current
    current = undefined
    await client?.end()
  }
}
