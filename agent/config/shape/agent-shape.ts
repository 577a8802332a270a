// The agent config's structure: every key, its type and its documentation. The checker, the JSON
// Schema (config/agent.schema.json) and the key tables in README.md all come from here. The
// transport targets' options are checked against the same rule, silence and channel shapes.
import { globProblem } from '../../tail/glob'
import { clusterShape } from './cluster-shape'
import { DURATION_PATTERN } from '../values/duration'
import { ConfigErrorCodes } from '../errors'
import { JOURNAL_PRIORITIES } from '../normalize/journald'
import { MULTILINE_PRESETS } from '../normalize/multiline'
import type { Field, ObjectShape, Shape, StringShape, TaggedShape } from './shape'
import {
  checkClock,
  checkLocalDate,
  checkRotation,
  checkWeekday,
  checkWrittenInstant,
  rotationPattern,
  WEEKDAYS,
} from '../values/time-values'
import {
  checkChatNumber,
  checkDate,
  checkDotPath,
  checkEmail,
  checkHint,
  checkLevel,
  checkListen,
  checkMatchValue,
  checkName,
  checkOncallRef,
  checkRedactPath,
  checkPattern,
  checkPhone,
  checkTemplate,
  checkTimeZone,
  checkUrl,
} from '../values/value-checks'

const field = (shape: Shape, description: string, extra: Omit<Field, 'shape' | 'description'> = {}): Field => ({
  shape,
  description,
  ...extra,
})
const required = (shape: Shape, description: string): Field => field(shape, description, { required: true })

const string = (extra: Omit<StringShape, 'kind'> = {}): StringShape => ({ kind: 'string', ...extra })
const url = string({ check: checkUrl, json: { format: 'uri' } })
const secret = string({ secret: true })
const name = string({ check: checkName })
const template = string({ check: checkTemplate, code: ConfigErrorCodes.TEMPLATE })
const duration: Shape = { kind: 'duration' }
// References to sources and channels: the YAML checks them against what it declares; a target's
// rules may name sources and channels of other targets, spelt any way.
const names = (description: string): Shape => ({
  kind: 'list',
  items: string(),
  minItems: 1,
  single: true,
  description,
})
const object = (fields: Record<string, Field>, description?: string): ObjectShape =>
  description === undefined ? { kind: 'object', fields } : { kind: 'object', fields, description }
/** An object that needs at least one of `keys` (all optional in it). */
const withOneOf = (keys: readonly string[], shape: ObjectShape): ObjectShape => ({ ...shape, needsOneOf: keys })

/** Dot path -> value; a `/pattern/flags` string is a regular expression, anything else must be equal. */
const matchValue: Shape = { kind: 'scalar', check: checkMatchValue, code: ConfigErrorCodes.REGEX }
const matchers: Shape = { kind: 'map', keyCheck: checkDotPath, values: matchValue }

const kindTemplates = (what: string): Shape => ({
  kind: 'either',
  options: [
    template,
    object({
      firing: field(template, `${what} of firing, repeat and escalated notices`),
      resolved: field(template, `${what} of resolved notices`),
      digest: field(template, `${what} of the digest sent after a budget overflow`),
    }),
  ],
})

// Schedules and active hours: wall-clock values read in an IANA time zone. The checks name the
// zone that does not exist (with a did-you-mean), a time of day that is not one, a weekday's typo.
// A time zone's check quotes the value itself (did-you-mean), hence its code.
const timeZone = string({ check: checkTimeZone, code: ConfigErrorCodes.VALUE })
const clock = string({ check: checkClock, json: { pattern: '^\\d{1,2}:\\d{2}$' } })
const weekday = string({ check: checkWeekday, code: ConfigErrorCodes.VALUE, json: { enum: [...WEEKDAYS] } })
/** `oncall: ops` or `oncall: ops/secondary`. */
const oncallRef = string({ check: checkOncallRef })

const activeHoursEntry = object({
  time_zone: field(timeZone, 'IANA time zone the days and times are read in', { default: 'UTC' }),
  days: field(
    { kind: 'list', items: weekday, minItems: 1, single: true },
    'weekdays a range starts on: mon..sun (or monday..sunday); default: every day',
  ),
  from: field(clock, 'local time the range starts (inclusive), "HH:MM"', { default: '00:00' }),
  to: field(
    clock,
    'local time the range ends (exclusive), "HH:MM"; at or before from: the next day (00:00 to 00:00 is the whole day)',
    { default: '00:00' },
  ),
})
const activeHours = (what: string): Field =>
  field(
    { kind: 'list', items: activeHoursEntry, minItems: 1, single: true },
    `when ${what} is active: one range or a list of them (any one will do); default: always`,
  )

