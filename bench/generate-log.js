'use strict'
// The log file both tail benchmarks read: HTTP-app lines, 1% errors, as pino/logx writes them
// (`json`) or as a classic text log (`text`). Deterministic, so every reader can be checked
// against the returned counts.
const { closeSync, openSync, writeSync } = require('node:fs')

function generateLog (file, targetBytes, format) {
  const fd = openSync(file, 'w')
  const paths = ['/api/items', '/api/orders/42', '/api/users/me', '/health', '/api/search?q=shoes']
  let written = 0
  let lines = 0
  let errors = 0
  let time = 1_700_000_000_000
  while (written < targetBytes) {
    let chunk = ''
    for (let i = 0; i < 10_000; i++) {
      lines++
      time += 7
      const path = paths[lines % paths.length]
      if (format === 'text') {
        const stamp = new Date(time).toISOString()
        if (lines % 100 === 0) {
          errors++
          chunk += `${stamp} ERROR [api-7f9c] req-${lines} upstream timed out after 3000ms (TimeoutError at /srv/api/lib/upstream.js:88:17) while calling ${path}\n`
        } else {
          chunk += `${stamp} INFO  [api-7f9c] req-${lines} GET ${path} 200 ${lines % 97}ms request completed for user ann from 10.0.3.17\n`
        }
      } else if (lines % 100 === 0) {
        errors++
        chunk += `{"level":50,"time":${time},"pid":4242,"hostname":"api-7f9c","reqId":"req-${lines}","err":{"type":"TimeoutError","message":"upstream timed out after 3000ms","stack":"TimeoutError: upstream timed out\\n    at Timeout.<anonymous> (/srv/api/lib/upstream.js:88:17)"},"msg":"request failed"}\n`
      } else {
        chunk += `{"level":30,"time":${time},"pid":4242,"hostname":"api-7f9c","reqId":"req-${lines}","req":{"method":"GET","url":"${path}"},"res":{"statusCode":200},"responseTime":${lines % 97},"msg":"request completed"}\n`
      }
    }
    written += writeSync(fd, chunk)
  }
  closeSync(fd)
  return { lines, errors }
}

module.exports = { generateLog }
