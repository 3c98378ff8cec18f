// What the bench's processes cost: CPU time (this process's, a child's, a process tree's) and resident
// memory, read from process.cpuUsage() and /proc (Linux).
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'

export const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000

const clockTicksPerSecond = (() => {
  const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout)
  return Number.isFinite(ticks) && ticks > 0 ? ticks : 100
})()

/** Parent pid and CPU ticks (user + system) of a process, from /proc (Linux); undefined when gone. */
export function procStat(pid: number): { ppid: number; ticks: number } | undefined {
  try {
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) }
  } catch {
    return undefined
  }
}

/** CPU milliseconds used so far by one process (e.g. anvil), from /proc; null when unreadable. */
export function processCpuMs(pid: number): number | null {
  const stat = procStat(pid)
  return stat ? (stat.ticks / clockTicksPerSecond) * 1000 : null
}

/**
 * CPU milliseconds used so far by a PostgreSQL server: the postmaster and its children (backends,
 * checkpointer, WAL writer…). A child that exits inside a window takes its time with it (pooled backends
 * live for the whole run, so this misses little, and errs low).
 */
export function processTreeCpuMs(postmaster: number): number {
  if (!existsSync('/proc')) return 0
  let ticks = procStat(postmaster)?.ticks ?? 0
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const stat = procStat(Number(entry))
    if (stat?.ppid === postmaster) ticks += stat.ticks
  }
  return (ticks / clockTicksPerSecond) * 1000
}

/** CPU milliseconds used so far by the child process of this one named `name` (HAProxy); null when not found. */
export function childCpuMs(name: string): number | null {
  try {
    const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8')
      .trim()
      .split(' ')
    const pid = children
      .map(Number)
      .find((child) => readFileSync(`/proc/${child}/comm`, 'utf8').trim() === name)
    return pid === undefined ? null : processCpuMs(pid)
  } catch {
    return null
  }
}

/** Resident memory of a process in KiB, from /proc (Linux); 0 when unreadable. */
export function rssKiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match ? Number(match[1]) : 0
}

/** Resident memory of a process in MiB, from /proc (Linux). */
export function rssMiB(pid: number): number {
  return Math.round(rssKiB(pid) / 1024)
}