/** A channel's `people`: their addresses join its recipients, so it needs recipients, people or a schedule. */
const channelPeople = field(
  names('person names'),
  'people (from `people`) reached on this channel: the address the channel needs joins the recipients',
)
const recipientsOrPeople = (recipients: string): readonly string[] => [recipients, 'people', 'oncall']

const channelCommon = {
  max_per_hour: field(
    { kind: 'integer', min: 1 },
    'budget: most messages per sliding hour; the rest fold into one digest',
  ),
  concurrency: field(
    { kind: 'integer', min: 1, max: 64 },
    "requests in flight at once on this channel; one incident's messages still go one at a time, in order",
    { default: 4 },
  ),
  oncall: field(
    oncallRef,
    "schedule (or schedule/layer) whose person on call, when a notice is sent, is this channel's recipient, instead of numbers or people",
  ),
  active_hours: activeHours('this channel'),
}

export const channelShape: TaggedShape = {
  kind: 'tagged',
  tag: 'type',
  variants: {
    sms: withOneOf(
      recipientsOrPeople('numbers'),
      object({
        numbers: field(
          { kind: 'list', items: string({ check: checkPhone }), minItems: 1, single: true },
          "recipients' phone numbers",
        ),
        people: channelPeople,
        sender_id: field(string(), 'approved sender id'),
        route: field(string(), 'SMS route of the messaging API'),
        template_id: field(string(), 'registered (DLT) template id'),
        template: field(kindTemplates('text'), 'text template, or one per notice kind', {
          default: '{{status}} {{title}} ({{count}}x, {{rule}})',
        }),
        max_length: field({ kind: 'integer', min: 1 }, 'longest text sent; longer texts are cut with "…"', {
          default: 160,
        }),
        ...channelCommon,
      }),
    ),
    chat: withOneOf(
      recipientsOrPeople('numbers'),
      object({
        numbers: field(
          { kind: 'list', items: string({ check: checkChatNumber }), minItems: 1, single: true },
          'recipients, with country prefix',
        ),
        people: channelPeople,
        template_id: required({ kind: 'integer', min: 0 }, 'approved chat template id'),
        variables: field({ kind: 'list', items: template }, "templates of the chat template's variables", {
          default: ['{{status}}', '{{title}}', '{{count}}', '{{rule}}'],
        }),
        attachment: field(url, 'URL of a file attached to every message'),
        ...channelCommon,
      }),
    ),
    mail: withOneOf(
      recipientsOrPeople('to'),
      object({
        from: required(string({ check: checkEmail, json: { format: 'email' } }), 'sender address'),
        to: field(
          { kind: 'list', items: string({ check: checkEmail, json: { format: 'email' } }), minItems: 1, single: true },
          'recipient addresses',
        ),
        people: channelPeople,
        subject: field(kindTemplates('subject'), 'subject template, or one per notice kind', {
          default: '[{{status}}] {{title}}',
        }),
        format: field(
          { kind: 'enum', values: ['html', 'text'] },
          'body sent: the HTML rendering or the plain-text one',
          { default: 'html' },
        ),
        ...channelCommon,
      }),
    ),
    voice: withOneOf(
      recipientsOrPeople('receivers'),
      object({
        receivers: field(
          {
            kind: 'list',
            minItems: 1,
            items: object({
              label: required(string(), 'who is called (shown in the call log)'),
              number: required(string({ check: checkPhone }), 'phone number'),
            }),
          },
          'who is called',
        ),
        people: channelPeople,
        audio: required(
          {
            kind: 'either',
            options: [
              { kind: 'list', items: string(), minItems: 1 },
              object({
                firing: required(
                  { kind: 'list', items: string(), minItems: 1 },
                  'played for firing, repeat and escalated notices',
                ),
                resolved: field({ kind: 'list', items: string(), minItems: 1 }, 'played for resolved notices'),
                digest: field({ kind: 'list', items: string(), minItems: 1 }, 'played for digests'),
              }),
            ],
          },
          'audio files played: one list, or one per notice kind',
        ),
        ...channelCommon,
      }),
    ),
  },
}

