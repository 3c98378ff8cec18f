// Stands in for `ua-parser-js` inside RainbowKit (vite.config.ts swaps it in for RainbowKit's import only;
// ADR 014). RainbowKit calls `UAParser().os.name` once, to pick a wallet's desktop download link for
// Windows, macOS or Linux; the library's user-agent database costs ≈ 12 KiB gzip at load for that.

/** The operating system's name as ua-parser-js 2 spells it, for the names RainbowKit tells apart. */
export function operatingSystemName(userAgent: string): string | undefined {
  // Order matters: phones and Chrome OS also say "Linux" or "Mac OS X" in their user agent.
  if (/Windows Phone/i.test(userAgent)) return 'Windows Phone'
  if (/Android/i.test(userAgent)) return 'Android'
  if (/iPhone|iPad|iPod/.test(userAgent)) return 'iOS'
  if (/CrOS/.test(userAgent)) return 'Chrome OS'
  if (/Windows/.test(userAgent)) return 'Windows'
  if (/Macintosh|Mac OS X/.test(userAgent)) return 'macOS'
  if (/Linux|X11/.test(userAgent)) return 'Linux'
  return undefined
}

/** The one call RainbowKit makes: `UAParser().os`. */
export function UAParser(): { os: { name: string | undefined } } {
  return { os: { name: operatingSystemName(globalThis.navigator?.userAgent ?? '') } }
}
