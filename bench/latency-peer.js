'use strict'
// For bench/latency.js: the lines it streams (shaped like agentbench's live lines: pino-http NDJSON
// of about 430 bytes, or log4j-style text of about 170), the naive Node peer it races, and the
// watch on that peer's output file.
const { closeSync, fstatSync, openSync, readSync, watch } = require('node:fs')

const PATHS = ['/api/orders/20152', '/api/items?page=3', '/api/users/me', '/health', '/api/search?q=shoes&sort=price']
const AGENTS = ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36', 'curl/8.5.0', 'okhttp/4.12.0']
const THREADS = ['http-nio-8080-exec-1', 'http-nio-8080-exec-7', 'scheduling-1', 'main']
const CLASSES = ['com.example.web.OrderController', 'com.example.cache.CacheService', 'org.hibernate.SQL', 'com.example.web.HealthCheck']

/** `count` distinct info lines (newline-terminated), cycled through by the writer. */
function infoLines(format, count) {
  const lines = []
  const time = Date.now()
  for (let i = 0; i < count; i++) {
    const path = PATHS[i % PATHS.length]
    if (format === 'text') {
      const stamp = new Date(time + i).toISOString().replace('T', ' ').replace('.', ',').slice(0, 23)
      lines.push(`${stamp} INFO  [${THREADS[i % THREADS.length]}] ${CLASSES[i % CLASSES.length]}: request completed GET ${path} status=200 took=${i % 97}ms cache hit key=k${i}\n`)
    } else {
      lines.push(`{"level":30,"time":${time + i},"pid":4100,"hostname":"web-1","reqId":"req-${(i * 7919).toString(36)}","req":{"method":"GET","url":"${path}","headers":{"host":"api.example.com","user-agent":"${AGENTS[i % AGENTS.length]}","accept":"application/json"},"remoteAddress":"10.0.3.${i % 250}","remotePort":${40000 + i}},"res":{"statusCode":200},"responseTime":${i % 97},"msg":"request completed"}\n`)
    }
  }
  return lines
}

/** One error line whose message is `text` (a unique id: a new incident with `group_by: [msg]`). */
function errorLine(format, text) {
  const now = Date.now()
  if (format === 'text') return `${new Date(now).toISOString().replace('T', ' ').replace('.', ',').slice(0, 23)} ERROR [main] com.example.App: ${text}\n`
  return `{"level":50,"time":${now},"pid":4100,"hostname":"web-1","err":{"type":"Error","message":"${text}","stack":"Error: ${text}\\n    at Timeout._onTimeout (/app/dist/worker.js:12:9)"},"msg":"${text}"}\n`
}

// The peer, run as `node -e NAIVE_FOLLOWER FILE OUT`: what a straightforward Node tailer does.
// fs.watch on the file; on each event, read from the last offset to the end, split the lines,
// JSON.parse a line that looks like JSON (level >= 50) or test a text line's level word, and
// writeSync the matching lines to OUT.
const NAIVE_FOLLOWER = `
const fs = require('node:fs')
const [file, out] = process.argv.slice(1)
const outFd = fs.openSync(out, 'a')
const fd = fs.openSync(file, 'r')
const buf = Buffer.allocUnsafe(1 << 20)
const TEXT_ERROR = / (?:ERROR|FATAL) /
const isError = (line) => {
  if (line.charCodeAt(0) === 123) { try { return JSON.parse(line).level >= 50 } catch { return false } }
  return TEXT_ERROR.test(line)
}
let pos = fs.fstatSync(fd).size
let rest = ''
let busy = false
let again = false
function drain() {
  if (busy) { again = true; return }
  busy = true
  const step = () => fs.read(fd, buf, 0, buf.length, pos, (err, n) => {
    if (err) throw err
    if (n === 0) {
      busy = false
      if (again) { again = false; drain() }
      return
    }
    pos += n
    const lines = (rest + buf.toString('utf8', 0, n)).split('\\n')
    rest = lines.pop()
    let hits = ''
    for (const line of lines) if (line !== '' && isError(line)) hits += line + '\\n'
    if (hits !== '') fs.writeSync(outFd, hits)
    step()
  })
  step()
}
fs.watch(file, drain)
console.log('following ' + file)
`

/**
 * Calls onText(text, at) with the bytes appended to `path` (at: performance.now() when they were
 * seen), on inotify events and on a 2 ms poll behind them, as agentbench watches a peer's output.
 * The text overlaps the previous call's by 40 bytes, so an id cut by a read is still found whole.
 * Returns the function that stops it (after one last look).
 */
function watchAppends(path, onText) {
  const fd = openSync(path, 'r')
  const buf = Buffer.allocUnsafe(1 << 20)
  let offset = 0
  let carry = ''
  const check = () => {
    const size = fstatSync(fd).size
    if (size <= offset) return
    const at = performance.now()
    while (offset < size) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, size - offset), offset)
      if (n <= 0) break
      offset += n
      const text = carry + buf.toString('latin1', 0, n)
      onText(text, at)
      carry = text.slice(-40)
    }
  }
  const watcher = watch(path, check)
  const timer = setInterval(check, 2)
  return () => {
    watcher.close()
    clearInterval(timer)
    check()
    closeSync(fd)
  }
}

module.exports = { infoLines, errorLine, NAIVE_FOLLOWER, watchAppends }
