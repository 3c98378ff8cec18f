// npm run webhooks -- deliveries [--failed] [--limit n] | test <name>
// The operator's view of outgoing webhooks (ADR 055), with the server's DATABASE_URL (PostgreSQL) or DATA_DIR (the
// embedded database, while the server is stopped: PGlite takes one process at a time), and its WEBHOOKS for `test`.
// - deliveries: the latest deliveries, newest first (only the failed ones with --failed): when, to which
//   webhook, which event, its state, attempts, last answer and, while pending, the next attempt.
// - test <name>: sends a `webhook.test` event to that webhook now and prints its answer; it is logged as a delivery.
// Exit code: 0 done (a test delivered), 1 a test not delivered, 2 the command could not run. No secret and no
// URL is printed: a Discord or Slack URL is itself a secret.
import { openDatabase } from '@guildhall/api/database'
import { sendTestWebhook, webhookDeliveryLog, webhookTargetsOf } from '@guildhall/api/operations'
import { runCli, serverDatabase } from './run-cli.ts'

const USAGE = 'Usage: npm run webhooks -- deliveries [--failed] [--limit n] | npm run webhooks -- test <name>'

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args
  if (command !== 'deliveries' && command !== 'test') {
    console.error(USAGE)
    return 2
  }
  const settings = serverDatabase()
  if (!settings) return 2
  const targets = webhookTargetsOf(process.env)
  if ('problems' in targets) {
    console.error(`Invalid configuration:\n${targets.problems}`)
    return 2
  }
  let target: (typeof targets)[number] | undefined
  if (command === 'test') {
    const name = rest[0]
    target = targets.find((t) => t.name === name)
    if (!target) {
      console.error(
        `No webhook named ${name ?? '(none given)'} in WEBHOOKS; it names: ${targets.map((t) => t.name).join(', ') || 'none'}.`,
      )
      return 2
    }
  }
  const database = await openDatabase(settings)
  try {
    if (target) {
      const origin = (process.env.PUBLIC_ORIGIN ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(
        /\/$/,
        '',
      )
      const { eventId, result } = await sendTestWebhook(database.db, target, { origin })
      if (result.outcome === 'delivered') {
        console.log(
          `Test ${eventId} delivered to ${target.name} (${target.preset}): answered ${result.status}.`,
        )
        return 0
      }
      const why = result.outcome === 'gone' ? 'answered 410 Gone: the webhook is now disabled' : result.error
      console.log(`Test ${eventId} to ${target.name} (${target.preset}) NOT delivered: ${why}.`)
      return 1
    }
    const limitAt = rest.indexOf('--limit')
    const limit = limitAt >= 0 ? Number(rest[limitAt + 1]) : 50
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
      console.error('--limit takes a whole number from 1 to 10000.')
      return 2
    }
    const failed = rest.includes('--failed')
    const rows = await webhookDeliveryLog(database.db, { failed, limit })
    if (rows.length === 0) console.log(failed ? 'No failed deliveries.' : 'No deliveries yet.')
    for (const row of rows) {
      const answer = row.lastStatus === null ? 'no answer' : `answered ${row.lastStatus}`
      const detail =
        row.state === 'delivered'
          ? `delivered ${row.deliveredAt?.toISOString()}`
          : row.state === 'pending'
            ? `${row.attempts === 0 ? 'not tried yet' : `${answer}; next attempt ${row.nextAttemptAt.toISOString()}`}`
            : (row.lastError ?? answer)
      console.log(
        `${row.createdAt.toISOString()}  ${row.webhook}  ${row.type}  ${row.eventId}  ${row.state}  ${row.attempts} attempt${row.attempts === 1 ? '' : 's'}  ${detail}`,
      )
    }
    return 0
  } finally {
    await database.close()
  }
}

runCli('The command', () => main(process.argv.slice(2)))
