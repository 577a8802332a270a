// A stack trace written as text (the lines that continued a multi-line event) read as an error:
// its type and message, the stack as written, and the frame that says where it was thrown. Java,
// Node, Python and Go each write it differently:
//   Java, Node  the header (`java.lang.IllegalStateException: msg`, `TypeError: msg`) comes first,
//               then `at ...` frames, the throwing one first;
//   Python      `Traceback (most recent call last):`, `File "x", line N, in f` frames outermost first,
//               the exception line (`ValueError: msg`) last; chained tracebacks end with the one raised;
//   Go          `panic: msg`, then `goroutine N [running]:` and pairs of a function line and its
//               tab-indented `file:line +0x..` line, the panicking function first.
// Pure: strings in, strings out.

export interface Trace {
  /** The exception's class (`java.lang.IllegalStateException`, `ValueError`), `panic`, or ''. */
  type: string
  message: string
  /** The continuation lines as written. */
  stack: string
}

const HEADER = /^((?:[A-Za-z_$][\w$]*\.)*[\w$]*(?:Exception|Error|Throwable))(?: \[[^\]]*\])?(?::\s?(.*))?$/
const THREAD_PREFIX = /^Exception in thread "[^"]*" /
const PYTHON_RAISED = /^([A-Za-z_][\w.]*)(?::\s?(.*))?$/
const TRACEBACK = 'Traceback (most recent call last):'
const GO_PANIC = /^(panic|fatal error): (.*?)(?: \[recovered\])?$/
const GOROUTINE = /^goroutine \d+ \[/
const PYTHON_MARKERS = [
  'Traceback (',
  'Stack (',
  'During handling of the above exception',
  'The above exception was the direct cause',
]

/** `first`: the event's first line; `rest`: the lines that continued it. */
export function parseTrace(first: string, rest: readonly string[]): Trace {
  const stack = rest.join('\n')
  const raised = rest.some((line) => line.startsWith(TRACEBACK)) ? pythonRaised(rest) : undefined
  if (raised !== undefined) return { ...raised, stack }
  const panic = GO_PANIC.exec(first)
  if (panic !== null) return { type: panic[1] as string, message: panic[2] as string, stack }
  for (const line of [...rest.slice(0, 20), first.replace(THREAD_PREFIX, '')]) {
    const header = HEADER.exec(line.trimEnd())
    if (header !== null) return { type: header[1] as string, message: header[2] ?? '', stack }
  }
  return { type: '', message: '', stack }
}

/** Python's last exception line at the margin (the one raised, after any chained tracebacks). */
function pythonRaised(lines: readonly string[]): { type: string; message: string } | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = (lines[i] as string).trimEnd()
    if (line === '' || line.startsWith(' ') || line.startsWith('\t') || PYTHON_MARKERS.some((m) => line.startsWith(m)))
      continue
    const m = PYTHON_RAISED.exec(line)
    if (m !== null) return { type: m[1] as string, message: m[2] ?? '' }
  }
  return undefined
}

/** Python's innermost frame: the last `File "x", line N, in f` (of the traceback raised last). */
export function pythonTopFrame(lines: readonly string[]): string {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = (lines[i] as string).trim()
    if (line.startsWith('File "')) return line
  }
  return ''
}

/**
 * Go's panicking frame, in the first goroutine's dump: the first function after the last
 * `panic(...)` frame (a recovered panic's dump starts with the deferred function that recovered
 * it: net/http's own for every handler), or else the first one, runtime functions skipped; its
 * arguments (values that change every run) and the `+0x..` offset left out:
 * `main.(*Server).handle /app/server.go:42`.
 */
export function goTopFrame(lines: readonly string[]): string {
  const header = lines.findIndex((line) => GOROUTINE.test(line))
  if (header === -1) return ''
  const frames: { name: string; at: number }[] = []
  for (let i = header + 1; i < lines.length; i++) {
    const line = (lines[i] as string).trimEnd()
    if (line === '' || line.startsWith('\t') || line.startsWith(' ')) continue
    if (GOROUTINE.test(line) || line.startsWith('created by ')) break
    frames.push({ name: functionName(line), at: i })
  }
  let from = 0
  frames.forEach((frame, k) => {
    if (frame.name === 'panic') from = k + 1
  })
  const top = frames.slice(from).find((frame) => !frame.name.startsWith('runtime.') && frame.name !== 'panic')
  if (top === undefined) return ''
  const file = lines[top.at + 1]
  const place = file !== undefined && file.startsWith('\t') ? ` ${file.trim().replace(/ \+0x[0-9a-f]+$/, '')}` : ''
  return `${top.name}${place}`
}

/** `main.(*Server).handle(0xc0000a2000, {0x5c3e80, 0x1})` -> `main.(*Server).handle`. */
function functionName(line: string): string {
  if (!line.endsWith(')')) return line
  let depth = 0
  for (let i = line.length - 1; i >= 0; i--) {
    const c = line[i]
    if (c === ')') depth++
    else if (c === '(' && --depth === 0) return line.slice(0, i)
  }
  return line
}

/** Which writer's trace this is, from what only it writes. */
export function traceKind(stack: string): 'python' | 'go' | 'other' {
  if (stack.includes(TRACEBACK)) return 'python'
  if (stack.includes('goroutine ') && stack.split('\n', 50).some((line) => GOROUTINE.test(line))) return 'go'
  return 'other'
}