/**
 * A rule's keys. The YAML's rules acknowledge (`ack_timeout`), reach people (an escalation step's
 * `people`, `oncall` and `active_hours`) and watch for silence (`absent`); a transport target's do
 * none of it (nothing acknowledges its incidents, it has no people or schedules, and nothing ticks
 * it when no line arrives), so its rules are refused those keys rather than taking them to no effect.
 */
const ruleFields = (yaml: boolean): ObjectShape =>
  object({
    name: field(string(), 'unique rule name; appears in messages, incident keys and CRM notes', {
      default: 'rule-<index>',
    }),
    source: field(names('source names'), 'source name(s) this rule reads; default: every source'),
    level: field(
      {
        kind: 'either',
        label: 'a level name or number',
        options: [{ kind: 'integer', min: 0 }, string({ check: checkLevel })],
      },
      'minimum level: a name (trace, debug, info, warn, error, fatal; also warning, crit...) or a number',
      { default: 'error' },
    ),
    match: field(matchers, 'dot path -> value; a "/pattern/flags" string is a regular expression; all must match'),
    message: field(
      string({ check: checkPattern, code: ConfigErrorCodes.REGEX }),
      'regular expression on the message ("/pattern/flags" or a bare pattern)',
    ),
    group_by: field(
      { kind: 'list', items: string({ check: checkDotPath }), minItems: 1 },
      'dot paths whose values make the incident key; default: error type, top stack frame and masked message',
    ),
    group_wait: field(duration, 'wait this long after an incident opens before the first notice', { default: '0s' }),
    repeat_interval: field(duration, 'a still-firing incident is notified again at most this often', { default: '1h' }),
    resolve_after: field(duration, 'an incident without lines for this long resolves; default: never'),
    ...(yaml
      ? {
          ack_timeout: field(
            duration,
            'an acknowledged incident still firing this long after its ack goes back to unacknowledged, and escalation resumes; default: never',
          ),
        }
      : {}),
    send_resolved: field({ kind: 'boolean' }, 'send a notice when an incident resolves', { default: false }),
    threshold: field(
      object({
        count: required({ kind: 'integer', min: 1 }, 'lines needed'),
        within: required(duration, 'time window the lines must arrive in'),
      }),
      'fire only once `count` lines arrived within `within`',
    ),
    notify: field(names('channel names'), 'channels notified first; default: every channel'),
    escalate: field(
      {
        kind: 'list',
        minItems: 1,
        items: object({
          after: required(duration, 'time since the incident first fired'),
          notify: required(names('channel names'), 'channels notified at this step'),
          ...(yaml
            ? {
                people: field(
                  names('person names'),
                  "people this step reaches on its channels, instead of the channels' recipients",
                ),
                oncall: field(
                  oncallRef,
                  "schedule (or schedule/layer) whose person on call this step reaches on its channels, instead of the channels' recipients",
                ),
                active_hours: activeHours('this step'),
              }
            : {}),
        }),
      },
      'later steps, in increasing order of `after`',
    ),
    incident: field({ kind: 'boolean' }, 'record each incident as a CRM lead with activities', { default: false }),
    title: field(template, 'incident title template', { default: '{{msg}}' }),
    ...(yaml
      ? {
          absent: field(
            object({ for: required(duration, 'silence that opens the incident (at least 1s)') }),
            'an absence rule: an incident opens when no line it selects arrived for `for`, per group key, and resolves when lines return',
          ),
        }
      : {}),
  })
export const ruleShape: ObjectShape = ruleFields(true)
/** A transport target's rule: the YAML's without `ack_timeout`, `absent` and escalation steps' `people`, `oncall` and `active_hours`. */
export const targetRuleShape: ObjectShape = ruleFields(false)

// A multi-line event rule: a preset, or a start or continuation pattern; exactly one of the three
// (normalize-multiline.ts reports two given together).
const multilinePreset: Shape = { kind: 'enum', values: MULTILINE_PRESETS }
const linePattern = string({ check: checkPattern, code: ConfigErrorCodes.REGEX })
const multiline: Shape = {
  kind: 'either',
  options: [
    multilinePreset,
    withOneOf(
      ['preset', 'start', 'continue'],
      object({
        preset: field(
          multilinePreset,
          'java, python, go or node: which lines continue an event (frames, `Caused by:`, `Traceback`, `goroutine N [running]:` ...)',
        ),
        start: field(
          linePattern,
          'regular expression ("/pattern/flags" or bare) a line that starts an event matches; every other line continues the one before',
        ),
        continue: field(
          linePattern,
          'regular expression a line that continues the event before it matches; every other line starts one',
        ),
        max_lines: field(
          { kind: 'integer', min: 1 },
          'an event is ended after this many lines (the next line starts a new one)',
          { default: 500 },
        ),
        timeout: field(duration, "a quiet file's last event is ended this long after its last line", { default: '1s' }),
      }),
    ),
  ],
}

