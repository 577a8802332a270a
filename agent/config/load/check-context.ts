// What the checking and normalizing stages share: the environment, a way to read secret files, and
// one list of problems, so every problem in a file is reported in one pass.
import { formatPath, showValue } from '../shape/config-path'
import type { Env } from './env-reference'
import type { ConfigErrorCode } from '../errors'
import type { Segment } from './yaml-source'

/** Where the values come from: a YAML file, or a transport target's options (a JS object). */
export type ConfigSource = 'yaml' | 'options'

export interface RawProblem {
  code: ConfigErrorCode
  path: readonly Segment[]
  message: string
  /** Point at the key itself (unknown keys) or at its value (everything else). */
  target: 'key' | 'value'
}

export interface CheckContext {
  /** `yaml`: `${VAR}` references are resolved. `options`: strings are taken as they are. */
  readonly source: ConfigSource
  readonly env: Env
  /** Base for relative paths (secret files, state_dir, source globs). */
  readonly cwd: string
  readSecretFile(path: string): string
  report(code: ConfigErrorCode, path: readonly Segment[], message: string, target?: 'key' | 'value'): void
  /**
   * Marks a value that must never be echoed: it came from the environment or a file, or belongs to
   * a secret key. `written` is the text as written (`${FORMAT}`), which is safe to show instead.
   */
  hide(path: readonly Segment[], written?: string): void
  /** Whether a value at this path is hidden. */
  isHidden(path: readonly Segment[]): boolean
  /** The value as a message may show it: `"jsno"`, `the value of "${FORMAT}"`, or `a hidden value`. */
  show(path: readonly Segment[], value: unknown): string
  readonly problems: readonly RawProblem[]
}

export interface CheckContextOptions {
  env: Env
  cwd: string
  readSecretFile: (path: string) => string
  /** Default `yaml`. */
  source?: ConfigSource
}

export function createCheckContext(options: CheckContextOptions): CheckContext {
  const problems: RawProblem[] = []
  const hidden = new Map<string, string | undefined>()
  return {
    source: options.source ?? 'yaml',
    env: options.env,
    cwd: options.cwd,
    readSecretFile: options.readSecretFile,
    report(code, path, message, target = 'value') {
      problems.push({ code, path: [...path], message, target })
    },
    hide(path, written) {
      const key = formatPath(path)
      // A secret key stays fully hidden even when its value also came from a reference.
      if (hidden.has(key) && hidden.get(key) === undefined) return
      hidden.set(key, written)
    },
    isHidden(path) {
      return hidden.has(formatPath(path))
    },
    show(path, value) {
      const key = formatPath(path)
      if (!hidden.has(key)) return showValue(value)
      const written = hidden.get(key)
      return written === undefined ? 'a hidden value' : `the value of ${JSON.stringify(written)}`
    },
    problems,
  }
}
