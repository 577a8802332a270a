// `logx-agent` entry: the command line is read against the table of commands (commands.ts) by the
// parser in args/ (node:util's parseArgs underneath), and the chosen command's module is loaded then.
// `run` (the default), the long-running agent, loads nothing else of the CLI.

import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parseCommandLine } from './args/parse'
import { COMMANDS } from './commands'
import type { CliIo } from './io'

export type { CliIo } from './io'

const PROGRAM = 'logx-agent'

/** The version in the package's package.json, found upward from this file (dist/ or the bundle's folder). */
function packageVersion(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string
        version?: string
      }
      if (manifest.name === 'logx' && manifest.version !== undefined) return manifest.version
    } catch {
      // No package.json here (or not ours): look one folder up.
    }
  }
  return 'unknown'
}

/** Parses argv and runs the command; resolves with its exit code (2: a refused command line), never exits. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const line = parseCommandLine(PROGRAM, COMMANDS, argv)
  switch (line.kind) {
    case 'help':
      io.stdout.write(line.text)
      return 0
    case 'version':
      io.stdout.write(`${packageVersion()}\n`)
      return 0
    case 'refused':
      io.stderr.write(`${PROGRAM}: ${line.error.message}\nRun ${line.helpCommand} for usage.\n`)
      return 2
    case 'run':
      return line.command.run(line.args, io)
  }
}

/** The bin entry: real streams and process signals. */
export async function main(argv: readonly string[]): Promise<void> {
  const controller = new AbortController()
  const stop = (): void => controller.abort()
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  try {
    // pm2's wait_ready (ecosystem.config.js) waits for this message before it counts the agent as up.
    const ready = (): void => {
      process.send?.('ready')
    }
    process.exitCode = await runCli(argv, {
      stdout: process.stdout,
      stderr: process.stderr,
      signal: controller.signal,
      ready,
    })
  } catch (err) {
    process.stderr.write(`logx-agent: ${(err as Error).stack ?? String(err)}\n`)
    process.exitCode = 1
  } finally {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
  }
}
