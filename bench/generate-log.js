'use strict'
// The log file both tail benchmarks read: HTTP-app lines, 1% errors, as pino/logx writes them
// (`json`) or as a classic text log (`text`). Deterministic, so every reader can be checked
// against the returned counts.
const { closeSync, openSync, writeSync } = require('node:fs')

// With `traces` (text only), each error line is followed by a Java stack trace of TRACE_FRAMES lines,
// as logback writes an exception under its message: the file a `multiline: java` source reads.
const TRACE = [
  'java.util.concurrent.TimeoutException: upstream timed out after 3000ms',
  '\tat com.acme.api.upstream.Upstream.call(Upstream.java:88)',
  '\tat com.acme.api.orders.OrderService.load(OrderService.java:142)',
  '\tat com.acme.api.orders.OrderController.get(OrderController.java:58)',
  '\tat org.springframework.web.servlet.FrameworkServlet.service(FrameworkServlet.java:885)',
  '\tat org.apache.catalina.core.ApplicationFilterChain.doFilter(ApplicationFilterChain.java:164)',
  '\tat java.base/java.lang.Thread.run(Thread.java:1583)',
].join('\n') + '\n'
const TRACE_FRAMES = 7

/**
 * `linesPerIncident` (NDJSON): the error lines of every that many lines share an `incident` id of their
 * own (in the field and the message), as a fleet sees an outage: a rule grouping by it opens a new
 * incident there (bench/fleet.js). `incidents` counts them.
 */
function generateLog (file, targetBytes, format, { traces = false, linesPerIncident = undefined } = {}) {
  const fd = openSync(file, 'w')
  const paths = ['/api/items', '/api/orders/42', '/api/users/me', '/health', '/api/search?q=shoes']
  let written = 0
  let lines = 0
  let errors = 0
  let incidents = 0
  let lastIncident = -1
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
          if (traces) {
            chunk += TRACE
            lines += TRACE_FRAMES
          }
        } else {
          chunk += `${stamp} INFO  [api-7f9c] req-${lines} GET ${path} 200 ${lines % 97}ms request completed for user ann from 10.0.3.17\n`
        }
      } else if (lines % 100 === 0) {
        errors++
        let incident = ''
        if (linesPerIncident !== undefined) {
          const k = Math.floor(lines / linesPerIncident)
          if (k !== lastIncident) incidents++
          lastIncident = k
          incident = `inc-${k}`
        }
        const field = incident === '' ? '' : `"incident":"${incident}",`
        chunk += `{"level":50,"time":${time},"pid":4242,"hostname":"api-7f9c","reqId":"req-${lines}",${field}"err":{"type":"TimeoutError","message":"upstream timed out after 3000ms","stack":"TimeoutError: upstream timed out\\n    at Timeout.<anonymous> (/srv/api/lib/upstream.js:88:17)"},"msg":"request failed${incident === '' ? '' : ` ${incident}`}"}\n`
      } else {
        chunk += `{"level":30,"time":${time},"pid":4242,"hostname":"api-7f9c","reqId":"req-${lines}","req":{"method":"GET","url":"${path}"},"res":{"statusCode":200},"responseTime":${lines % 97},"msg":"request completed"}\n`
      }
    }
    written += writeSync(fd, chunk)
  }
  // An event ends at the line after it: the file must not end inside one (a quiet file's last
  // event waits out the source's timeout).
  if (traces) {
    lines++
    writeSync(fd, `${new Date(time + 7).toISOString()} INFO  [api-7f9c] req-${lines} shutting down\n`)
  }
  closeSync(fd)
  return { lines, errors, incidents }
}

module.exports = { generateLog }
