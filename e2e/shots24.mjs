import { chromium } from '@playwright/test'
const base = process.argv[2]
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] })
const topics = (await (await fetch(`${base}/api/discussion/topics`)).json()).items
const proposals = (await (await fetch(`${base}/api/proposals?limit=20`)).json())
const plist = proposals.items ?? proposals.proposals ?? []
const withThread = { id: '0x410e639f3f25482e82c0a6bb6469980e4092d4ef7f40a2aec3ffc8a01befb98e' }
const pages = [['discussions', '/discussions'], ['topic', `/discussions/${topics[0].id}`], ['proposal', `/proposals/${withThread.id}#discussion`], ['moderation', '/moderation']]
for (const [w, h, tag] of [[1280, 900, 'desktop'], [390, 844, 'phone']]) {
  const context = await browser.newContext({ viewport: { width: w, height: h } })
  const page = await context.newPage()
  for (const [name, path] of pages) {
    await page.goto(base + path)
    await page.waitForTimeout(3500)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    console.log(tag, name, 'sideways overflow px', overflow)
    await page.screenshot({ path: `/work/notes/screens24/${name}-${tag}.png`, fullPage: name !== 'proposal' })
    if (name === 'proposal') { await page.locator('#discussion').screenshot({ path: `/work/notes/screens24/${name}-thread-${tag}.png` }).catch((e) => console.log(String(e).slice(0, 200))) }
  }
  await context.close()
}
await browser.close()
