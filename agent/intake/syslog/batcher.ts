// Between a syslog source's sockets and the alert path: frames from every connection and datagram are
// queued and handed to the sink in batches, one journal write per batch, so a busy source costs one
// fsync per batch rather than per line. The queue is bounded: past `maxQueued` frames (or while the
// sink says it is busy) `full` is true, a TCP connection pauses its socket and UDP drops (at-most-once).
// Frames wait as their text and are parsed only when their batch goes to the sink: a waiting string is
// one small object for the collector to move, a parsed event a dozen.
//
// When the sink refuses a batch as busy (IntakeBusyError), the batch is kept and offered again after
// the retry-after it names: the lines were read, and TCP senders were told nothing else. Any other
// refusal (the journal cannot be written) is logged and the batch counted as refused: nothing else can
// be done with lines a stream has already delivered.
import { IntakeBusyError } from '../errors'
import type { IntakeCounters, IntakeEvent, IntakeLog, IntakeSink } from '../types'

const BUSY_POLL_MS = 50
/** A busy sink is not asked again sooner than this, whatever its Retry-After says. */
const MIN_RETRY_MS = 20

export interface BatcherOptions {
  source: string
  sink: IntakeSink
  log: IntakeLog
  metrics: IntakeCounters
  /** Frames queued past which `full` is true. */
  maxQueued: number
  /** A frame's text to the event the sink takes. */
  toEvent(frame: string): IntakeEvent
  /** The longest a refused-as-busy batch waits before it is offered again, whatever Retry-After says. */
  maxRetryDelayMs?: number
}

export class SyslogBatcher {
  private queue: string[] = []
  private flushing: Promise<void> | undefined
  private readonly waiting = new Set<() => void>()
  private retryTimer: NodeJS.Timeout | undefined
  private wakeRetry: (() => void) | undefined
  private pollTimer: NodeJS.Timeout | undefined
  private closed = false

  constructor(private readonly options: BatcherOptions) {}

  /** True while a sender should wait: the queue is at its bound or the sink is busy. */
  get full(): boolean {
    return this.queue.length >= this.options.maxQueued || this.options.sink.busy()
  }

  /** The lowest level any rule takes for this source: a frame below it is dropped unparsed (frame-filter.ts). */
  lowestLevel(): number {
    return this.options.sink.lowestLevel(this.options.source)
  }

  /**
   * Frames read and dropped below every rule: taken, as a tailed file's pre-filtered lines are, and
   * counted so; nothing of them is queued or journaled.
   */
  passed(count: number): void {
    if (count === 0) return
    this.options.sink.countPassed(this.options.source, count)
    this.options.metrics.accepted(count)
  }

  /** Queues frames for the alert path (after a check of `full` by the caller). */
  add(frames: readonly string[]): void {
    if (frames.length === 0) return
    for (const frame of frames) this.queue.push(frame)
    this.flushing ??= this.flushAll().finally(() => {
      this.flushing = undefined
    })
  }

  /** Calls `resume` once, when the queue is below its bound again (at once when it is). */
  whenRoom(resume: () => void): void {
    if (!this.full) {
      resume()
      return
    }
    this.waiting.add(resume)
    // The sink's busy state has no event: while anyone waits, it is looked at again now and then.
    this.pollTimer ??= setInterval(() => this.wakeWaiting(), BUSY_POLL_MS)
  }

  /** Hands what is queued to the sink, then stops taking more. */
  async close(): Promise<void> {
    this.closed = true
    this.wakeRetry?.()
    await this.flushing
    this.waiting.clear()
    this.stopPolling()
  }

  private async flushAll(): Promise<void> {
    while (this.queue.length > 0) {
      const frames = this.queue
      this.queue = []
      await this.deliver(frames.map(this.options.toEvent))
      this.wakeWaiting()
    }
  }

  /** One batch into the sink; kept and offered again while the sink refuses it as busy (and not closed). */
  private async deliver(batch: IntakeEvent[]): Promise<void> {
    const { sink, metrics, log, source } = this.options
    for (;;) {
      metrics.request()
      try {
        await sink.accept(batch)
        metrics.accepted(batch.length)
        return
      } catch (error) {
        metrics.refused(503)
        if (!(error instanceof IntakeBusyError) || this.closed) {
          log.error({ source, events: batch.length, err: error }, 'syslog lines could not be put in the alert path')
          return
        }
        await this.waitToRetry(error.retryAfterSeconds)
      }
    }
  }

  private waitToRetry(seconds: number): Promise<void> {
    const delay = Math.max(MIN_RETRY_MS, Math.min(seconds * 1000, this.options.maxRetryDelayMs ?? 5000))
    return new Promise((resolve) => {
      this.wakeRetry = () => {
        clearTimeout(this.retryTimer)
        this.wakeRetry = undefined
        resolve()
      }
      this.retryTimer = setTimeout(this.wakeRetry, delay)
    })
  }

  private wakeWaiting(): void {
    if (this.full || this.waiting.size === 0) return
    const resumes = [...this.waiting]
    this.waiting.clear()
    this.stopPolling()
    for (const resume of resumes) resume()
  }

  private stopPolling(): void {
    clearInterval(this.pollTimer)
    this.pollTimer = undefined
  }
}
