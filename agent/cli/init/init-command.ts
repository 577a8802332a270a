// `logx-agent init`: look at the machine, ask (or take flags for) who to page and where pages go,
// write a commented starter config that passes `validate`, and print the next three commands. It
// writes nothing over an existing file without --force, and never writes an API key: the config names
// the file or the environment variable it is read from.
import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, resolve } from 'node:path'
import { problemLine } from '../problem-line'
import { parseAgentConfig } from '../../config/load/load-config'
import { replaceFileAsync } from '../../storage/replace-file'
import type { CliIo } from '../io'
import { detectSources, SYSTEM_ROOTS, type MachineRoots } from './detect-machine'
import { InitError, InitErrorCodes } from './errors'
import { gatherAnswers, type Ask, type InitFlags } from './init-answers'
import { probeMachine } from './probe-machine'
import { channelNames, renderConfig, type InitAnswers } from './render-config'
import { DEFAULT_CONFIG } from '../default-config'

export interface InitArgs extends InitFlags {
  config: string
  yes: boolean
  force: boolean
}

/** What init reads of the world besides its flags; tests replace each part. */
export interface InitEnvironment {
  env: Readonly<Record<string, string | undefined>>
  roots: MachineRoots
  /** The prompt, on a terminal; undefined when stdin is not one. */
  ask: Ask | undefined
}

export function defaultInitEnvironment(ask: Ask | undefined): InitEnvironment {
  const roots = { home: homedir(), cwd: process.cwd(), ...SYSTEM_ROOTS }
  return { env: process.env, roots, ask }
}

// The rendered text is checked as validate will check it; a secret the file only names is given a
// stand-in, since init cannot know it (and must not read it).
function checkRendered(text: string, file: string, answers: InitAnswers, environment: InitEnvironment): void {
  const env = { ...environment.env }
  if (answers.api.kind === 'real' && answers.api.key.kind === 'env') env[answers.api.key.name] = 'init-check'
  const result = parseAgentConfig(text, file, {
    env,
    cwd: environment.roots.cwd,
    readSecretFile: () => 'init-check',
  })
  if (result.ok) return
  const problems = result.problems.map((p) => `  ${problemLine(p)}`).join('\n')
  throw new InitError(InitErrorCodes.INVALID, `the config init made does not pass validate (a bug):\n${problems}`)
}

function secretNotes(answers: InitAnswers, environment: InitEnvironment): string[] {
  if (answers.api.kind !== 'real') return []
  const key = answers.api.key
  if (key.kind === 'env') {
    const value = environment.env[key.name]
    return value === undefined || value === ''
      ? [`Before validate and run: export ${key.name}=<your API key> (the config reads the key from it).`]
      : []
  }
  return existsSync(resolve(environment.roots.cwd, key.path))
    ? []
    : [`Before validate and run: put the API key in ${key.path} (the config reads it from there).`]
}

function nextSteps(file: string, answers: InitAnswers, environment: InitEnvironment): string {
  const config = file === DEFAULT_CONFIG ? '' : ` --config ${file}`
  const names = answers.sources.map((s) => s.name).join(', ')
  const reach = channelNames(answers)
    .map((name) => name.replace('oncall-', ''))
    .join(' and ')
  const api = answers.api.kind === 'sandbox' ? 'the embedded sandbox' : answers.api.baseUrl
  const lines = [
    `Wrote ${file}: ${answers.sources.length} source(s) (${names}), ${answers.person} paged by ${reach}, ` +
      `messaging: ${api}.`,
    ...secretNotes(answers, environment),
    'Next:',
    `  npx logx-agent validate ${file}`,
    `  npx logx-agent run${config}`,
    '      for good: pm2 start node_modules/logx/ecosystem.config.js, or npx logx-agent service install' +
      (config === '' ? '' : config),
    `  npx logx-agent test-page ${answers.person}${config}`,
  ]
  return `${lines.join('\n')}\n`
}

async function init(args: InitArgs, io: CliIo, environment: InitEnvironment): Promise<number> {
  const file = args.config
  const target = resolve(environment.roots.cwd, file)
  if (existsSync(target) && !args.force) {
    throw new InitError(
      InitErrorCodes.EXISTS,
      `${file} exists; init writes nothing over it (--force replaces it). ` +
        `Check it with: npx logx-agent validate ${file}`,
    )
  }
  const ask = args.yes ? undefined : environment.ask
  if (!args.yes && ask === undefined) {
    throw new InitError(
      InitErrorCodes.NO_TTY,
      'stdin is not a terminal, so there is nobody to ask: pass --yes (defaults plus flags: --person, --phone, ' +
        '--email, --api, --base-url, --api-key-file or --api-key-env)',
    )
  }
  const facts = probeMachine(environment.env, environment.roots)
  const detected = detectSources(environment.env, environment.roots, facts)
  const answers = await gatherAnswers(detected, args, ask)
  const text = renderConfig(answers)
  checkRendered(text, file, answers, environment)
  await mkdir(dirname(target), { recursive: true })
  await replaceFileAsync(target, text, { mode: 0o600 })
  io.stdout.write(nextSteps(file, answers, environment))
  return 0
}

/** Exit 0 written; 1 refused (file exists) or failed; 2 a flag or the terminal makes it impossible. */
export async function initCommand(args: InitArgs, io: CliIo, environment?: InitEnvironment): Promise<number> {
  try {
    return await init(args, io, environment ?? defaultInitEnvironment(undefined))
  } catch (err) {
    if (!(err instanceof InitError)) throw err
    io.stderr.write(`logx-agent init: ${err.message}\n`)
    return err.code === InitErrorCodes.ANSWER || err.code === InitErrorCodes.NO_TTY ? 2 : 1
  }
}
