#!/usr/bin/env node
// Makes the V8 code caches of `npm start` (agent/cli/code-cache.ts) at build time, from a short run
// that reads a text and an NDJSON file and pages through the embedded sandbox. A cache holds the
// functions compiled when it was made; made by whichever run came first (a start killed at once, or
// one that read a large file), the first read of a later start compiled the reading path or did not,
// and its speed varied with it. `validate` and `test-rule` get theirs the same way.
// Never fails the build: without a cache, the first run of each command makes one at exit.
'use strict'
const { spawn } = require('node:child_process')
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs')
const http = require('node:http')
const { tmpdir } = require('node:os')
const { join } = require('node:path')

const root = join(__dirname, '..')
const bin = join(root, 'bin', 'logx-agent.js')
const LIMIT_MS = 30_000

/** npm start's node flags: the cache is per flag set, so the training run must use the same ones. */
function startFlags() {
  const start = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start
  const match = /node((?: --[\w-]+(?:=\S+)?)*) bin\/logx-agent\.js run/.exec(start)
  if (match === null) throw new Error('package.json scripts.start: no `node [flags] bin/logx-agent.js run` in it')
  return match[1].trim().split(' ').filter(Boolean)
}

function textLog(lines) {
  const levels = ['INFO ', 'INFO ', 'DEBUG', 'WARN ', 'INFO ', 'ERROR']
  let out = ''
  for (let i = 0; i < lines; i++) {
    const level = levels[i % levels.length]
    const ms = String(i % 1000).padStart(3, '0')
    const detail = level === 'ERROR' ? `payment failed order=${i}: java.net.SocketTimeoutException: Read timed out` : `GET /api/v1/orders/${i} 200 ${i % 90}ms level=info user=u${i}`
    out += `2026-11-22 10:00:00,${ms} ${level} [http-nio-8080-exec-${i % 8}] com.example.web.OrderController: ${detail}\n`
  }
  return `${out}2026-11-22 10:00:01,000 ERROR [main] com.example.Train: TRAIN-text the last line\n`
}

function jsonLog(lines) {
  let out = ''
  for (let i = 0; i < lines; i++) {
    const level = i % 50 === 49 ? 50 : i % 7 === 0 ? 40 : 30
    out += `{"level":${level},"time":${1764000000000 + i},"pid":7,"hostname":"app-1","reqId":"r${i}","msg":"GET /api/v1/orders/${i} took ${i % 90}ms"}\n`
  }
  return `${out}{"level":50,"time":1764000009999,"pid":7,"hostname":"app-1","msg":"TRAIN-json the last line"}\n`
}

/** Spawns a command, resolves with its exit; `onLine` sees its stdout line by line. */
function run(args, onLine = () => undefined) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let pending = ''
  child.stdout.setEncoding('utf8').on('data', (text) => {
    const lines = (pending + text).split('\n')
    pending = lines.pop() ?? ''
    for (const line of lines) onLine(line, child)
  })
  child.stderr.resume()
  const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS)
  return new Promise((resolve) => child.on('exit', (code, signal) => { clearTimeout(timer); resolve({ code, signal }) }))
}

/** Whether both sources' last lines have paged: their SMS are in the sandbox's listing. */
function bothPaged(baseUrl) {
  return new Promise((resolve) => {
    const req = http.get(`${baseUrl}/api/v1/?apirequest=sms_record&per_page=100`, { headers: { apikey: 'train' } }, (res) => {
      let body = ''
      res.setEncoding('utf8').on('data', (d) => { body += d }).on('end', () => resolve(body.includes('TRAIN-text') && body.includes('TRAIN-json')))
    })
    req.on('error', () => resolve(false))
  })
}

async function trainRun(dir, config) {
  let trained = false
  const result = await run([...startFlags(), bin, 'run', '--config', config], (line, child) => {
    const url = /embedded sandbox .* at (http:\/\/\S+)/.exec(line)?.[1]
    if (url === undefined) return
    const poll = async () => {
      if (await bothPaged(url)) {
        trained = true
        child.kill('SIGTERM')
      } else setTimeout(poll, 20)
    }
    void poll()
  })
  if (!trained) throw new Error(`the training run ended (${result.signal ?? result.code}) before both sources paged`)
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'logx-train-'))
  try {
    const text = join(dir, 'app.log')
    const json = join(dir, 'app.ndjson')
    writeFileSync(text, textLog(3000))
    writeFileSync(json, jsonLog(3000))
    const config = join(dir, 'agent.yaml')
    writeFileSync(config, [
      'messaging: { api_key: train, sandbox: { listen: "127.0.0.1:0" } }',
      `state_dir: ${JSON.stringify(join(dir, 'state'))}`,
      'sources:',
      `  - { name: text, paths: [${JSON.stringify(text)}], format: text, start_at: beginning }`,
      `  - { name: json, paths: [${JSON.stringify(json)}], format: json, start_at: beginning }`,
      'channels: { sms: { type: sms, numbers: [919800000001] } }',
      'rules:',
      "  - { name: errors, level: error, message: 'TRAIN-', group_by: [msg], group_wait: 0s, notify: [sms] }",
      // Rules on kinds are a path of their own (the miner, the kind table): compiled here, not at a user's start.
      '  - { name: new-kinds, level: error, kind: new, notify: [sms] }',
      '',
    ].join('\n'))
    await trainRun(dir, config)
    // No node flags: how `npx logx-agent validate` runs. Each saves its cache at exit.
    await run([bin, 'validate', config])
    await run([bin, 'test-rule', config, text])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`train-code-cache: ${err.message}; the first start of each command makes its cache instead`)
  })
}

module.exports = { startFlags }
