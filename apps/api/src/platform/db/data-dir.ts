// The embedded database's folder (DATA_DIR) as one process at a time holds it, and its backup while the server
// runs (ADR 067). PGlite is PostgreSQL in this process, on the folder's files, with nothing to stop a second
// process from opening the same files and corrupting them: whoever opens it for long (the server, `npm run
// backup` and `npm run restore`) first writes its pid into the folder, as PostgreSQL's postmaster.pid does, and
// a process finding a live pid there leaves the folder alone.
//
// A backup while the server runs: `npm run backup` drops a request (where to write) into the folder and sends
// the server SIGUSR2; the server takes the request out of the folder, dumps the folder between two
// transactions (Database.dump) and writes the copy where asked, under a temporary name renamed at the end, or
// the reason it failed next to it.
import { randomBytes } from 'node:crypto'
import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Database } from './client.ts'

/** The pid of the process holding the folder, inside it (so it moves with it and needs nothing beside it). */
export const PID_FILE = 'guildhall.pid'
const REQUEST_PREFIX = 'guildhall-backup-request-'

export class DataDirInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`Another process (pid ${pid}) has the embedded database in ${dataDir} open.`)
  }
}

/** Who holds the folder: the server (which makes copies on request), or an operator's command. */
export type DataDirRole = 'server' | 'command'

/** The live process other than this one whose pid the folder holds, and its role, if any. */
export async function dataDirHolder(
  dataDir: string,
): Promise<{ pid: number; role: DataDirRole } | undefined> {
  const [pidText, role] = (await readFile(join(dataDir, PID_FILE), 'utf8').catch(() => '')).trim().split(' ')
  const pid = Number.parseInt(pidText ?? '', 10)
  // Our own pid or our parent's is a file left by an earlier life of this process or its launcher (a
  // container restarted with the same pids), as PostgreSQL reasons for its postmaster.pid.
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || pid === process.ppid) return undefined
  const holder = { pid, role: role === 'server' ? 'server' : 'command' } as const
  try {
    process.kill(pid, 0)
    return holder
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? holder : undefined
  }
}

/**
 * Writes this process's pid and role into `dataDir` (which must exist) unless a live process holds it
 * (DataDirInUse). Resolves to the release, which removes the pid file if it is still ours.
 */
export async function claimDataDir(dataDir: string, role: DataDirRole): Promise<() => Promise<void>> {
  const holder = await dataDirHolder(dataDir)
  if (holder !== undefined) throw new DataDirInUse(dataDir, holder.pid)
  const file = join(dataDir, PID_FILE)
  await writeFile(file, `${process.pid} ${role}\n`)
  return async () => {
    const pid = await readFile(file, 'utf8').catch(() => '')
    if (Number.parseInt(pid, 10) === process.pid) await rm(file, { force: true })
  }
}

/**
 * The server's side: on SIGUSR2, serves every backup request in `dataDir` with one dump of `database`.
 * Answers the function that stops listening. `onError` hears what could not be written.
 */
export function backupOnSignal(
  database: Pick<Database, 'dump'>,
  dataDir: string,
  onError: (error: unknown) => void,
): () => void {
  const dump = database.dump
  if (!dump) throw new Error('This database cannot be dumped from inside the server.')
  let serving = Promise.resolve()
  const serve = async () => {
    const names = (await readdir(dataDir)).filter((name) => name.startsWith(REQUEST_PREFIX))
    if (names.length === 0) return
    const targets: string[] = []
    for (const name of names) {
      const path = join(dataDir, name)
      const request = JSON.parse(await readFile(path, 'utf8')) as { file: string }
      // Out of the folder before the dump, which copies every file in it.
      await rm(path, { force: true })
      targets.push(request.file)
    }
    let copy: Buffer
    try {
      copy = Buffer.from(await (await dump()).arrayBuffer())
    } catch (error) {
      for (const file of targets) await writeFailure(file, error)
      throw error
    }
    for (const file of targets) {
      try {
        await writeFile(`${file}.partial`, copy)
        await rename(`${file}.partial`, file)
      } catch (error) {
        await writeFailure(file, error)
        onError(error)
      }
    }
  }
  const onSignal = () => {
    serving = serving.then(serve).catch(onError)
  }
  process.on('SIGUSR2', onSignal)
  return () => {
    process.off('SIGUSR2', onSignal)
  }
}

const writeFailure = (file: string, error: unknown) =>
  writeFile(`${file}.failed`, error instanceof Error ? error.message : String(error)).catch(() => undefined)

/**
 * The command's side: asks the server `pid` holding `dataDir` for a copy at `file` and waits until it is there
 * (rejects with the server's reason, when the server exits, or after `timeoutMs`).
 */
export async function requestBackup(
  dataDir: string,
  pid: number,
  file: string,
  { timeoutMs, pollMs = 100 }: { timeoutMs: number; pollMs?: number },
): Promise<void> {
  const target = resolve(file)
  await rm(`${target}.failed`, { force: true })
  const name = `${process.pid}-${randomBytes(4).toString('hex')}.json`
  // Renamed into place whole: a server serving another request meanwhile never reads half of it.
  await writeFile(join(dataDir, `.partial-${name}`), JSON.stringify({ file: target }))
  await rename(join(dataDir, `.partial-${name}`), join(dataDir, `${REQUEST_PREFIX}${name}`))
  process.kill(pid, 'SIGUSR2')
  const deadline = Date.now() + timeoutMs
  // Polled: a file appearing in a folder, written by another process, is the whole of the answer.
  while (true) {
    if (await exists(target)) return
    const failed = await readFile(`${target}.failed`, 'utf8').catch(() => undefined)
    if (failed !== undefined) {
      await rm(`${target}.failed`, { force: true })
      throw new Error(`the server could not write the copy: ${failed}`)
    }
    if ((await dataDirHolder(dataDir))?.pid !== pid) throw new Error(`the server (pid ${pid}) stopped`)
    if (Date.now() > deadline)
      throw new Error(`no copy from the server (pid ${pid}) within ${timeoutMs / 1000} s`)
    await new Promise((done) => setTimeout(done, pollMs))
  }
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  )
