// `npm start`: a local anvil chain with persisted state, the demo DAO and its treasury Safe, the local name service (a second
// anvil with chain id 1 and a stand-in IPFS gateway, for the server's name lookups only), and the API serving
// the web app, all on one printed URL. The API is the production server `npm run build` made, run with plain
// node as an operator runs it (ADR 066). Ctrl-C stops everything it started.
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { join, resolve } from 'node:path'
import { closeOnSignals, EnvError, parseEnv } from '@guildhall/api'
import { demoChainGenesis, demoEnv, seedDemoInChild } from '@guildhall/api/demo'
import { type ApiProcess, startApiProcess, stopApiProcess } from '@guildhall/api/testbed'
import { LOCAL_CHAIN_ID } from '@guildhall/core'
import { getFreePort, startAnvil } from '@guildhall/devchain/anvil'
import { ensureDemoDao } from '@guildhall/devchain/demo-dao'
import { NAME_SERVICE_LABEL, type NameService, startNameService } from '@guildhall/devchain/name-service'
import { deploySafes, ensureDemoTreasury } from '@guildhall/devchain/safe'

const root = resolve(import.meta.dirname, '..')
const dataDir = resolve(root, process.env.GUILDHALL_DATA_DIR ?? '.data')
const preferredAnvilPort = Number(process.env.ANVIL_PORT ?? 8545)

/** True when nothing listens on 127.0.0.1:port. */
function isPortFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer()
    server.once('error', () => done(false))
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)))
  })
}

async function main() {
  // The browser reaches the chain through the app's /rpc, so anvil's own port only matters to tools.
  const anvilPort = (await isPortFree(preferredAnvilPort)) ? preferredAnvilPort : await getFreePort()
  const statePath = join(dataDir, 'anvil-state.json')
  const anvil = await startAnvil({
    port: anvilPort,
    chainId: LOCAL_CHAIN_ID,
    statePath,
    quiet: true,
    // A new chain's clock starts months back, so the treasury's history below is dated over those months.
    ...(!existsSync(statePath) && { genesisTimestamp: demoChainGenesis() }),
  })
  let nameService: NameService | undefined
  let server: ApiProcess | undefined
  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    if (server) await stopApiProcess(server, 'SIGTERM')
    await nameService?.stop()
    await anvil.stop()
  }
  try {
    const deployment = await ensureDemoDao({
      rpcUrl: anvil.url,
      chainId: LOCAL_CHAIN_ID,
      deploymentPath: join(dataDir, 'deployment.json'),
    })
    // The treasury Safe (2-of-3 Ada, Ben, Cleo) with ETH, GHD and USDG and half a year of history, the first
    // time only; the clock is back at the present afterwards.
    const treasury = await ensureDemoTreasury({
      rpcUrl: anvil.url,
      chainId: LOCAL_CHAIN_ID,
      governanceToken: deployment.token,
    })
    // Safe v1.5.0 and two demo Safes (1-of-1 Ada; 2-of-3 Ada, Ben, Cleo) for contract-wallet sign-in.
    const safes = await deploySafes({ rpcUrl: anvil.url, chainId: LOCAL_CHAIN_ID })
    // Deployed afresh on every start (the same names and addresses each time): nothing to keep.
    nameService = await startNameService()
    const env = {
      // The embedded database lives beside the chain's state, so a restart keeps both.
      DATA_DIR: join(dataDir, 'db'),
      ...demoEnv({
        anvilUrl: anvil.url,
        deployment,
        treasury,
        nameService,
        webDist: join(root, 'apps/web/dist'),
      }),
    }
    const settings = parseEnv(env)
    // Proposals in every state with the demo members' signed votes, the first time only; before the server
    // opens the database, which PGlite gives one process at a time. In a process of its own, which gives
    // its memory back when it exits.
    const seeded = await seedDemoInChild(env, { safe: treasury.safe.address, usdg: treasury.usdg })
    closeOnSignals(stop)
    server = await startApiProcess(
      { ...env, HOST: settings.host, PUBLIC_ORIGIN: settings.publicConfig.appUrl },
      { built: true, port: settings.port, detached: true, onLine: (line) => console.log(line) },
    )
    console.log(`\nGuildhall is running at ${settings.publicConfig.appUrl}\n`)
    console.log(`  chain    anvil ${anvil.url} (chain id ${LOCAL_CHAIN_ID}), state in ${dataDir}`)
    console.log(`  token    ${deployment.tokenName} (${deployment.tokenSymbol}) at ${deployment.token}`)
    if (seeded > 0) {
      console.log(
        `  demo     ${seeded} proposals with signed votes from Ada, Ben and Cleo, two with payments for the treasury Safe, ranked-choice, weighted and quadratic ones`,
      )
      console.log(
        '  forum    topics in each category and threads on the proposals, every message signed; Cleo moderates',
      )
    }
    console.log(
      `  treasury 2-of-3 Safe ${treasury.safe.address} (Ada, Ben, Cleo): ETH, GHD and USDG ${treasury.usdg}`,
    )
    console.log(`  safes    1-of-1 ${safes.oneOfOne.address}, 2-of-3 ${safes.twoOfThree.address} (sign-in)`)
    const names = nameService.deployment.members.flatMap((m) => (m.name ? [m.name] : []))
    console.log(`  names    ${NAME_SERVICE_LABEL}, anvil ${nameService.rpcUrl}: ${names.join(', ')}`)
    console.log("           for the server's name lookups only; not a network to add to a wallet")
    console.log(`  avatars  stand-in IPFS gateway ${nameService.ipfsGatewayUrl}`)
    console.log(
      '  wallet   pick "Development wallet" in the connect dialog, or add the chain to your own wallet',
    )
    console.log(`           with RPC URL ${settings.publicConfig.chains[0]?.rpcUrl}`)
    console.log('\nPress Ctrl-C to stop.')
  } catch (error) {
    await stop()
    throw error
  }
}

main().catch((error) => {
  console.error(error instanceof EnvError ? error.message : error)
  process.exit(1)
})
