// The notifications area (ADR 055): outgoing webhooks, which the leader derives and delivers, and the Atom
// feeds and ICS calendar every instance serves. Both read the database; without one the area is off.
import type { Area, AreaContext } from '../platform/area.ts'
import { feedRoutes } from './feed-routes.ts'
import { keepCursorAtPresent, WebhookJob } from './webhook-job.ts'

export function notificationsArea({ settings, database, now, logger }: AreaContext): Area {
  if (!database) return { plugin: async () => undefined }
  const origin = settings.publicConfig.appUrl
  const { targets, closingSoonSeconds } = settings.webhooks
  const job =
    targets.length > 0
      ? new WebhookJob({ db: database.db, targets, origin, closingSoonSeconds, now, logger })
      : undefined
  return {
    ...(job ? { job } : {}),
    plugin: async (app) => {
      // Without webhooks nothing is sent, and what happens meanwhile is history by the time some are set: the
      // cursor is moved to the present when this instance starts, rather than a leader being run for it. Not when
      // it stops: during a rolling change that sets webhooks, an instance still without them stopping would skip
      // what the new leader has yet to read.
      if (!job) {
        const toPresent = async () => {
          await keepCursorAtPresent(database.db, now()).catch((error: unknown) =>
            logger.warn({ err: error }, 'the webhook cursor could not be moved to the present'),
          )
        }
        app.addHook('onReady', toPresent)
      }
      await feedRoutes(app, { db: database.db, origin, daoName: settings.publicConfig.dao.name })
    },
  }
}
