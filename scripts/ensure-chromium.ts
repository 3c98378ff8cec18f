// Finds the system Chromium for the e2e tests; on Debian as root it installs it, otherwise it says what to install.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { findChromium } from '../e2e/support/chromium.ts'

/** The Chromium path, installing Debian's package when possible; throws with instructions when not. */
export function ensureChromium(): string {
  const found = findChromium()
  if (found) return found
  const canApt = existsSync('/usr/bin/apt-get') && process.getuid?.() === 0
  if (canApt) {
    console.log('No Chromium found: installing Debian\'s "chromium" package (apt-get install -y chromium)…')
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' })
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
    const installed = findChromium()
    if (installed) return installed
  }
  throw new Error(
    [
      'The end-to-end tests need Chromium and none was found.',
      '  Debian/Ubuntu:  sudo apt-get install -y chromium   (Ubuntu: chromium-browser)',
      '  Fedora:         sudo dnf install -y chromium',
      '  macOS:          brew install --cask chromium',
      '  or point CHROMIUM_PATH at any Chromium or Chrome binary.',
    ].join('\n'),
  )
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(ensureChromium())
  } catch (error) {
    console.error((error as Error).message)
    process.exit(1)
  }
}
