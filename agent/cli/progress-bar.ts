// A one-line progress bar on stderr, only on a terminal (never in pipes, logs or CI), redrawn at
// most every 100 ms so drawing never costs more than reading.
export interface ProgressBar {
  update(done: number): void
  done(): void
}

interface TtyStream {
  write(text: string): unknown
  isTTY?: boolean
  columns?: number
}

const noop: ProgressBar = { update() {}, done() {} }

function mb(bytes: number): string {
  return (bytes / 1_048_576).toFixed(1)
}

export function createProgressBar(
  stream: TtyStream,
  label: string,
  total: number,
  minTotal = 4 * 1_048_576,
): ProgressBar {
  if (stream.isTTY !== true || total < minTotal) return noop
  let last = 0
  const draw = (done: number): void => {
    const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - label.length - 30))
    const ratio = Math.min(1, done / total)
    const filled = Math.round(ratio * width)
    const bar = `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`
    stream.write(`\r${label} [${bar}] ${Math.floor(ratio * 100)}% ${mb(done)}/${mb(total)} MB`)
  }
  return {
    update(done) {
      const now = Date.now()
      if (now - last < 100) return
      last = now
      draw(done)
    },
    done() {
      draw(total)
      stream.write('\n')
    },
  }
}
