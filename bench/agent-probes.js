'use strict'
// Looking at a running agent from outside, for the agent benchmarks: its /metrics, and what /proc
// says of its process (which costs the agent nothing).
const { readFileSync } = require('node:fs')

/** One scrape of /metrics; the returned function sums a metric's samples (all label sets). */
async function scrape(url) {
  const text = await (await fetch(`${url}/metrics`)).text()
  return (name) => {
    let sum = 0
    for (const line of text.split('\n')) if (line.startsWith(`${name} `) || line.startsWith(`${name}{`)) sum += Number(line.slice(line.lastIndexOf(' ') + 1))
    return sum
  }
}

async function metric(url, name) {
  return (await scrape(url))(name)
}

/** Bytes the process has read so far (every read() it made: files and sockets), or undefined without /proc. */
function bytesReadBy(pid) {
  try {
    return Number(/^rchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1])
  } catch {
    return undefined
  }
}

/** user+system CPU seconds of a process so far (all its threads), or undefined without /proc. */
function cpuSecondsOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return undefined
  }
}

module.exports = { scrape, metric, bytesReadBy, cpuSecondsOf }
