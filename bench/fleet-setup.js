'use strict'
// What bench/fleet.js runs its agents against: a redis-server of its own (and the few commands the
// bench itself sends it), the messaging sandbox in a process of its own with its live feed of stored
// SMS, the agents' config, and the NDJSON file with one incident per so many lines.
const { fork, spawn } = require('node:child_process')
const { accessSync, constants, mkdtempSync, rmSync, writeFileSync } = require('node:fs')
const { connect, createServer } = require('node:net')
const { tmpdir } = require('node:os')
const { join } = require('node:path')
const { root } = require('./agent-process')

const REDIS_SERVER = ['/usr/bin/redis-server', ...(process.env.PATH ?? '').split(':').filter(Boolean).map((dir) => join(dir, 'redis-server'))].find((path) => {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
})

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** redis-server on a free port, no persistence, ready once it says so; undefined where it is not installed. */
async function startRedis() {
  if (REDIS_SERVER === undefined) return undefined
  const dir = mkdtempSync(join(tmpdir(), 'logx-bench-redis-'))
  const port = await freePort()
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  await new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk
      if (!output.includes('Ready to accept connections')) return
      child.stdout.off('data', onData)
      // Keep draining: a full pipe would stall the server.
      child.stdout.resume()
      child.off('exit', onExit)
      resolve()
    }
    const onExit = (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`))
    child.stdout.on('data', onData)
    child.stderr.on('data', (chunk) => (output += chunk))
    child.once('exit', onExit)
  })
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid,
    command: (...words) => redisCommand(port, words),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await exited
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** One command on a connection of its own; its reply as text (a simple or bulk string is all the bench asks for). */
function redisCommand(port, words) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let reply = Buffer.alloc(0)
    socket.on('error', reject)
    socket.on('data', (chunk) => {
      reply = Buffer.concat([reply, chunk])
      const eol = reply.indexOf('\r\n')
      if (eol === -1) return
      const head = reply.toString('latin1', 0, eol)
      if (head[0] === '-') return finish(reject, new Error(`redis: ${head.slice(1)}`))
      if (head[0] !== '$') return finish(resolve, head.slice(1))
      const length = Number(head.slice(1))
      if (reply.length >= eol + 2 + length + 2) finish(resolve, reply.toString('utf8', eol + 2, eol + 2 + length))
    })
    const finish = (settle, value) => {
      socket.destroy()
      settle(value)
    }
    socket.write(`*${words.length}\r\n${words.map((w) => `$${Buffer.byteLength(String(w))}\r\n${w}\r\n`).join('')}`)
  })
}

/** `INFO commandstats` as command -> calls. */
async function commandCalls(redis) {
  const calls = new Map()
  for (const m of (await redis.command('INFO', 'commandstats')).matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls.set(m[1], Number(m[2]))
  return calls
}

/** What the agents sent between two `commandCalls` (the bench's own INFO and FLUSHALL left out). */
function callsBetween(before, after) {
  const delta = new Map()
  for (const [name, calls] of after) {
    const n = calls - (before.get(name) ?? 0)
    if (n > 0 && name !== 'info' && name !== 'flushall') delta.set(name, n)
  }
  return delta
}

/**
 * The sandbox in a process of its own (test/fixtures/transports/apps/sandbox-process.js, as the
 * daemon's tests run it), so that both agents send to one API that is neither's nor this process's
 * load; and its live feed (/_sandbox/events, the inbox's server-sent events): `onSms(record, at)` for
 * each SMS stored, `at` the performance.now() its event arrived here. No polling.
 */
async function startSandboxProcess() {
  const child = fork(join(root, 'test/fixtures/transports/apps/sandbox-process.js'), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  const message = await new Promise((resolve, reject) => {
    child.once('message', resolve)
    child.once('exit', (code) => reject(new Error(`the sandbox process exited (${code}) before it was ready`)))
  })
  const baseUrl = message.info.baseUrl
  const listeners = new Set()
  const controller = new AbortController()
  const response = await fetch(`${baseUrl}/_sandbox/events`, { signal: controller.signal })
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let ready
  const live = new Promise((resolve) => (ready = resolve))
  ;(async () => {
    let text = ''
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      const at = performance.now()
      text += decoder.decode(value, { stream: true })
      let end
      while ((end = text.indexOf('\n\n')) !== -1) {
        const frame = text.slice(0, end)
        text = text.slice(end + 2)
        if (frame.startsWith('event: ready')) ready()
        if (!frame.startsWith('event: record')) continue
        const item = JSON.parse(frame.slice(frame.indexOf('data: ') + 6))
        if (item.kind === 'sms') for (const listener of listeners) listener(item.record, at)
      }
    }
  })().catch(() => {})
  await live
  return {
    pid: child.pid,
    api: { baseUrl, apiKey: message.apiKey },
    onSms(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async close() {
      controller.abort()
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.disconnect()
      await exited
    },
  }
}

/** The agent's config: the sandbox as its API, one source, one SMS channel, one rule; `cluster` when in a fleet. */
function agentConfig(dir, { paths, api, startAt, rule, cluster }) {
  const file = join(dir, 'agent.yaml')
  const fleet = cluster === undefined ? '' : `cluster:\n  agent_id: ${cluster.agentId}\n  redis: { url: "${cluster.url}" }\n  flush: 200ms\n`
  writeFileSync(file, `messaging:\n  base_url: ${api.baseUrl}\n  api_key: ${api.apiKey}
state_dir: ${join(dir, 'state')}
sources:
  - { name: app, paths: ["${paths}"], format: json, start_at: ${startAt} }
channels:
  oncall-sms: { type: sms, numbers: [919800000001] }
rules:
  - { name: errors, level: error, group_wait: 0s, ${rule} }
metrics: { listen: 127.0.0.1:0 }
${fleet}`)
  return file
}

/**
 * What two busy processes get of this machine: the same CPU-bound loop alone (pinned to CPU 0), then
 * two at once (CPUs 0 and 1); each one's speed at the same time over its speed alone. On a VM whose
 * vCPUs share a core or a host, this is well below 1, and no two agents can do better.
 */
async function machineScaling() {
  const { pinTo } = require('./agent-process')
  const loop = 'const t=process.hrtime.bigint();let x=0;for(let i=0;i<2e8;i++)x=(x*31+i)|0;if(x===42)console.error(x);process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))'
  const run = (cpu) =>
    new Promise((resolve, reject) => {
      const command = [...pinTo(cpu), process.execPath, '-e', loop]
      const child = spawn(command[0], command.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] })
      let out = ''
      child.stdout.on('data', (chunk) => (out += chunk))
      child.on('exit', (code) => (code === 0 ? resolve(Number(out)) : reject(new Error(`spin loop exited ${code}`))))
    })
  const alone = await run(0)
  const together = await Promise.all([run(0), run(1)])
  return alone / Math.max(...together)
}

module.exports = { machineScaling, REDIS_SERVER, startRedis, commandCalls, callsBetween, startSandboxProcess, agentConfig }
