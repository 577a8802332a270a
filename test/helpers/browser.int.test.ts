// The browser the suites use: which one is picked, and that the npm one works on its own. CI has Debian's
// Chromium, so the browser suites there use it: this file is what keeps the npm browser (the one a fresh
// machine without Chromium gets) tested in CI too.

import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, npmChromium, pickChromiumSource, SYSTEM_CHROMIUM } from './browser'

describe('pickChromiumSource', () => {
  const only =
    (...present: string[]) =>
    (path: string) =>
      present.includes(path)

  it('takes CHROMIUM_PATH first, then the system Chromium, then the npm one', () => {
    expect(
      pickChromiumSource({ CHROMIUM_PATH: '/opt/chrome/chrome' }, only('/opt/chrome/chrome', SYSTEM_CHROMIUM)),
    ).toEqual({
      source: 'CHROMIUM_PATH',
      executablePath: '/opt/chrome/chrome',
    })
    expect(pickChromiumSource({}, only(SYSTEM_CHROMIUM))).toEqual({ source: 'system', executablePath: SYSTEM_CHROMIUM })
    expect(pickChromiumSource({ CHROMIUM_PATH: '' }, only(SYSTEM_CHROMIUM))).toEqual({
      source: 'system',
      executablePath: SYSTEM_CHROMIUM,
    })
    expect(pickChromiumSource({}, only())).toEqual({ source: 'npm' })
  })

  it('refuses a CHROMIUM_PATH that does not exist rather than quietly using another browser', () => {
    expect(() => pickChromiumSource({ CHROMIUM_PATH: '/nowhere/chromium' }, only(SYSTEM_CHROMIUM))).toThrow(
      'CHROMIUM_PATH is /nowhere/chromium, which does not exist',
    )
  })
})

describe('the npm Chromium (@sparticuz/chromium)', () => {
  let server: Server
  let origin = ''
  let cacheRoot = ''

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<p id="out">waiting</p><script>out.textContent = "ran " + (6 * 7)</script>')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    cacheRoot = mkdtempSync(join(tmpdir(), 'logx-chromium-cache-'))
  })

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve))
    if (cacheRoot !== '') rmSync(cacheRoot, { recursive: true, force: true })
  })

  it('unpacks once when two suites ask at the same time, and the binary starts', async () => {
    const [first, second] = await Promise.all([npmChromium({ cacheRoot }), npmChromium({ cacheRoot })])
    expect(first.source).toBe('npm')
    expect(second.executablePath).toBe(first.executablePath)
    // Only the finished folder is left: the loser's staging copy is gone.
    expect(readdirSync(cacheRoot).length).toBe(1)
    expect(readdirSync(readdirSync(cacheRoot).map((v) => join(cacheRoot, v))[0] as string)).toContain('chromium')
    expect(statSync(first.executablePath).mode & 0o111).not.toBe(0)
    const version = spawnSync(first.executablePath, ['--version'], {
      encoding: 'utf8',
      ...(first.env ? { env: first.env } : {}),
    })
    expect(version.stdout).toMatch(/^Chromium \d+\./)
  }, 120_000)

  it('renders a page from 127.0.0.1 and runs its script, with the libraries it ships', async () => {
    // The bundled NSS/NSPR/expat are what a slim image without them would use.
    const choice = await npmChromium({ cacheRoot, libraries: 'bundled' })
    expect(choice.env?.['LD_LIBRARY_PATH']).toMatch(/al2023[/\\]lib/)
    const browser = await launchChromium(choice)
    try {
      await browser.page.goto(`${origin}/`)
      await expect(browser.page.locator('#out').textContent()).resolves.toBe('ran 42')
    } finally {
      await browser.close()
    }
  }, 120_000)
})
