// Tests that run what `npm run build` writes (bin/logx-agent.js and its bundle, worker-thread targets
// loaded by path, child scripts that require dist/) test the build, not the sources. They call
// requireBuild() first (or import ./needs-build), so a missing or stale build fails them with the fix
// in the message instead of quietly testing old code.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

export const repoRoot = resolve(__dirname, '..', '..')
const SOURCE_FOLDERS = ['logx', 'agent', 'alerts']
const BUNDLE = join('dist', 'agent', 'logx-agent.bundle.js')

let checked: string | undefined | null = null

/** Throws `<what is wrong>: run npm run build first` unless dist/ was built from the current sources. */
export function requireBuild(): void {
  if (checked === null) checked = buildProblem()
  if (checked !== undefined) throw new Error(`${checked}: run npm run build first`)
}

/** What is wrong with `root`'s dist/, or undefined when every source has its output, written after it. */
export function buildProblem(root = repoRoot): string | undefined {
  let newestSource = 0
  const folders = SOURCE_FOLDERS.map((folder) => join(root, folder)).filter((folder) => existsSync(folder))
  for (const source of folders.flatMap(sourcesIn)) {
    const name = relative(root, source)
    const output = join(root, 'dist', name.replace(/\.ts$/, '.js'))
    if (!existsSync(output)) return `${name} has no build output (dist/ is missing or older)`
    const sourceTime = statSync(source).mtimeMs
    if (sourceTime > statSync(output).mtimeMs) return `${name} changed after the last build`
    newestSource = Math.max(newestSource, sourceTime)
  }
  const bundle = join(root, BUNDLE)
  if (!existsSync(bundle)) return `${BUNDLE} is missing`
  if (newestSource > statSync(bundle).mtimeMs) return `${BUNDLE} is older than the sources`
  return undefined
}

function sourcesIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourcesIn(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}
