import { prepareTreasuryChain } from './bench/treasury/chain.ts'
const t = performance.now()
const chain = await prepareTreasuryChain({ sizes: { large: Number(process.env.N ?? 2000), small: 100 }, log: console.log })
console.log(chain.treasuries, chain.head, chain.setupSeconds, (performance.now()-t)/1000)
await chain.anvil.stop()
