import { openDatabase } from '@guildhall/api/database'
import { sql } from 'drizzle-orm'
const d = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL })
await d.migrate()
const x = (q: string) => d.db.execute(sql.raw(q))
await x(`set session_replication_role = replica`)
await x(`insert into votes (id, proposal_id, voter, timestamp, message, signature, power, power_source) select '0x'||lpad(to_hex(g),64,'0'), '0xp', '0x'||lpad(to_hex(g),40,'0'), 1, '{}'::jsonb, '0x', 1, 'index' from generate_series(1, 100000) g`)
await x(`insert into ballots (proposal_id, voter, vote_id, timestamp, power) select '0xp', '0x'||lpad(to_hex(g),40,'0'), '0x'||lpad(to_hex(g),64,'0'), 1, 1 from generate_series(1, 100000) g`)
await x(`analyze`)
const pairs = JSON.stringify(Array.from({ length: 20 }, (_, i) => ({ p: '0xp', v: '0x' + (i * 977 + 5).toString(16).padStart(40, '0') })))
const r = await x(`explain analyze select b.proposal_id, b.voter, v.id, v.timestamp, v.message, v.power from ballots b join votes v on b.vote_id = v.id where (b.proposal_id, b.voter) in (select p, v from jsonb_to_recordset('${pairs}'::jsonb) as x(p text, v text))`)
console.log(r.rows.map((row: any) => row['QUERY PLAN']).join('\n'))
await d.close()
