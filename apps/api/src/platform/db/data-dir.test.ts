// The embedded database's folder held by one process at a time (ADR 067): a live pid in it keeps others out, a
// dead one's file is taken over, and the release removes only this process's own pid.
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { claimDataDir, DataDirInUse, dataDirHolder, PID_FILE } from './data-dir.ts'

let folder: string
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'guildhall-data-dir-'))
})
afterAll(() => rm(folder, { recursive: true, force: true }))

describe('claimDataDir', () => {
  test('behavior: a folder held by a live process is refused with its pid; once that process is gone its file is taken over, and the release removes this process’s pid', async () => {
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
    const exited = new Promise((done) => other.once('exit', done))
    try {
      await writeFile(join(folder, PID_FILE), `${other.pid} server\n`)
      expect(await dataDirHolder(folder)).toEqual({ pid: other.pid, role: 'server' })
      await expect(claimDataDir(folder, 'command')).rejects.toEqual(
        new DataDirInUse(folder, other.pid as number),
      )
    } finally {
      other.kill('SIGKILL')
      await exited
    }
    expect(await dataDirHolder(folder)).toBeUndefined()
    const release = await claimDataDir(folder, 'command')
    expect(await readFile(join(folder, PID_FILE), 'utf8')).toBe(`${process.pid} command\n`)
    await release()
    await expect(readFile(join(folder, PID_FILE), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' })
  })

  test('behavior: the release leaves a pid file that is no longer this process’s', async () => {
    const release = await claimDataDir(folder, 'server')
    await writeFile(join(folder, PID_FILE), '1\n')
    await release()
    expect(await readFile(join(folder, PID_FILE), 'utf8')).toBe('1\n')
    await rm(join(folder, PID_FILE))
  })
})
