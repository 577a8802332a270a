// The server-process helper on a stand-in server (a node child): ready when it says so or when a probe
// answers, its reason when it exits before, and a stop that waits for the exit.
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findExecutable, startServerProcess } from './server-process'
import { tempDir } from './temp-dir'

/** A node child running `code`; it stays up (a timer holds it) unless the code ends it. */
const nodeServer = (code: string): { path: string; args: string[] } => ({
  path: process.execPath,
  args: ['-e', `${code}; setInterval(() => {}, 1 << 30)`],
})

describe('startServerProcess', () => {
  it('resolves once the output says it is ready, and keeps what it printed', async () => {
    const server = await startServerProcess({
      name: 'stand-in',
      ...nodeServer("console.log('warming up'); setTimeout(() => console.error('Ready to serve'), 30)"),
      ready: /Ready to serve/,
    })
    expect(server.output()).toContain('warming up')
    expect(server.output()).toContain('Ready to serve')
    await server.stop('SIGTERM')
    expect(server.child.signalCode).toBe('SIGTERM')
  })

  it('rejects with its exit code and its last words when it exits before it is ready', async () => {
    const started = startServerProcess({
      name: 'stand-in',
      ...nodeServer("console.error('Address already in use'); process.exit(3)"),
      ready: /Ready/,
    })
    await expect(started).rejects.toThrow(/stand-in exited \(3\) before it was ready:\nAddress already in use/)
  })

  it('polls a probe for a server that says nothing, and fails at once when it is gone', async () => {
    const flag = join(tempDir('server-process'), 'listening')
    const server = await startServerProcess({
      name: 'quiet',
      ...nodeServer(`setTimeout(() => require('node:fs').writeFileSync(${JSON.stringify(flag)}, ''), 30)`),
      ready: async () => existsSync(flag),
    })
    expect(existsSync(flag)).toBe(true)
    await server.stop()
    expect(server.child.signalCode).toBe('SIGKILL')
    const gone = startServerProcess({ name: 'gone', ...nodeServer('process.exit(4)'), ready: async () => false })
    await expect(gone).rejects.toThrow(/gone exited \(4\) before it was ready/)
  })
})

describe('findExecutable', () => {
  it('returns the first candidate that is an executable file', () => {
    const dir = tempDir('server-process')
    const plain = join(dir, 'not-executable')
    writeFileSync(plain, '', { mode: 0o644 })
    expect(findExecutable([join(dir, 'missing'), plain, process.execPath])).toBe(process.execPath)
    expect(findExecutable([join(dir, 'missing')])).toBeUndefined()
  })
})
