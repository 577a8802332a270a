// Attacks of the "hostile neighbours" drill row (issue #32, items 2-4), each against a running agent
// and its sandbox, each telling whether it succeeded: a drill passes when none does. They act as a
// web page in a browser on the same machine would (a name re-pointed at 127.0.0.1, cross-site
// `no-cors` POSTs) and as another machine on the network would, with plain node:http, so the Host
// and Origin headers are exactly what a browser would send.
import { request } from 'node:http'
import { networkInterfaces } from 'node:os'

export interface AttackResult {
  attack: string
  succeeded: boolean
  /** What came back, for the drill's report. */
  detail: string
}

interface Answer {
  status: number
  body: string
}

/** One request with the headers as given (fetch would not let a Host header through). */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers }
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body))
    let answered = false
    const req = request(url, { method: options.method ?? 'GET', headers, agent: false }, (res) => {
      answered = true
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('error', (err: NodeJS.ErrnoException) => {
      // A server that refuses a body answers before reading it and closes: the rest of a large body then
      // meets a closed socket. That is a refusal (status 0), not a failure of the drill.
      if (err.code === 'EPIPE' || err.code === 'ECONNRESET') {
        if (!answered) resolve({ status: 0, body: `connection closed (${err.code})` })
        return
      }
      reject(err)
    })
    req.end(options.body)
  })
}

/** Whether the server took the request (a 2xx). */
const took = (answer: Answer): boolean => answer.status >= 200 && answer.status < 300

/** The Host header a rebinding page sends: its own name, with the port it was told to use. */
const rebound = (url: string): string => `evil.example:${new URL(url).port}`

const result = (attack: string, succeeded: boolean, answer: Answer): AttackResult => ({
  attack,
  succeeded,
  detail: `${answer.status} ${answer.body.slice(0, 120)}`,
})

/** Item 2: a rebinding page reads the sandbox's records (phone numbers, alert text). */
export async function rebindingReadsRecords(sandboxBaseUrl: string): Promise<AttackResult> {
  const url = `${sandboxBaseUrl}/_sandbox/records?limit=5`
  const answer = await rawRequest(url, { headers: { host: rebound(url) } })
  return result('rebinding reads /_sandbox/records', answer.status === 200, answer)
}

/** Item 2: a rebinding page simulates a missed call (which acknowledges a firing incident). */
export async function rebindingPostsMissedCall(sandboxBaseUrl: string, caller: string): Promise<AttackResult> {
  const url = `${sandboxBaseUrl}/_sandbox/missed-calls`
  const host = rebound(url)
  const answer = await rawRequest(url, {
    method: 'POST',
    // The page is same-origin with itself after the rebinding: its Origin names its own host.
    headers: { host, origin: `http://${host}`, 'content-type': 'application/json' },
    body: JSON.stringify({ caller }),
  })
  return result('rebinding posts /_sandbox/missed-calls', took(answer), answer)
}

/** Item 2: a rebinding page reads the agent's /metrics or /health. */
export async function rebindingReadsAgent(metricsUrl: string, path: '/metrics' | '/health'): Promise<AttackResult> {
  const url = `${metricsUrl}${path}`
  const answer = await rawRequest(url, { headers: { host: rebound(url) } })
  return result(`rebinding reads ${path}`, answer.status === 200 || answer.status === 503, answer)
}

/**
 * Item 3: a page of another site posts leads of `bytes` each as `no-cors` (text/plain, its own Origin),
 * `count` times; succeeded when any was taken. `storedCount` reads how many leads the sandbox holds,
 * so one taken without a 2xx (or refused after storing) counts too.
 */
export async function crossOriginLeadFlood(
  leadWebhookUrl: string,
  options: { count: number; bytes: number; storedCount: () => Promise<number> },
): Promise<AttackResult> {
  const before = await options.storedCount()
  const body = JSON.stringify({ name: 'flood', note: 'x'.repeat(Math.max(0, options.bytes - 30)) })
  let last: Answer = { status: 0, body: '' }
  let accepted = 0
  for (let i = 0; i < options.count; i++) {
    last = await rawRequest(leadWebhookUrl, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'text/plain;charset=UTF-8' },
      body,
    })
    if (took(last)) accepted++
  }
  const stored = (await options.storedCount()) - before
  return {
    attack: `cross-origin text/plain leads (${options.count} x ${options.bytes} bytes)`,
    succeeded: accepted > 0 || stored > 0,
    detail: `${accepted} accepted, ${stored} stored; last ${last.status} ${last.body.slice(0, 120)}`,
  }
}

/** This machine's addresses that are not loopback (where another machine would connect). */
export function externalAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((info) => !info.internal && info.family === 'IPv4')
    .map((info) => info.address)
}

/**
 * Item 4: another machine reaches the sandbox on one of this machine's other addresses; succeeded
 * when it answered. Not run (not succeeded, said so) on a machine with no such address.
 */
export async function reachableOffLoopback(sandboxBaseUrl: string): Promise<AttackResult> {
  const attack = 'the sandbox answers on an address that is not loopback'
  const address = externalAddresses()[0]
  if (address === undefined) return { attack, succeeded: false, detail: 'no address but loopback here' }
  const url = `http://${address}:${new URL(sandboxBaseUrl).port}/_sandbox/info`
  try {
    const answer = await rawRequest(url, { headers: { host: `${address}:${new URL(url).port}` } })
    return result(attack, answer.status === 200, answer)
  } catch (err) {
    return { attack, succeeded: false, detail: `not reached: ${(err as Error).message}` }
  }
}