export const sourceShape: ObjectShape = object({
  name: required(name, 'unique source name; rules refer to it'),
  type: field(
    { kind: 'enum', values: ['file', 'journald'] },
    'file tails `paths`; journald reads the systemd journal through journalctl (`units`, `priority`, `journal_files`)',
    { default: 'file' },
  ),
  paths: field(
    { kind: 'list', items: string(), minItems: 1, single: true },
    'file globs (relative to the working directory); files that appear later are picked up. Required for a file source; a journald source has none',
  ),
  exclude: field(
    { kind: 'list', items: string({ check: globProblem }), single: true },
    "file globs never tailed (rotated `*.gz`, `*.1`, other apps' files): without '/' matched against the file name, with '/' against the path (relative to the working directory)",
  ),
  format: field(
    { kind: 'enum', values: ['json', 'text', 'auto', 'docker', 'cri'] },
    'line format; auto parses lines that look like JSON and treats the rest as text; docker (json-file) and cri are container logs, whose lines are unwrapped (split lines joined) and then read as auto',
    { default: 'auto' },
  ),
  multiline: field(
    multiline,
    'lines that continue an event (a stack trace under its log line) join it: one alert line, its level from the first line; a preset name (java, python, go, node) or an object',
  ),
  start_at: field(
    { kind: 'enum', values: ['end', 'beginning'] },
    'where reading starts in a file found at startup without a checkpoint (journald: in the journal, without a saved cursor)',
    { default: 'end' },
  ),
  max_line_bytes: field({ kind: 'integer', min: 1 }, 'longer lines are cut to this (and counted)', {
    default: 262_144,
  }),
  sync_reads: field(
    { kind: 'boolean' },
    "read on the agent's own thread (fastest from the page cache); false reads on the thread pool, so a stalled network filesystem stalls only this source",
    { default: true },
  ),
  units: field(
    { kind: 'list', items: string(), minItems: 1, single: true },
    'journald: the systemd units to read (journalctl --unit), any of them; default: every unit',
  ),
  priority: field(
    {
      kind: 'either',
      label: 'a syslog priority (0..7 or emerg, alert, crit, err, warning, notice, info, debug)',
      options: [
        { kind: 'integer', min: 0, max: 7 },
        { kind: 'enum', values: [...JOURNAL_PRIORITIES] },
      ],
    },
    'journald: read entries of this priority and the more severe (journalctl --priority); default: all',
  ),
  journal_files: field(
    { kind: 'list', items: string(), minItems: 1, single: true },
    'journald: journal file globs (relative to the working directory) read instead of the system journal (journalctl --file), e.g. what systemd-journal-remote writes',
  ),
})

const time: Shape = {
  kind: 'either',
  label: 'an ISO date or epoch milliseconds',
  // A number is epoch ms (the integer is tried first: a string shape would take a number as text).
  options: [{ kind: 'integer', min: 0 }, string({ check: checkDate, json: { format: 'date-time' } })],
}

export const silenceShape: ObjectShape = object({
  id: field(string(), 'names the silence (to remove it at run time); default: silence-<n>'),
  matchers: required(
    { kind: 'map', keyCheck: checkDotPath, values: matchValue, minEntries: 1 },
    "on rule, fingerprint, title or the line's fields by dot path; all must match",
  ),
  starts_at: field(time, 'ISO date (or epoch milliseconds); default: when the config loads'),
  ends_at: required(time, 'ISO date (or epoch milliseconds) the silence expires at'),
  comment: field(string(), 'why, and who'),
})

const rulesField = (rule: ObjectShape): Field =>
  field(
    { kind: 'list', items: rule },
    'alert rules, tried in order; the first that selects a line owns it. Default: one rule for error and fatal lines to every channel',
  )
const silencesField = field({ kind: 'list', items: silenceShape }, 'silences (maintenance windows)', { default: [] })

/** A transport target's `rules` and `silences` options: the YAML's keys (less the two above). */
export const alertOptionsShape: ObjectShape = object({ rules: rulesField(targetRuleShape), silences: silencesField })

