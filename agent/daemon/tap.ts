// Pass-everything mode (`logx-agent run --tap FILE`): every line the agent reads, whatever the
// pre-filter and the rules make of it, appended as NDJSON. It is how a drill (or a user in doubt)
// sees exactly what the tailer delivered. One write per batch, made before the batch is committed:
// after a crash the uncommitted lines are read and tapped again, so the tap is at-least-once like
// the alerts, and a line missing from it was never read.
import { isUtf8 } from 'node:buffer'
import { closeSync, openSync, writeSync } from 'node:fs'
import type { LineBatch } from '../tail'
import { DaemonError, DaemonErrorCodes } from './errors'

export interface Tap {
  /** Appends the batch's lines; never throws (a failed write is reported through onError). */
  write(source: string, batch: LineBatch): void
  close(): void
}

export interface TapOptions {
  /** A file path (appended to, created if missing), or `-` for `stdout`. */
  target: string
  /** Where `-` writes. */
  stdout?: { write(text: string): unknown }
  onError?: (err: Error) => void
}

/**
 * One record per line: `{"source","path","file","generation","offset","line"}`, where `offset` is
 * the file offset just past the line's '\n' (what a checkpoint records), `file` the `dev:ino` it
 * was read from and `generation` its copy-and-truncate count. A line that is not valid UTF-8 has
 * `"base64"` instead of `"line"` (its exact bytes); a line cut at `max_line_bytes` has
 * `"truncated":true`.
 */
export function formatTapBatch(source: string, batch: LineBatch): string {
  const where = `"path":${JSON.stringify(batch.path ?? null)},"file":${JSON.stringify(batch.fileId)}`
  const head = `{"source":${JSON.stringify(source)},${where},"generation":${batch.generation},"offset":`
  let out = ''
  for (const tailLine of batch.lines) {
    const data = tailLine.data
    const body = isUtf8(data)
      ? `"line":${JSON.stringify(data.toString('utf8'))}`
      : `"base64":"${data.toString('base64')}"`
    out += `${head}${tailLine.offset},${body}${tailLine.truncated ? ',"truncated":true' : ''}}\n`
  }
  return out
}

export function createTap(options: TapOptions): Tap {
  const report = (err: unknown): void => {
    try {
      options.onError?.(err as Error)
    } catch {
      // Reporting a tap failure must not fail the batch either.
    }
  }
  if (options.target === '-') {
    const out = options.stdout ?? process.stdout
    return {
      write(source, batch) {
        if (batch.lines.length === 0) return
        try {
          out.write(formatTapBatch(source, batch))
        } catch (err) {
          report(err)
        }
      },
      close() {},
    }
  }
  let fd: number
  try {
    fd = openSync(options.target, 'a')
  } catch (err) {
    throw new DaemonError(DaemonErrorCodes.TAP, `--tap ${options.target}: ${(err as Error).message}`, { cause: err })
  }
  let open = true
  return {
    write(source, batch) {
      if (!open || batch.lines.length === 0) return
      // Synchronous, so the lines are in the file (the page cache: a process crash keeps them)
      // before the commit that follows; not fsynced, the tap is not meant to survive a power cut.
      try {
        const text = Buffer.from(formatTapBatch(source, batch), 'utf8')
        let written = 0
        while (written < text.length) written += writeSync(fd, text, written, text.length - written)
      } catch (err) {
        report(err)
      }
    },
    close() {
      if (!open) return
      open = false
      try {
        closeSync(fd)
      } catch (err) {
        report(err)
      }
    },
  }
}
