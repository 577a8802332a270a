// The inotify watch limit (fs.inotify.max_user_watches, "System limit for number of file watchers
// reached") is a classic of log tailers on busy hosts. Reached, discovery polls the directories, with
// one warning, rather than leave the files it could not watch unread. The limit is real: the tailer
// runs in a user namespace of its own whose limit (/proc/sys/user/max_inotify_watches) is 4, with 13
// watches wanted (a base directory, six under it, a file in each). The scheduler's tick is an hour
// away, so without the polling the files past the limit would never be read.
// Runs the build (dist/): stops here, saying so, when it is missing or older than the sources.
import '../../helpers/needs-build'
import { execFileSync, spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const LIMITED = 'echo 4 > /proc/sys/user/max_inotify_watches && exec "$0" -'

function userNamespaces(): boolean {
  return (
    spawnSync('unshare', ['-U', '-r', 'sh', '-c', LIMITED, process.execPath], {
      input: 'process.exit(0)',
      encoding: 'utf8',
    }).status === 0
  )
}

const SCRIPT = `
const { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } = require('node:fs')
const { join } = require('node:path')
const { tmpdir } = require('node:os')
const { createTailer } = require('./dist/agent/tail')
const dir = mkdtempSync(join(tmpdir(), 'logx-watch-limit-'))
for (let i = 0; i < 6; i++) {
  mkdirSync(join(dir, 'app-' + i))
  writeFileSync(join(dir, 'app-' + i, 'app.log'), 'first line from app ' + i + '\\n')
}
const waitFor = async (seen, n) => {
  const deadline = Date.now() + 15000
  while (seen.size < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
}
;(async () => {
  const warnings = []
  const tailer = await createTailer({ paths: [join(dir, '*', 'app.log')], startAt: 'beginning', pollIntervalMs: 3600000, onWarning: (w) => warnings.push(w.code + ' ' + w.message) })
  const seen = new Set()
  const reading = (async () => {
    for await (const batch of tailer) {
      for (const line of batch.lines) seen.add(line.data.toString())
      await tailer.commit(batch)
    }
  })()
  // The lines there at start are read by the first turns; what is appended after them needs the
  // watches, or the polling.
  await waitFor(seen, 6)
  for (let i = 0; i < 6; i++) appendFileSync(join(dir, 'app-' + i, 'app.log'), 'next line from app ' + i + '\\n')
  await waitFor(seen, 12)
  await tailer.close()
  await reading
  rmSync(dir, { recursive: true, force: true })
  process.stdout.write(JSON.stringify({ seen: [...seen].sort(), warnings }))
})()
`

const available = userNamespaces()
if (!available)
  console.warn(
    '\n!!! SKIPPED "the inotify watch limit": no user namespaces here (unshare -U -r); CI runs it as root !!!\n',
  )

;(available ? describe : describe.skip)('the inotify watch limit', () => {
  it('reached: discovery polls instead, every file is read, and it says why', () => {
    const out = execFileSync('unshare', ['-U', '-r', 'sh', '-c', LIMITED, process.execPath], {
      cwd: resolve(__dirname, '..', '..', '..'),
      input: SCRIPT,
      encoding: 'utf8',
    })
    const { seen, warnings } = JSON.parse(out) as { seen: string[]; warnings: string[] }
    expect(seen).toEqual(
      [0, 1, 2, 3, 4, 5].flatMap((i) => [`first line from app ${i}`, `next line from app ${i}`]).sort(),
    )
    expect(warnings.length).toBeGreaterThanOrEqual(1)
    for (const warning of warnings)
      expect(warning).toMatch(
        /^LOGX_TAIL_ERR_WATCH watcher error: cannot watch \S+: ENOSPC: System limit for number of file watchers reached.*: polling every 100 ms, watching again in \d+ s$/,
      )
  })
})
