// Loading a config: read -> YAML with positions -> shape check (strict keys, ${VAR}, *_file) ->
// normalize -> checks across sections. Every problem is collected and located as file:line:col.
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { agentShape } from '../shape/agent-shape'
import { createCheckContext, type RawProblem } from './check-context'
import { checkShape } from '../shape/check-shape'
import { formatPath } from '../shape/config-path'
import type { Env } from './env-reference'
import { ConfigError, ConfigErrorCodes, type ConfigProblem } from '../errors'
import { normalizeAgentConfig } from '../normalize/normalize-config'
import type { AgentConfig } from '../types'
import type { AgentConfigInput } from '../shape/written-types'
import { readYamlSource, type YamlSource } from './yaml-source'

export interface LoadConfigOptions {
  /** Variables `${VAR}` references read; default process.env. */
  env?: Env
  /** Base of relative paths (globs, state_dir, secret files); default process.cwd(). */
  cwd?: string
  /** Reads a `*_file` secret; default fs.readFileSync as UTF-8. */
  readSecretFile?: (path: string) => string
}

export type ConfigResult = { ok: true; config: AgentConfig } | { ok: false; problems: ConfigProblem[] }

function locateAll(raw: readonly RawProblem[], source: YamlSource, file: string): ConfigProblem[] {
  return raw
    .map((p) => ({
      ...source.locate(p.path, p.target),
      code: p.code,
      file,
      path: formatPath(p.path),
      message: p.message,
    }))
    .sort((a, b) => a.line - b.line || a.col - b.col)
}

/** Parses and checks config text; `file` is only used in messages. Never throws on a bad config. */
export function parseAgentConfig(text: string, file: string, options: LoadConfigOptions = {}): ConfigResult {
  const source = readYamlSource(text)
  if (source.syntax.length > 0) {
    // Past a syntax error the structure is a guess; reporting keys of a guessed tree only misleads.
    return {
      ok: false,
      problems: source.syntax.map((s) => ({
        code: ConfigErrorCodes.YAML,
        file,
        line: s.line,
        col: s.col,
        path: '',
        message: s.message,
      })),
    }
  }
  const ctx = createCheckContext({
    env: options.env ?? process.env,
    cwd: options.cwd ?? process.cwd(),
    readSecretFile: options.readSecretFile ?? ((path) => readFileSync(path, 'utf8')),
  })
  if (source.value === undefined) {
    ctx.report(ConfigErrorCodes.TYPE, [], 'the file is empty; expected a mapping with sources and channels')
    return { ok: false, problems: locateAll(ctx.problems, source, file) }
  }
  const written = checkShape(agentShape, source.value, ctx) as AgentConfigInput | undefined
  const config = normalizeAgentConfig(written, source.value, file, ctx)
  if (ctx.problems.length > 0) return { ok: false, problems: locateAll(ctx.problems, source, file) }
  return { ok: true, config }
}

/** Reads and checks a config file; a file that cannot be read is a problem too. */
export async function readAgentConfig(file: string, options: LoadConfigOptions = {}): Promise<ConfigResult> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message
    return {
      ok: false,
      problems: [
        {
          code: ConfigErrorCodes.READ,
          file,
          line: 1,
          col: 1,
          path: '',
          message: `cannot read the config file (${reason})`,
        },
      ],
    }
  }
  return parseAgentConfig(text, file, options)
}

/** The normalized config, or a ConfigError listing every problem. */
export async function loadAgentConfig(file: string, options: LoadConfigOptions = {}): Promise<AgentConfig> {
  const result = await readAgentConfig(file, options)
  if (!result.ok) throw new ConfigError(result.problems)
  return result.config
}
