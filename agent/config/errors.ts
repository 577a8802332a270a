// The only place config errors are defined. Every problem carries a stable code (never reused) so
// tools and tests can match on it; the README lists each one, and a test keeps that list complete.

import { CodedError } from '../coded-error'

export const ConfigErrorCodes = {
  /** The config file cannot be read. */
  READ: 'LOGX_CONFIG_ERR_READ',
  /** The file is not valid YAML (syntax error, duplicate key, several documents). */
  YAML: 'LOGX_CONFIG_ERR_YAML',
  /** A key the schema does not know; the message suggests the closest known key. */
  UNKNOWN_KEY: 'LOGX_CONFIG_ERR_UNKNOWN_KEY',
  /** A required key is absent, or none of the keys one of which is needed. */
  MISSING_KEY: 'LOGX_CONFIG_ERR_MISSING_KEY',
  /** A value has the wrong type (a list where a mapping belongs, a string where a number does). */
  TYPE: 'LOGX_CONFIG_ERR_TYPE',
  /** A value has the right type but is not allowed (not in an enum, out of range, malformed). */
  VALUE: 'LOGX_CONFIG_ERR_VALUE',
  /** A duration is not a number of ms or a string like `10s`, `30m`, `1h30m`. */
  DURATION: 'LOGX_CONFIG_ERR_DURATION',
  /** A regular expression or its flags do not compile. */
  REGEX: 'LOGX_CONFIG_ERR_REGEX',
  /** A message template does not compile. */
  TEMPLATE: 'LOGX_CONFIG_ERR_TEMPLATE',
  /** A `${VAR}` reference names an unset variable or is malformed. */
  ENV: 'LOGX_CONFIG_ERR_ENV',
  /** A `*_file` secret cannot be read or is empty. */
  SECRET_FILE: 'LOGX_CONFIG_ERR_SECRET_FILE',
  /** A name refers to a source, channel or person that is not defined. */
  UNKNOWN_REFERENCE: 'LOGX_CONFIG_ERR_UNKNOWN_REFERENCE',
  /** Two items share a name (or two people a phone) that must be unique. */
  DUPLICATE: 'LOGX_CONFIG_ERR_DUPLICATE',
  /** Keys that cannot be combined, or keys that need each other. */
  CONFLICT: 'LOGX_CONFIG_ERR_CONFLICT',
  /** The aggregate error thrown by `loadAgentConfig`; its `problems` carry the codes above. */
  INVALID: 'LOGX_CONFIG_ERR_INVALID',
} as const

export type ConfigErrorCode = (typeof ConfigErrorCodes)[keyof typeof ConfigErrorCodes]

/** One thing wrong with a config, located in its file. */
export interface ConfigProblem {
  readonly code: ConfigErrorCode
  readonly file: string
  /** 1-based line and column of the offending key or value (of the file's start when unknown). */
  readonly line: number
  readonly col: number
  /** Dot path of the key: `rules[0].notify[1]`, `channels.oncall-sms.type`; empty for the whole file. */
  readonly path: string
  readonly message: string
}

/** `agent.yaml:12:5 rules[0].notify[1]: unknown channel "oncal-sms" (did you mean "oncall-sms"?)` */
export function formatProblem(problem: ConfigProblem): string {
  const where = `${problem.file}:${problem.line}:${problem.col}`
  return problem.path === '' ? `${where} ${problem.message}` : `${where} ${problem.path}: ${problem.message}`
}

export class ConfigError extends CodedError<ConfigErrorCode> {
  static override readonly brand = Symbol.for('logx.config.error')
  readonly problems: readonly ConfigProblem[]

  constructor(problems: readonly ConfigProblem[]) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`
    const message = `invalid agent config (${count}):\n${problems.map(formatProblem).join('\n')}`
    super('ConfigError', ConfigErrorCodes.INVALID, message)
    this.problems = problems
  }
}
