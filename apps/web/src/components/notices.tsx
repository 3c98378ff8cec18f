import { dismiss, useNotices } from '../lib/notifications.ts'

/** The page's alert area: wallet and network problems the user has to know about. */
export function Notices() {
  const notices = useNotices()
  return (
    <div className="notices" aria-live="assertive">
      {notices.map((notice) => (
        <div key={notice.id} role="alert" className={`notice notice-${notice.tone}`}>
          <span>{notice.message}</span>
          <button
            type="button"
            className="notice-close"
            aria-label="Dismiss"
            onClick={() => dismiss(notice.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  )
}
