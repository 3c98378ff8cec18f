// npm run recount -- <bundle.json | proposal URL> --rpc <url>
// npm run recount -- <thread bundle.json | …/discussions/0x… | …/proposals/0x… --discussion> --rpc <url>
// Recounts a proposal from its export bundle against any RPC of the DAO chain (packages/core/src/recount.ts):
// re-verifies every signature, recomputes voting power from the token, re-tallies, and prints every
// difference. Or recounts a thread (a discussion, ADR 052) from its bundle: every message's signature by an
// authorised key, its log entry, and the state the server publishes. A file is either, told by its
// `format`. Exit code: 0 the result (or thread) matches, 1 it differs, 2 the recount could not run.
import { createReadStream } from 'node:fs'
import { open, readFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { parseArgs } from 'node:util'
import { signaturePool, silentObserver } from '@guildhall/api/operations'
import { loadWasmKeccak } from '@guildhall/core'
import {
  BundleFormatError,
  type BundleSource,
  type RecountProgress,
  type RecountReport,
  recount,
  recountThread,
  recountWorkHere,
  responseChunks,
  THREAD_BUNDLE_FORMAT,
} from '@guildhall/core/recount'
import { createPublicClient, http, type PublicClient } from 'viem'
import { runCli } from './run-cli.ts'

const USAGE =
  'Usage: npm run recount -- <bundle.json | https://your-dao.example/proposals/0x… [--discussion] | https://your-dao.example/discussions/0x…> --rpc <url>'

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`

/** Where a page's bundle is: a proposal's result, or a thread's (a topic's, or a proposal's with --discussion). */
type BundleAddress = { kind: 'result' | 'thread'; url: string }

/** A proposal's or topic's page URL → its bundle's API URL; anything else is read as a file. */
function bundleUrl(source: string, discussion: boolean): BundleAddress | undefined {
  if (!/^https?:\/\//.test(source)) return undefined
  const url = new URL(source)
  const topic = /\/discussions\/(0x[0-9a-f]{64})/.exec(url.pathname)?.[1]
  if (topic) return { kind: 'thread', url: `${url.origin}/api/threads/${topic}/bundle` }
  const id = /\/proposals\/(0x[0-9a-f]{64})/.exec(url.pathname)?.[1]
  if (!id)
    throw new Error(
      `${source} is not a proposal's or a topic's address (…/proposals/0x or …/discussions/0x + 64 hex digits).`,
    )
  // A proposal's thread has the proposal's id.
  if (discussion) return { kind: 'thread', url: `${url.origin}/api/threads/${id}/bundle` }
  return { kind: 'result', url: `${url.origin}/api/proposals/${id}/bundle` }
}

/** Whether the file is a thread bundle, from its `format` near the start (a result bundle's comes first). */
async function isThreadBundleFile(path: string): Promise<boolean> {
  const file = await open(path)
  try {
    const { buffer, bytesRead } = await file.read({ buffer: Buffer.alloc(64 * 1024) })
    const format = /"format"\s*:\s*"([^"]*)"/.exec(buffer.subarray(0, bytesRead).toString('utf8'))?.[1]
    return format === THREAD_BUNDLE_FORMAT
  } finally {
    await file.close()
  }
}

/** A thread bundle, whole (a thread's messages are few enough to hold), from the file or the server. */
async function threadBundle(source: string, address: BundleAddress | undefined): Promise<unknown> {
  let text: string
  if (!address) text = await readFile(source, 'utf8')
  else {
    const response = await fetch(address.url)
    text = await response.text()
    if (!response.ok) throw new Error(`${address.url} answered ${response.status}: ${text}`)
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new BundleFormatError(
      `The bundle is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
}

/** Recounts a thread and prints what it found; the exit code. */
async function recountThreadCommand(
  source: string,
  address: BundleAddress | undefined,
  client: PublicClient,
) {
  let report: Awaited<ReturnType<typeof recountThread>>
  try {
    report = await recountThread(await threadBundle(source, address), { client })
  } catch (error) {
    if (!(error instanceof BundleFormatError)) throw error
    console.error(`This is not a Guildhall thread bundle:\n${error.message}`)
    return 2
  }
  console.log('')
  if (report.takedowns.length > 0) {
    console.log(
      `Taken down by the operator (${report.takedowns.length}): the text is gone, the log entry stays.`,
    )
    for (const takedown of report.takedowns) console.log(`  - ${takedown}`)
    console.log('')
  }
  if (report.matches) {
    console.log(
      `Verified: ${plural(report.messagesChecked, 'message')}, all signed by authorised keys and in the log (${plural(report.keysChecked, 'key')} checked).`,
    )
    return 0
  }
  console.log(`The thread DIFFERS (${report.problems.length}):`)
  for (const problem of report.problems) console.log(`  - ${problem}`)
  return 1
}

