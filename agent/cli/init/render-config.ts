// The starter config `logx-agent init` writes, as commented YAML text. Pure: the answers in, the text
// out. Scalars go through the yaml package (a phone number like +919800000001 is quoted, else YAML
// reads it as an integer); the layout and its comments are written here, since they are the point.
import { stringify } from 'yaml'
import type { DetectedSource } from './detect-machine'

export type ApiKeySource = { kind: 'file'; path: string } | { kind: 'env'; name: string }

export type ApiAnswer =
  { kind: 'sandbox' } | { kind: 'real'; baseUrl: string; key: ApiKeySource; missedCallNumber: string | undefined }

export interface InitAnswers {
  sources: readonly DetectedSource[]
  person: string
  /** undefined only with the sandbox and no --phone: a placeholder number is written, marked as one. */
  phone: string | undefined
  email: string | undefined
  mailFrom: string
  api: ApiAnswer
}

/** The sandbox's own pages reach nobody, so a made-up number is safe there. */
export const PLACEHOLDER_PHONE = '919800000001'

const SANDBOX_LISTEN = '127.0.0.1:4010'

const scalar = (value: string): string => stringify(value, { lineWidth: 0 }).trimEnd()
// Block lists: a glob's `{a,b}` is fine in a plain scalar there, but not inside a flow list's brackets.
const blockList = (key: string, values: readonly string[]): string[] => [
  `    ${key}:`,
  ...values.map((value) => `      - ${scalar(value)}`),
]

function header(): string[] {
  return [
    '# logx-agent config, written by `logx-agent init`. Every key is explained in docs/configuration.md',
    '# (node_modules/logx/docs/ in an app). Check it with `npx logx-agent validate <this file>`; a running',
    '# agent reloads it when it changes.',
    '',
  ]
}

function messaging(api: ApiAnswer): string[] {
  if (api.kind === 'sandbox') {
    return [
      '# Where pages go: the embedded sandbox, a local emulator of the messaging API. Nothing leaves this',
      `# machine; its web inbox (http://${SANDBOX_LISTEN}/) shows every message it would have sent. To page`,
      '# for real, give messaging.base_url and the key as api_key_file or api_key: ${ENV_VARIABLE} (never the',
      '# key itself), or run `logx-agent init --api real --force`.',
      'messaging:',
      '  sandbox:',
      `    listen: ${SANDBOX_LISTEN}`,
      '',
    ]
  }
  const key =
    api.key.kind === 'file'
      ? [
          '  # The key is read from this file when the agent starts; it is never written here.',
          `  api_key_file: ${scalar(api.key.path)}`,
        ]
      : [
          `  # The key is read from $${api.key.name} when the agent starts; it is never written here.`,
          `  api_key: \${${api.key.name}}`,
        ]
  return ['# Where pages go: the messaging API.', 'messaging:', `  base_url: ${scalar(api.baseUrl)}`, ...key, '']
}

function stateDir(): string[] {
  return [
    '# Checkpoints, the outbox and open incidents. Under systemd (`logx-agent service install`) this is the',
    "# unit's StateDirectory (/var/lib/logx-agent); elsewhere .logx-agent in the working directory.",
    'state_dir: ${STATE_DIRECTORY:-.logx-agent}',
    '',
  ]
}

function source(found: DetectedSource): string[] {
  const lines = [`  # ${found.reason}`, `  - name: ${scalar(found.name)}`]
  if (found.kind === 'journald') return [...lines, '    type: journald', '    priority: err']
  lines.push(...blockList('paths', found.paths))
  if (found.exclude.length > 0) lines.push(...blockList('exclude', found.exclude))
  if (found.format !== undefined) lines.push(`    format: ${found.format}`)
  return lines
}

function sources(found: readonly DetectedSource[]): string[] {
  return [
    '# What is read. Paths are globs, relative to the working directory; files that appear later are',
    '# picked up, and reading starts at the end of files already there (start_at: beginning to read them).',
    'sources:',
    ...found.flatMap(source),
    '',
  ]
}

function people(answers: InitAnswers): string[] {
  const phone =
    answers.phone === undefined
      ? [`    phone: ${scalar(PLACEHOLDER_PHONE)}  # a placeholder: the sandbox pages nobody; put the real number`]
      : [`    phone: ${scalar(answers.phone)}`]
  const email = answers.email === undefined ? [] : [`    email: ${scalar(answers.email)}`]
  return [
    '# Who gets paged, written once; channels name them. A missed call from their phone acknowledges a page.',
    'people:',
    `  ${scalar(answers.person)}:`,
    ...phone,
    ...email,
    '',
  ]
}

/** The channel names, in the order the rule notifies them. */
export function channelNames(answers: InitAnswers): string[] {
  return answers.email === undefined ? ['oncall-sms'] : ['oncall-sms', 'oncall-mail']
}

function channels(answers: InitAnswers): string[] {
  const person = scalar(answers.person)
  const mail =
    answers.email === undefined
      ? []
      : ['  oncall-mail:', '    type: mail', `    from: ${scalar(answers.mailFrom)}`, `    people: [${person}]`]
  return [
    '# How they are reached. max_per_hour caps what one channel sends, whatever the rules say.',
    'channels:',
    '  oncall-sms:',
    '    type: sms',
    `    people: [${person}]`,
    '    max_per_hour: 20',
    ...mail,
    '',
  ]
}

function acknowledge(api: ApiAnswer): string[] {
  const number =
    api.kind === 'real' && api.missedCallNumber !== undefined
      ? [`  missed_call_number: ${scalar(api.missedCallNumber)}`]
      : []
  const where =
    api.kind === 'sandbox'
      ? "# (in the sandbox's inbox: Simulate a missed call)."
      : '# (acknowledge.missed_call_number: the number pages name; without it any missed call counts).'
  return [
    '# A page says how to acknowledge it: a missed call; escalation and repeats stop until ack_timeout',
    where,
    'acknowledge:',
    ...number,
    '  poll_interval: 15s',
    '',
  ]
}

function rules(answers: InitAnswers): string[] {
  // A lead per incident needs the CRM webhooks, which the sandbox provides and a real API is given apart.
  const incident =
    answers.api.kind === 'sandbox'
      ? ['    incident: true']
      : [
          '    # incident: true records each incident as a lead; it needs messaging.lead_webhook,',
          '    # activity_webhook and activity_token.',
        ]
  return [
    '# When to page: error and fatal lines of every source. Lines alike are one incident, paged once',
    '# after group_wait, again every repeat_interval while it lasts, resolved after resolve_after quiet.',
    'rules:',
    '  - name: errors',
    '    level: error',
    '    group_wait: 10s',
    '    repeat_interval: 30m',
    '    resolve_after: 15m',
    `    notify: [${channelNames(answers).join(', ')}]`,
    '    ack_timeout: 1h',
    ...incident,
    '',
  ]
}

function metrics(): string[] {
  return [
    '# /metrics, /health and the console (incidents, acknowledge, silences), on loopback only.',
    'metrics:',
    '  listen: 127.0.0.1:9464',
  ]
}

export function renderConfig(answers: InitAnswers): string {
  const sections = [
    header(),
    messaging(answers.api),
    stateDir(),
    sources(answers.sources),
    people(answers),
    channels(answers),
    acknowledge(answers.api),
    rules(answers),
    metrics(),
  ]
  return `${sections.flat().join('\n')}\n`
}
