// Finds the system Chromium (e2e), PostgreSQL and HAProxy (integration tests); on Debian as root it installs
// them, otherwise it says what to install.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { findChromium } from '../e2e/support/chromium.ts'

/** A PostgreSQL server's binaries (initdb), for the integration suite's second run. */
function findPostgres(): string | undefined {
  if (process.env.PG_BIN && existsSync(`${process.env.PG_BIN}/initdb`)) return process.env.PG_BIN
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))
    : []
  const debian = versions
    .map((v) => `/usr/lib/postgresql/${v}/bin`)
    .find((dir) => existsSync(`${dir}/initdb`))
  if (debian) return debian
  try {
    return (
      execFileSync('sh', ['-c', 'dirname "$(command -v initdb)"'], { encoding: 'utf8' }).trim() || undefined
    )
  } catch {
    return undefined
  }
}

/** PostgreSQL's bin folder, installing Debian's package when possible; throws with instructions when not. */
export function ensurePostgres(): string {
  const found = findPostgres()
  if (found) return found
  if (existsSync('/usr/bin/apt-get') && process.getuid?.() === 0) {
    console.log(
      'No PostgreSQL found: installing Debian\'s "postgresql" package (apt-get install -y postgresql)…',
    )
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' })
    execFileSync('apt-get', ['install', '-y', '-qq', 'postgresql'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
    const installed = findPostgres()
    if (installed) return installed
  }
  throw new Error(
    [
      'The integration tests also run against PostgreSQL and no server binaries were found.',
      '  Debian/Ubuntu:  sudo apt-get install -y postgresql',
      '  macOS:          brew install postgresql',
      '  or point PG_BIN at a folder holding initdb and pg_ctl.',
    ].join('\n'),
  )
}

/** HAProxy's binary, for the cluster test in front of several API instances. */
function findHaproxy(): string | undefined {
  if (existsSync('/usr/sbin/haproxy')) return '/usr/sbin/haproxy'
  try {
    return execFileSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' }).trim() || undefined
  } catch {
    return undefined
  }
}

/** HAProxy's path, installing Debian's package when possible; throws with instructions when not. */
export function ensureHaproxy(): string {
  const found = findHaproxy()
  if (found) return found
  if (existsSync('/usr/bin/apt-get') && process.getuid?.() === 0) {
    console.log('No HAProxy found: installing Debian\'s "haproxy" package (apt-get install -y haproxy)…')
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' })
    execFileSync('apt-get', ['install', '-y', '-qq', 'haproxy'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
    const installed = findHaproxy()
    if (installed) return installed
  }
  throw new Error(
    [
      'The PostgreSQL integration tests put HAProxy in front of several API instances and none was found.',
      '  Debian/Ubuntu:  sudo apt-get install -y haproxy',
      '  macOS:          brew install haproxy',
    ].join('\n'),
  )
}

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
