// How the command line finds the running agent's console and gets in: `<state_dir>/console.json`
// holds its URL while the agent runs; without a configured token the agent makes one per start and
// writes it to `<state_dir>/console.token`, readable by its owner only. A configured token is never
// written anywhere.
import { chmodSync, rmSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import type { AgentConfig } from '../config/types'
import { DaemonError, DaemonErrorCodes } from './errors'

export interface ConsoleAccess {
  token: string
  /** Made for this run (no `console.token` configured): the page served on loopback carries it. */
  generated: boolean
}

export const CONSOLE_ADDRESS_FILE = 'console.json'
export const CONSOLE_TOKEN_FILE = 'console.token'

function write(file: string, text: string, mode: number): void {
  try {
    writeFileSync(file, text, { mode })
    // An existing file keeps its mode through writeFileSync: set it again.
    chmodSync(file, mode)
  } catch (err) {
    throw new DaemonError(DaemonErrorCodes.STATE, `cannot write ${file}: ${(err as Error).message}`, { cause: err })
  }
}

export function consoleAccess(config: AgentConfig): ConsoleAccess {
  const configured = config.console.token
  if (configured !== undefined) {
    rmSync(join(config.stateDir, CONSOLE_TOKEN_FILE), { force: true })
    return { token: configured.reveal(), generated: false }
  }
  const token = randomBytes(24).toString('base64url')
  write(join(config.stateDir, CONSOLE_TOKEN_FILE), `${token}\n`, 0o600)
  return { token, generated: true }
}

export function writeConsoleAddress(stateDir: string, url: string): void {
  write(join(stateDir, CONSOLE_ADDRESS_FILE), `${JSON.stringify({ url, pid: process.pid })}\n`, 0o644)
}

export function removeConsoleFiles(stateDir: string): void {
  rmSync(join(stateDir, CONSOLE_ADDRESS_FILE), { force: true })
  rmSync(join(stateDir, CONSOLE_TOKEN_FILE), { force: true })
}
