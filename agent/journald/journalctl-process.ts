// One journalctl child: its stdout cut into lines (batches, as the tailer cuts a file), its exit
// awaited with the tail of what it said on stderr. The caller decides what a line means and
// whether to start another one.
import { spawn } from 'node:child_process'
import { createChunkBatch, createLineSplitter, type LineBatch } from '../tail'

/** A JSON entry longer than this is cut (and then skipped: its cursor cannot be read). */
export const MAX_ENTRY_BYTES = 8 * 1024 * 1024
const STDERR_KEPT = 2048

export interface JournalctlExit {
  code: number | null
  signal: NodeJS.Signals | null
  /** The last bytes journalctl wrote to stderr (why it exited), trimmed. */
  stderr: string
  /** It could not be started (ENOENT: not installed). */
  spawnError: NodeJS.ErrnoException | undefined
}

export interface JournalctlRun {
  /** Resolves once the child exited and its output was all delivered. */
  readonly exited: Promise<JournalctlExit>
  /** Asks it to stop (SIGTERM); `exited` still resolves. */
  kill(): void
}

const ORIGIN = { fileId: 'journalctl', followId: 0, generation: 0, path: undefined }

/** Starts `command args`; `onLines` gets the lines of each stdout chunk (none once kill() was called). */
export function runJournalctl(
  command: string,
  args: readonly string[],
  onLines: (batch: LineBatch) => void,
): JournalctlRun {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  const splitter = createLineSplitter(0, MAX_ENTRY_BYTES)
  let offset = 0
  let stderr = ''
  let killed = false
  let spawnError: NodeJS.ErrnoException | undefined
  child.stdout.on('data', (chunk: Buffer) => {
    const split = splitter.push(chunk, offset)
    const batch = createChunkBatch(ORIGIN, split, chunk, offset, MAX_ENTRY_BYTES)
    offset += chunk.length
    if (batch !== undefined && !killed) onLines(batch)
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEPT)
  })
  const exited = new Promise<JournalctlExit>((resolve) => {
    child.on('error', (err: NodeJS.ErrnoException) => {
      // Only a failed start ends the run here; a failed kill() is followed by 'close' as usual.
      if (child.pid === undefined) {
        spawnError = err
        resolve({ code: null, signal: null, stderr: '', spawnError })
      }
    })
    // 'close', not 'exit': stdout is then read to its end. A partial last line is dropped: its
    // entry is read again from the last cursor.
    child.on('close', (code, signal) => resolve({ code, signal, stderr: stderr.trim(), spawnError }))
  })
  return {
    exited,
    kill() {
      killed = true
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) child.kill('SIGTERM')
    },
  }
}
