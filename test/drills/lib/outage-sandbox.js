'use strict'
// The sandbox in its own process for the outage drill: listens on a given port (0: any) with a
// data directory, so it can be stopped and started again at the same address with its records,
// and logs every API and webhook exchange (arrival, end, status or how it ended, Retry-After,
// body) to a JSON-lines file, so the drill can check what the agent did from the server's side.
// argv: port dataDir requestLog [faultsJson]. Sends its info over IPC; stops when the parent disconnects.
const http = require('node:http')
const { appendFileSync } = require('node:fs')

const [port, dataDir, requestLog, faultsJson] = process.argv.slice(2)

// Wrap the request handler the sandbox gives http.createServer: the body is tapped with a second
// 'data' listener attached in the same tick as the sandbox's own, so both see every chunk.
const createServer = http.createServer
http.createServer = function logged(...args) {
  const handler = args.find((a) => typeof a === 'function')
  const rest = args.filter((a) => typeof a !== 'function')
  return createServer.call(this, ...rest, (req, res) => {
    if ((req.url || '').startsWith('/_sandbox/')) return handler(req, res)
    const arrived = Date.now()
    const chunks = []
    req.on('data', (chunk) => chunks.push(chunk))
    // Headers given to writeHead() are not visible through getHeader(): note Retry-After on the way.
    let retryAfter
    let answered
    const writeHead = res.writeHead
    res.writeHead = function (status, ...more) {
      answered = Date.now()
      for (const arg of more) {
        if (arg !== null && typeof arg === 'object' && !Array.isArray(arg)) {
          for (const [name, value] of Object.entries(arg))
            if (name.toLowerCase() === 'retry-after') retryAfter = String(value)
        }
      }
      return writeHead.call(this, status, ...more)
    }
    let done = false
    const log = (outcome) => {
      if (done) return
      done = true
      const entry = {
        arrived,
        ended: Date.now(),
        // When the status line was written: the client cannot have seen an answer before.
        answered,
        method: req.method,
        url: req.url,
        outcome,
        retryAfter: retryAfter ?? res.getHeader('retry-after'),
        key: req.headers['idempotency-key'],
        body: Buffer.concat(chunks).toString('utf8'),
      }
      appendFileSync(requestLog, `${JSON.stringify(entry)}\n`)
    }
    res.on('finish', () => log(res.statusCode))
    // Closed before an answer went out: a dropped connection, or the client gave up (timeout).
    res.on('close', () => log(res.writableFinished ? res.statusCode : 'closed'))
    handler(req, res)
  })
}

const { startSandbox } = require('../../../dist/agent/sandbox/index.js')

startSandbox({ port: Number(port), dataDir, faults: faultsJson ? JSON.parse(faultsJson) : [] }).then(
  (sandbox) => {
    process.send({ info: sandbox.info, apiKey: sandbox.apiKey, activityToken: sandbox.activityToken })
    process.on('disconnect', () => {
      sandbox.close().then(() => process.exit(0))
    })
  },
  (err) => {
    process.stderr.write(`outage sandbox: ${err.message}\n`)
    process.exit(1)
  },
)