const layerShape = object({
  name: required(name, 'unique in its schedule; `oncall: <schedule>/<layer>` names it'),
  users: required(names('person names'), 'people (from `people`) who take turns, in order'),
  rotation: required(
    string({ check: checkRotation, json: { pattern: rotationPattern(DURATION_PATTERN) } }),
    'length of a turn: daily, weekly, or "every <duration>" (at least 1m)',
  ),
  handoff: field(clock, 'local time turns change, "HH:MM"', { default: '09:00' }),
  handoff_day: field(weekday, 'weekday turns change; weekly only', { default: 'monday' }),
  start: required(
    string({ check: checkLocalDate, json: { format: 'date' } }),
    'local date "YYYY-MM-DD" the first user\'s turn begins (at the handoff time)',
  ),
  time_zone: field(timeZone, "IANA time zone of handoff and start; default: the schedule's"),
})

const overrideShape = object({
  user: required(string(), 'person (from `people`) on call instead'),
  from: required(
    string({ check: checkWrittenInstant }),
    'start, "YYYY-MM-DDTHH:MM" in the schedule\'s time zone (or with Z or an offset)',
  ),
  to: required(string({ check: checkWrittenInstant }), 'end (exclusive), after from'),
  layer: field(string(), 'layer overridden; default: the first'),
})

const scheduleShape = object({
  time_zone: field(timeZone, 'IANA time zone of its layers and overrides', { default: 'UTC' }),
  layers: required(
    { kind: 'list', items: layerShape, minItems: 1 },
    "rotations; the first is the schedule's own (`oncall: <schedule>`)",
  ),
  overrides: field({ kind: 'list', items: overrideShape }, 'someone on call instead, for a while (leave, swaps)', {
    default: [],
  }),
})

/** Matchers an inhibition rule's incidents must match: at least one. */
const incidentMatchers: Shape = { kind: 'map', keyCheck: checkDotPath, values: matchValue, minEntries: 1 }

const inhibitShape = object({
  source: required(
    incidentMatchers,
    "the muting incident: matchers like a silence's (rule, title, fingerprint or the line's fields); all must match",
  ),
  target: required(incidentMatchers, "the muted notices' incident: matchers like source's"),
  equal: field(
    { kind: 'list', items: string({ check: checkDotPath }), minItems: 1, single: true },
    "dot paths whose values must be equal on both incidents' last lines; default: none",
  ),
})

export const personShape: ObjectShape = withOneOf(
  ['phone', 'email', 'chat'],
  object({
    phone: field(
      string({ check: checkPhone }),
      'phone number: SMS and voice channels reach it, chat channels too without `chat`; missed calls from it acknowledge',
    ),
    email: field(string({ check: checkEmail, json: { format: 'email' } }), 'e-mail address, for mail channels'),
    chat: field(string({ check: checkChatNumber }), 'chat number with country prefix; default: phone'),
  }),
)

const acknowledgeShape = object({
  missed_call_number: field(
    string({ check: checkPhone }),
    "the number pages tell people to give a missed call to; only missed calls to it acknowledge. Default without base_url: the embedded sandbox's number; with base_url and none given: pages give no hint and missed calls to any number count",
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
    'access token (`authorization: Bearer <token>`); required when metrics.listen is not a loopback address. Default on loopback: a random one per start, in <state_dir>/console.token',
  ),
})

export const agentShape: ObjectShape = object(
  {
    messaging: field(
      object({
        base_url: field(url, 'messaging API base URL; omit it to use the embedded sandbox'),
        api_key: field(secret, 'messaging API key; required with base_url'),
        lead_webhook: field(url, 'lead webhook URL (incident leads); with base_url'),
        activity_webhook: field(url, 'activity webhook URL; with base_url'),
        activity_token: field(secret, 'activity webhook token (X-O-TOKEN)'),
        sandbox: field(
          object({
            listen: field(string({ check: checkListen }), 'address of the embedded sandbox and its inbox', {
              default: '127.0.0.1:4010',
            }),
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
      'paths of log fields censored ("[redacted]") before anything is built from a line: messages, CRM notes, incident state; the logger\'s redact syntax (user.password, *.token, cards[*].number, headers["x-key"]); msg censors the message',
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
    cluster: field(
      clusterShape,
      'a fleet of agents sharing incidents, notifications sent, acks and silences on Redis; omitted: this agent alone',
    ),
  },
  'logx-agent configuration',
)
