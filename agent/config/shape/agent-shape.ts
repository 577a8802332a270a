// The agent config's structure: every key, its type and its documentation. The checker, the JSON
// Schema (config/agent.schema.json) and the key tables in README.md all come from here. The
// transport targets' options are checked against the same rule, silence and channel shapes.
import { clusterShape } from './cluster-shape'
import { digestShape } from './digest-shape'
import { ConfigErrorCodes } from '../errors'
import type { ObjectShape } from './shape'
import { checkHint, checkListen, checkName, checkRedactPath, checkPhone } from '../values/value-checks'
import { field, required, string, url, secret, name, duration, object } from './shape-parts'
import { channelShape } from './channel-shape'
import { ruleShape, rulesField, silencesField, inhibitShape } from './rule-shape'
import { sourceShape } from './source-shape'
import { checkApiBaseUrl } from '../values/api-url'
import { scheduleShape, personShape } from './people-shape'

const acknowledgeShape = object({
  missed_call_number: field(
    string({ check: checkPhone }),
    'the number pages tell people to give a missed call to; only missed calls to it acknowledge. Default without ' +
      "base_url: the embedded sandbox's number; with base_url and none given: pages give no hint and missed calls " +
      'to any number count',
  ),
  poll_interval: field(duration, 'how often missed calls are fetched from the messaging API (at least 1s)', {
    default: '15s',
  }),
  ack_all: field(
    { kind: 'boolean' },
    'a missed call acknowledges every firing, unacknowledged incident paged to the caller, not only the latest',
    { default: false },
  ),
  hint: field(
    string({ check: checkHint, code: ConfigErrorCodes.TEMPLATE }),
    'how a page of an unacknowledged incident says to acknowledge it; {{number}} is missed_call_number',
    { default: 'Ack: missed call {{number}}' },
  ),
  voice_audio: field(
    string(),
    'audio file played after the alert in voice calls of an unacknowledged incident (how to acknowledge)',
  ),
})

const consoleShape = object({
  enabled: field({ kind: 'boolean' }, 'serve the web console and its HTTP API on metrics.listen, beside /metrics', {
    default: true,
  }),
  token: field(
    secret,
    'access token (`authorization: Bearer <token>`); required when metrics.listen is not a loopback address. ' +
      'Default on loopback: a random one per start, in <state_dir>/console.token',
  ),
})

export const agentShape: ObjectShape = object(
  {
    messaging: field(
      object({
        base_url: field(
          string({ check: checkApiBaseUrl, code: ConfigErrorCodes.VALUE, json: { format: 'uri' } }),
          'messaging API base URL, without user, password or key in it (api_key); omit it to use the embedded sandbox',
        ),
        api_key: field(secret, 'messaging API key; required with base_url'),
        lead_webhook: field(url, 'lead webhook URL (incident leads); with base_url'),
        activity_webhook: field(url, 'activity webhook URL; with base_url'),
        activity_token: field(secret, 'activity webhook token (X-O-TOKEN)'),
        sandbox: field(
          object({
            listen: field(string({ check: checkListen }), 'address of the embedded sandbox and its inbox', {
              default: '127.0.0.1:4010',
            }),
            allow_remote: field(
              { kind: 'boolean' },
              'allow a listen address that is not loopback (the sandbox has no authentication: anyone who ' +
                'reaches it reads every page and can acknowledge incidents)',
              { default: false },
            ),
          }),
          'the embedded sandbox used when base_url is omitted',
        ),
      }),
      'the messaging API; omitted or without base_url: the embedded sandbox',
    ),
    state_dir: field(string(), 'checkpoints, outbox and incident map (relative to the working directory)', {
      default: '.logx-agent',
    }),
    sources: required({ kind: 'list', items: sourceShape, minItems: 1 }, 'log files to tail'),
    people: field(
      { kind: 'map', values: personShape, keyCheck: checkName },
      'person name -> how to reach them; channels and escalation steps name them',
    ),
    schedules: field(
      { kind: 'map', values: scheduleShape, keyCheck: checkName },
      'schedule name -> on-call rotations; channels and escalation steps reach who is on call (`oncall`)',
    ),
    channels: required(
      { kind: 'map', values: channelShape, keyCheck: checkName, minEntries: 1 },
      'channel name -> channel',
    ),
    rules: rulesField(ruleShape),
    silences: silencesField,
    inhibit: field(
      { kind: 'list', items: inhibitShape },
      'while a source incident fires (or is acknowledged), notices of matching target incidents are muted, and say so',
      { default: [] },
    ),
    redact: field(
      { kind: 'list', items: string({ check: checkRedactPath }) },
      'paths of log fields censored ("[redacted]") before anything is built from a line: messages, CRM notes, ' +
        'incident state; the logger\'s redact syntax (user.password, *.token, cards[*].number, headers["x-key"]); ' +
        'msg censors the message',
      { default: [] },
    ),
    metrics: field(
      object({ listen: required(string({ check: checkListen }), 'address of /metrics and /health') }),
      'Prometheus /metrics and /health; omitted: not served',
    ),
    acknowledge: field(acknowledgeShape, 'acknowledging a page by a missed call'),
    console: field(
      consoleShape,
      'the web console (incidents, ack, resolve, silences) and its HTTP API, served on metrics.listen',
    ),
    kinds: field(
      object({
        max: field({ kind: 'integer', min: 1 }, 'error kinds kept per source; past it the least recently seen goes', {
          default: 10_000,
        }),
        learn: field(duration, 'a first start records the kinds it sees this long without paging them as new', {
          default: '1h',
        }),
      }),
      'error kinds: the templates lines are mined into, for rules on kinds (kind, spike, ratio)',
    ),
    digest: field(digestShape, 'a summary of the error kinds and incidents of each period, sent on a schedule'),
    cluster: field(
      clusterShape,
      'a fleet of agents sharing incidents, notifications sent, acks and silences on Redis; omitted: this agent alone',
    ),
  },
  'logx-agent configuration',
)
