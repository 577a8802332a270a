'use strict'
// The rotation drill's app and log rotator in one process: appends numbered JSON lines at full speed
// to `files` logs (`app-<k>.log`), and rotates each every few hundred lines, alternating
// rename-and-create (logrotate: `app-<k>.log.1`, outside the agent's `*.log`, the writer reopens by
// path as pm2's reloadLogs does) and copy-and-truncate (pm2-logrotate: `app-<k>__<r>.log`, inside
// it, the writer keeps its O_APPEND fd). All synchronous, so a rotation falls between two writes.
//
// A file renamed out of the patterns before the agent has opened it can be read by no one (the
// tailer's documented limit), and a copy of a file whose content it never saw is just another file
// to it (read whenever found, so not in order with the rest of its stream). So a rotation waits,
// while the writer goes on writing, until the agent's tap shows it has read the first lines of the
// file's current content (a few hundred bytes: the head that identifies a file), as it has within
// milliseconds when rotations are minutes apart; the writer goes on with the other files meanwhile.
// The agent may still be far from the end of it: rotations land while it reads. The seed fixes the
// writer's choices; where it has to wait for the agent depends on the agent's pace.
//
// Usage (forked, IPC): node rotation-writer.js <dir> <files> <rotations> <seed> <tap file> <deadline ms> [<frames>]
// With frames, each numbered line starts a multi-line event and the counts below are events.
// Sends { done, totals, renames, copies, timedOut } and disconnects.

const { closeSync, copyFileSync, ftruncateSync, openSync, readSync, renameSync, writeSync } = require('node:fs')
const { join } = require('node:path')

const [dir, filesText, rotationsText, seedText, tapPath, deadlineText, framesText] = process.argv.slice(2)
// Multi-line: each numbered line is followed by this many indented frame lines (one event, one write).
const frames = Number(framesText ?? 0)
const fileCount = Number(filesText)
const rotationsWanted = Number(rotationsText)
const deadline = Date.now() + Number(deadlineText)

// mulberry32: a seeded generator, so a failing run can be replayed with its seed.
let seed = Number(seedText) >>> 0
function random() {
  seed = (seed + 0x6d2b79f5) >>> 0
  let t = seed
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
const between = (min, max) => min + Math.floor(random() * (max - min + 1))

// The highest number of each file the agent has tapped, from the tap's new bytes since last time.
const tapped = []
let tapFd
let tapOffset = 0
let tapRest = ''
const tapBuffer = Buffer.allocUnsafe(1024 * 1024)
const TAPPED = /\\"file\\":(\d+),\\"n\\":(\d+)/
function readTap() {
  if (tapFd === undefined) {
    try {
      tapFd = openSync(tapPath, 'r')
    } catch {
      return
    }
  }
  for (;;) {
    const n = readSync(tapFd, tapBuffer, 0, tapBuffer.length, tapOffset)
    if (n === 0) return
    tapOffset += n
    const lines = (tapRest + tapBuffer.toString('latin1', 0, n)).split('\n')
    tapRest = lines.pop()
    for (const line of lines) {
      const match = TAPPED.exec(line)
      if (match === null) continue
      const k = Number(match[1])
      const number = Number(match[2])
      if (!(tapped[k] >= number)) tapped[k] = number
    }
  }
}

/** Lines of a file's current content the agent must have read before it is rotated: > 256 bytes. */
const SEEN_LINES = 8

const files = []
for (let k = 0; k < fileCount; k++) {
  const path = join(dir, `app-${k}.log`)
  files.push({
    k,
    path,
    fd: openSync(path, 'a'),
    n: 0,
    first: 1,
    since: 0,
    due: between(150, 450),
    rename: k % 2 === 0,
    rotations: 0,
  })
}

let rotations = 0
let lastTapRead = 0
let renames = 0
let copies = 0
let timedOut = false

function rotate(file) {
  if (!(tapped[file.k] >= file.first + SEEN_LINES)) {
    // Reading the tap costs a read and a scan: at most every 2 ms.
    const now = Date.now()
    if (now - lastTapRead < 2) return false
    lastTapRead = now
    readTap()
    if (!(tapped[file.k] >= file.first + SEEN_LINES)) return false
  }
  if (file.rename) {
    renameSync(file.path, `${file.path}.1`)
    closeSync(file.fd)
    file.fd = openSync(file.path, 'a')
    renames++
  } else {
    copyFileSync(file.path, join(dir, `app-${file.k}__${file.rotations + 1}.log`))
    ftruncateSync(file.fd, 0)
    copies++
  }
  file.rotations++
  rotations++
  file.rename = !file.rename
  file.since = 0
  file.first = file.n + 1
  file.due = between(150, 450)
  return true
}

let bursts = 0
const sleeper = new Int32Array(new SharedArrayBuffer(4))
while (rotations < rotationsWanted) {
  if (++bursts % 1024 === 0 && Date.now() > deadline) {
    timedOut = true
    break
  }
  const file = files[Math.floor(random() * files.length)]
  // Due: rotated as soon as the agent has seen its content, and not written to before, so files
  // rotate every few hundred lines; the writer goes on with the others meanwhile.
  if (file.since >= file.due && !rotate(file)) {
    if (files.every((f) => f.since >= f.due)) Atomics.wait(sleeper, 0, 0, 1)
    continue
  }
  const count = between(1, 40)
  let text = ''
  for (let i = 0; i < count; i++) {
    text += `{"level":30,"file":${file.k},"n":${++file.n},"msg":"rotation drill"}\n`
    for (let f = 0; f < frames; f++) text += `\tat drill.Writer.line(File${file.k}.java:${file.n})\n`
  }
  writeSync(file.fd, text)
  file.since += count
  if (file.since >= file.due) rotate(file)
}
for (const file of files) closeSync(file.fd)
if (tapFd !== undefined) closeSync(tapFd)
process.send({ done: true, totals: files.map((f) => f.n), renames, copies, timedOut }, () => process.disconnect())