/** The bundle's bytes as they arrive, from the file or the server: the recount never holds all of it. */
async function bundleSource(source: string, address: BundleAddress | undefined): Promise<BundleSource> {
  if (!address) return createReadStream(source)
  const { url } = address
  const response = await fetch(url)
  if (!response.ok || !response.body)
    throw new Error(`${url} answered ${response.status}: ${await response.text()}`)
  return responseChunks(response.body)
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { rpc: { type: 'string' }, discussion: { type: 'boolean' } },
  })
  const [source] = positionals
  if (!source || !values.rpc || positionals.length > 1) {
    console.error(USAGE)
    return 2
  }
  const address = bundleUrl(source, values.discussion ?? false)
  if (values.discussion && address?.kind !== 'thread') {
    console.error(`--discussion takes a proposal's address (…/proposals/0x…).\n${USAGE}`)
    return 2
  }
  console.log(`Recounting ${source} against ${values.rpc}`)
  // Each vote's id and each log entry is hashed on this thread: by the WebAssembly Keccak (ADR 086).
  await loadWasmKeccak()
  const client = createPublicClient({ transport: http(values.rpc, { timeout: 30_000, retryCount: 2 }) })
  if (address ? address.kind === 'thread' : await isThreadBundleFile(source))
    return recountThreadCommand(source, address, client)
  let last = { step: '', tenth: -1 }
  let report: RecountReport
  // The API's signature workers, one per core: a recount of 100,000 votes is mostly their recovery (ADR 082).
  const signatures = signaturePool({
    threads: availableParallelism(),
    observer: silentObserver,
    logger: { error: (entry: unknown) => console.error(entry) },
  })
  try {
    const onProgress = (progress: RecountProgress) => {
      // One line per step and per tenth of it, so a long recount shows it is moving without flooding.
      const tenth = Math.floor((progress.done * 10) / Math.max(1, progress.total))
      if (progress.step === last.step && tenth === last.tenth) return
      console.log(`  ${progress.step}: ${progress.done}/${progress.total}`)
      last = { step: progress.step, tenth }
    }
    report = await recount(await bundleSource(source, address), client, onProgress, {
      work: recountWorkHere(signatures.recover),
    })
  } catch (error) {
    if (!(error instanceof BundleFormatError)) throw error
    console.error(`This is not a Guildhall result bundle:\n${error.message}`)
    return 2
  } finally {
    await signatures.close()
  }
  const { message } = report.proposal
  console.log('')
  console.log(`"${message.title}" (${report.proposal.id}), snapshot block ${message.snapshot}`)
  const { tally } = report
  console.log('')
  message.choices.forEach((choice, index) => {
    console.log(`  ${choice}: ${tally.perChoice[index]}`)
  })
  // Ranked choice: the lines above are round 1 (first preferences); then every round as counted.
  for (const [index, round] of (tally.rounds ?? []).entries()) {
    const powers = round.perChoice.flatMap((power, choice) =>
      power === null ? [] : [`${message.choices[choice]} ${power}`],
    )
    const out = round.eliminated.map((choice) => message.choices[choice - 1]).join(', ')
    console.log(`  round ${index + 1}: ${powers.join(', ')}${out ? `; eliminated: ${out}` : ''}`)
  }
  console.log(
    `  voters: ${tally.voters}, quorum ${tally.quorumReached ? 'reached' : 'not reached'}, outcome as counted: ${tally.outcome}`,
  )
  console.log('')
  if (report.matches) {
    console.log(
      `The result matches: ${report.votesChecked} signatures checked, ${report.votesCounted} votes counted${report.executionsChecked > 0 ? `, ${report.executionsChecked} Safe transactions of its execution checked` : ''}.`,
    )
    return 0
  }
  console.log(`The result DIFFERS (${report.differences.length}):`)
  for (const difference of report.differences) console.log(`  - ${difference}`)
  return 1
}

runCli('The recount', main)
