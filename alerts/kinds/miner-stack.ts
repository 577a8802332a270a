// A stack's fingerprint, as Sentry groups by its stack: the top in-app frames, each as its function
// and file without line numbers (a deploy moves lines, not the failure). Frames of dependencies and
// runtimes are skipped: `node_modules`, Node's `node:` internals, Python's site-packages and
// standard library, Go's runtime, the JDK and common frameworks. When no frame is in-app, the top
// frames as they are. Java and Node write the throwing frame first, Python last, Go first.
import { traceKind } from '../trace'

export const TOP_FRAMES = 3
const MAX_LINES = 200

const VENDOR = [
  'node_modules',
  'node:',
  'internal/',
  'site-packages',
  'dist-packages',
  '/lib/python',
  'runtime/',
  'net/http.',
  'java.',
  'javax.',
  'jdk.',
  'sun.',
  'kotlin.',
  'scala.',
  'org.springframework.',
  'org.apache.',
  'io.netty.',
]
const JS_FRAME = /^at (?:async )?(?:(.+?) \()?(.*?)(?::\d+){0,2}\)?$/
const PY_FRAME = /^File "([^"]*)", line \d+, in (.+)$/

function isVendor(frame: string): boolean {
  return VENDOR.some((marker) => frame.includes(marker))
}

/** `at handler (/app/src/x.js:10:5)` -> `handler(/app/src/x.js)`; a Java frame keeps its method. */
function jsOrJavaFrame(line: string): string | undefined {
  const m = JS_FRAME.exec(line)
  if (m === null) return undefined
  const fn = m[1] ?? ''
  const file = (m[2] ?? '').replace(/:\d+$/, '')
  if (fn !== '') return `${fn}(${file})`
  // Java's `pkg.Class.method(File.java:12)`: no blank before the parenthesis.
  return file.includes('(') ? `${file})` : file
}

function frames(stack: string): string[] {
  const lines = stack.split('\n', MAX_LINES).map((line) => line.trim())
  const kind = traceKind(stack)
  if (kind === 'python') {
    const found: string[] = []
    for (const line of lines) {
      const m = PY_FRAME.exec(line)
      if (m !== null) found.push(`${m[2] as string}(${m[1] as string})`)
    }
    return found.reverse()
  }
  if (kind === 'go') {
    const found: string[] = []
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string
      if (line.startsWith('goroutine ') || line.startsWith('/') || line === '' || line.startsWith('panic')) continue
      const file = lines[i + 1]?.startsWith('/') === true ? (lines[i + 1] as string).replace(/:\d+.*$/, '') : ''
      // `main.(*Server).handle(0xc000...)`: the arguments (the last parenthesis) change every run.
      const args = line.endsWith(')') ? line.lastIndexOf('(') : -1
      found.push(`${args > 0 ? line.slice(0, args) : line}(${file})`)
    }
    return found
  }
  return lines.filter((line) => line.startsWith('at ')).flatMap((line) => jsOrJavaFrame(line) ?? [])
}

/** The top in-app frames of a stack (at most TOP_FRAMES), or its top frames when none is in-app. */
export function stackFingerprint(stack: string): string[] {
  const all = frames(stack)
  const inApp = all.filter((frame) => !isVendor(frame))
  return (inApp.length > 0 ? inApp : all).slice(0, TOP_FRAMES)
}
