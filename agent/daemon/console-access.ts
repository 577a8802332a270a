// How the command line finds the running agent's console and gets in: `<state_dir>/console.json`
// holds its URL, the agent's pid and a random identity key while the agent runs (mode 0600: the key
// proves to the CLI that the listener on that port is this agent, before the CLI sends it a token:
// console/identity.ts); without a configured token the agent makes one per start and writes it to
// `<state_dir>/console.token`, readable by its owner only. A configured token is never written
// anywhere. The one-time login codes and sessions the page gets in with live here too, once per
// start: a reload that moves the console keeps them.
import { chmodSync, rmSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import type { AgentConfig } from '../config/types'
import { newIdentityKey } from './console/identity'
import { createConsoleLogins, type ConsoleLogins } from './console/logins'
import { DaemonError, DaemonErrorCodes } from './errors'

export interface ConsoleAccess {
  token: string
  /** Made for this run (no `console.token` configured): refused off loopback. */
  generated: boolean
  /** console.json's key: the console proves it holds it (POST /api/identity). */
  identityKey: string
  logins: ConsoleLogins
}

export const CONSOLE_ADDRESS_FILE = 'console.json'
export const CONSOLE_TOKEN_FILE = 'console.token'

/** Written anew with `mode` from its first byte: a file left behind with a wider mode is removed first. */
function write(file: string, text: string, mode: number): void {
  try {
    rmSync(file, { force: true })
    writeFileSync(file, text, { mode, flag: 'wx' })
    // The umask may have narrowed more than asked; the mode is what the CLI's user relies on.
    chmodSync(file, mode)
  } catch (err) {
    throw new DaemonError(DaemonErrorCodes.STATE, `cannot write ${file}: ${(err as Error).message}`, { cause: err })
  }
}

export function consoleAccess(config: AgentConfig): ConsoleAccess {
  const configured = config.console.token
  const identityKey = newIdentityKey()
  const logins = createConsoleLogins()
  if (configured !== undefined) {
    rmSync(join(config.stateDir, CONSOLE_TOKEN_FILE), { force: true })
    return { token: configured.reveal(), generated: false, identityKey, logins }
  }
  const token = randomBytes(24).toString('base64url')
  write(join(config.stateDir, CONSOLE_TOKEN_FILE), `${token}\n`, 0o600)
  return { token, generated: true, identityKey, logins }
}

/** console.json: { url, pid, key }, readable by the agent's user only. */
export function writeConsoleAddress(stateDir: string, url: string, identityKey: string): void {
  const address = { url, pid: process.pid, key: identityKey }
  write(join(stateDir, CONSOLE_ADDRESS_FILE), `${JSON.stringify(address)}\n`, 0o600)
}

/** `<console url>/#login=<code>`: a fresh one-time login URL. */
export function loginUrl(consoleUrl: string, code: string): string {
  return `${consoleUrl}/#login=${code}`
}

export function removeConsoleFiles(stateDir: string): void {
  rmSync(join(stateDir, CONSOLE_ADDRESS_FILE), { force: true })
  rmSync(join(stateDir, CONSOLE_TOKEN_FILE), { force: true })
}
