// The patched RainbowKit (patches/, ADR 018): the installed copy is the version the patch was made for, and
// carries every line the patch adds. An upgrade, or an install that skipped the patch, fails here first;
// the behaviour itself is pinned by connect-errors.spec.ts, connect-mobile.spec.ts, sign-in.spec.ts,
// recent-transactions.spec.ts and transaction-replacement.spec.ts.
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { expect, test } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../../../..')
const PATCHES = join(ROOT, 'patches')
const require = createRequire(join(ROOT, 'apps/web/package.json'))
// The copy the web app imports (its main entry is dist/index.js).
const packageDir = dirname(dirname(require.resolve('@rainbow-me/rainbowkit')))

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'))
const patchFiles = readdirSync(PATCHES).filter((name) => name.startsWith('@rainbow-me+rainbowkit+'))

test('one RainbowKit patch, made for the installed version, which apps/web pins exactly', () => {
  expect(patchFiles).toHaveLength(1)
  const patchedVersion = /^@rainbow-me\+rainbowkit\+(.+)\.patch$/.exec(patchFiles[0] ?? '')?.[1]
  const installed = readJson(join(packageDir, 'package.json')).version
  const pinned = readJson(join(ROOT, 'apps/web/package.json')).dependencies['@rainbow-me/rainbowkit']
  expect(installed).toBe(patchedVersion)
  expect(pinned).toBe(patchedVersion)
})

test('a clean install applies the patch: patch-package is pinned and runs after every install', () => {
  const root = readJson(join(ROOT, 'package.json'))
  expect(root.scripts.postinstall).toBe('patch-package --error-on-fail')
  expect(root.devDependencies['patch-package']).toMatch(/^\d+\.\d+\.\d+$/)
})

test('the installed RainbowKit carries every line the patch adds, in order', () => {
  const patch = readFileSync(join(PATCHES, patchFiles[0] ?? ''), 'utf8')
  const files = patch.split(/^diff --git /m).slice(1)
  expect(files.length).toBeGreaterThan(0)
  for (const file of files) {
    const path = /^a\/node_modules\/@rainbow-me\/rainbowkit\/(\S+) /.exec(file)?.[1]
    expect(path).toBeDefined()
    const installed = readFileSync(join(packageDir, path ?? ''), 'utf8')
    const added = file
      .split('\n')
      .filter((line) => line.startsWith('+') && !line.startsWith('+++'))
      .map((line) => line.slice(1))
    expect(added.length).toBeGreaterThan(0)
    let from = 0
    for (const line of added) {
      const at = installed.indexOf(line, from)
      expect(at, `${path}: missing patched line ${line.trim()}`).toBeGreaterThan(-1)
      from = at + line.length
    }
  }
})

test('what the patch changes: a silent user rejection on connect, one GET-view sentence, named back arrows, the transaction store', () => {
  const index = readFileSync(join(packageDir, 'dist/index.js'), 'utf8')
  // Connect errors: a rejection goes back to the wallet list; anything else still sets RainbowKit's RETRY.
  expect(index).toMatch(
    /catch\(\(error\) => \{\s+if \(isGuildhallUserRejection\(error\)\) \{\s+clearSelectedWallet\(\);\s+changeWalletStep\("NONE"[^)]*\);\s+return;\s+\}\s+setConnectionError\(true\);/,
  )
  expect(index).not.toContain('get.looking_for.desktop.wide_description')
  expect(index.match(/"aria-label": "Back"/g)).toHaveLength(2)
  // Recent transactions: at most 10 finished; a replaced transaction ends as what happened to its call.
  expect(index).toContain('completedTransactionCount++ < MAX_COMPLETED_TRANSACTIONS')
  expect(index).not.toContain('completedTransactionCount++ <= MAX_COMPLETED_TRANSACTIONS')
  expect(index).toMatch(/onReplaced: \(replaced\) => \{ replacement = replaced; \}/)
  expect(index).toContain(
    '(replacement && !repriced) || status === 0 || status === "reverted" ? "failed" : "confirmed"',
  )
})

test('what the patch changes in sign-in: a verification failing unexpectedly reaches RainbowKit\'s "Oops, something went wrong!"', () => {
  const index = readFileSync(join(packageDir, 'dist/index.js'), 'utf8')
  // The verify step's catch rethrows the adapter's unexpected failure to the outer catch (oops_error);
  // every other failure still shows verifying_error.
  expect(index).toMatch(
    /catch \(error\) \{\s+if \(error\?\.guildhallUnexpected === true\) throw error;[^\n]*\n\s+return setState\(\(x\) => \(\{\s+\.\.\.x,\s+errorMessage: i18n2\.t\("sign_in\.signature\.verifying_error"\)/,
  )
  expect(index).toMatch(
    /\} catch \{\s+setState\(\(x\) => \(\{\s+\.\.\.x,\s+errorMessage: i18n2\.t\("sign_in\.signature\.oops_error"\)/,
  )
})
