// Where was logx called from? Module names given as transport targets resolve relative to the
// caller's file, the way `require` inside that file would resolve them. Frames inside this package
// (the compiled logger and the ESM wrapper) are skipped, so the first file is the user's.

import { dirname, join, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const packageRoot = join(__dirname, '..', '..')
const ownDirs = [join(packageRoot, 'dist', 'logx') + sep, join(packageRoot, 'esm') + sep]

function isOwnFile(file: string): boolean {
  return ownDirs.some((dir) => file.startsWith(dir)) || dirname(file) === __dirname
}

function toPath(file: string): string | undefined {
  if (file.startsWith('file://')) {
    try {
      return fileURLToPath(file)
    } catch {
      return undefined
    }
  }
  // node:internal/..., evalmachine, <anonymous> and friends cannot anchor a resolution.
  return file.startsWith('/') || /^[A-Za-z]:[\\/]/.test(file) ? file : undefined
}

/** Files on the current call stack outside this package, innermost first, without duplicates. */
export function callerFiles(): string[] {
  const originalPrepare = Error.prepareStackTrace
  const originalLimit = Error.stackTraceLimit
  let sites: NodeJS.CallSite[] = []
  try {
    Error.stackTraceLimit = 64
    Error.prepareStackTrace = (_error, stack) => stack
    const holder: { stack?: unknown } = {}
    Error.captureStackTrace(holder, callerFiles)
    sites = Array.isArray(holder.stack) ? (holder.stack as NodeJS.CallSite[]) : []
  } finally {
    Error.prepareStackTrace = originalPrepare
    Error.stackTraceLimit = originalLimit
  }

  const files: string[] = []
  for (const site of sites) {
    const raw = site.getFileName()
    if (raw === undefined || raw === null) continue
    const file = toPath(raw)
    if (file === undefined || isOwnFile(file) || files.includes(file)) continue
    files.push(file)
  }
  return files
}
