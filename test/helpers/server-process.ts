// A real server program a suite runs beside it (redis-server, Alertmanager): found where the
// distribution installs it, skipped loudly where it is not, started as a child whose output is kept,
// ready on its own signal (a line it prints, or an answer it gives), stopped with a signal.
import { spawn, type ChildProcess } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import { describe } from 'vitest'
import { pollUntil } from './poll-until'

export { freePort } from './free-port'

/** Where a program called `name` may be: /usr/bin first (a PATH of a test runner may miss it), then PATH. */
export function pathCandidates(name: string): string[] {
  const dirs = ['/usr/bin', ...(process.env.PATH ?? '').split(delimiter).filter((dir) => dir !== '')]
  return dirs.map((dir) => join(dir, name))
}

/** The first of `candidates` that is an executable file, or undefined. */
export function findExecutable(candidates: readonly string[]): string | undefined {
  for (const path of candidates) {
    try {
      accessSync(path, constants.X_OK)
      return path
    } catch {
      // Not here.
    }
  }
  return undefined
}

export interface RequiredProgram {
  /** Its executable, from findExecutable: undefined where it is not installed. */
  path: string | undefined
  /** How a person calls it, in the skip line. */
  name: string
  /** The Debian package that installs it. */
  aptPackage: string
}

/** `describe`, or where the program is missing, a skipped suite and one loud line saying why. */
export function describeWithProgram(program: RequiredProgram, suite: string, fn: () => void): void {
  if (program.path === undefined) {
    console.warn(
      `\n!!! SKIPPED "${suite}": ${program.name} is not installed (apt-get install ${program.aptPackage}); ` +
        'CI runs this suite !!!\n',
    )
    describe.skip(suite, fn)
    return
  }
  describe(suite, fn)
}

export interface ServerProcessOptions {
  /** What it is called in errors. */
  name: string
  path: string
  args: readonly string[]
  /**
   * When it is ready: once its output (stdout and stderr) matches the pattern, or once the probe
   * answers true (for a server that says nothing when it listens; asked again until then).
   */
  ready: RegExp | (() => Promise<boolean>)
}

export interface ServerProcess {
  child: ChildProcess
  pid: number
  /** Everything it printed, stdout and stderr. */
  output(): string
  /** Sends the signal (default SIGKILL) and resolves once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => child.once('exit', () => resolve()))
}

/** Resolves when `output` matches `pattern` after new output; rejects if the child exits or fails first. */
function printed(child: ChildProcess, pattern: RegExp, output: () => string, fail: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error): void => {
      child.stdout?.off('data', onData)
      child.stderr?.off('data', onData)
      child.off('close', onClose)
      child.off('error', settle)
      if (error === undefined) resolve()
      else reject(error)
    }
    // The output is appended by the listeners added before this one, so it holds the chunk already.
    const onData = (): void => void (pattern.test(output()) && settle())
    // 'close', not 'exit': by then its last words (why it stopped) are in the output.
    const onClose = (): void => settle(fail())
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('close', onClose)
    child.once('error', settle)
  })
}

function whenReady(
  child: ChildProcess,
  options: ServerProcessOptions,
  output: () => string,
  fail: () => Error,
): Promise<unknown> {
  const ready = options.ready
  if (ready instanceof RegExp) return printed(child, ready, output, fail)
  return pollUntil(`${options.name} ready`, async () => {
    // No pid: it never started (the 'error' event says why).
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) throw fail()
    return ready()
  })
}

/** Starts the program and resolves once it is ready; rejects with its output if it exits before. */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const child = spawn(options.path, [...options.args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  let spawnError: Error | undefined
  // Always read both pipes: a chatty server would otherwise block on a full one.
  child.stdout?.on('data', (chunk: Buffer) => void (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => void (output += chunk.toString()))
  child.on('error', (err) => void (spawnError = err))
  const fail = (): Error =>
    spawnError ??
    new Error(`${options.name} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${output}`)
  try {
    await whenReady(child, options, () => output, fail)
  } catch (err) {
    // Not ready in time (or gone): leave nothing running behind the failed suite.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    throw err
  }
  return {
    child,
    pid: child.pid as number,
    output: () => output,
    async stop(signal = 'SIGKILL') {
      const done = exited(child)
      child.kill(signal)
      await done
    },
  }
}
