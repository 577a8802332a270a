// The shapes of rules, silences and inhibit rules; a transport target's `rules` and `silences`
// options are the same shapes (a target's rule less the keys it cannot act on).
import { ConfigErrorCodes } from '../errors'
import type { Field, ObjectShape, Shape } from './shape'
import { checkDate, checkDotPath, checkLevel, checkPattern } from '../values/value-checks'
import { checkSilenceMatchValue } from '../values/silence-matcher'
import {
  field,
  required,
  string,
  name,
  template,
  duration,
  names,
  object,
  matchValue,
  matchers,
  oncallRef,
  activeHours,
} from './shape-parts'

/**
 * The keys of a rule on kinds (the templates its lines are mined into, alerts/kinds): `kind: new` or
 * `regressed` and their options, or `spike`, or `ratio`. The YAML's only: a kind needs the agent's
 * kind table (learning, kept across restarts, shared by a fleet), which a transport target has not.
 */
const kindRuleFields = {
  kind: field(
    { kind: 'enum', values: ['new', 'regressed'] },
    'a rule on error kinds: new pages a kind the first time it is seen (not while a first start learns, ' +
      'kinds.learn); regressed pages a kind back after its incident resolved, after quiet or after a deploy',
  ),
  min_count: field({ kind: 'integer', min: 1 }, 'kind: new: page a new kind only once seen this often', {
    default: 1,
  }),
  within: field(duration, 'kind: new: the time min_count lines must fall within; default: since first seen'),
  quiet: field(duration, 'kind: regressed: a kind back after this long without a line of it pages', {
    default: '7d',
  }),
  deploys: field(
    object({
      source: field(names('source names'), 'sources whose lines mark deploys; default: every source'),
      match: required(matchers, 'dot path -> value (or "/pattern/flags") of a line that marks a deploy'),
    }),
    'kind: regressed: lines that mark a deploy; a kind whose incident resolved pages when back after the next ' +
      'deploy of its source (lines before it are the old version draining)',
  ),
  spike: field(
    object({
      factor: required(
        { kind: 'number', above: 1 },
        'how many times the baseline rate is a spike: a number above 1 (1.5 is half as many lines again)',
      ),
      baseline: required(duration, 'the time before the window whose rate is the baseline; longer than the window'),
      window: field(duration, 'the time whose lines are compared with the baseline; longer than 0', {
        default: '1m',
      }),
      min: field({ kind: 'integer', min: 1 }, 'fewest lines in the window that can be a spike', { default: 1 }),
    }),
    "a kind's rate (with group_by, a group's) against its own baseline: pages at factor times its rate",
  ),
  ratio: field(
    object({
      above: required(string(), 'a percentage ("5%"): pages when the matching share is above it'),
      within: required(duration, 'the time the share is taken over'),
      min_lines: field({ kind: 'integer', min: 1 }, 'fewest lines of the source in the window to say', {
        default: 100,
      }),
    }),
    "the share of the source's lines that this rule selects (the reader counts every line), per source",
  ),
}

/**
 * A rule's keys. The YAML's rules acknowledge (`ack_timeout`), reach people (an escalation step's
 * `people`, `oncall` and `active_hours`) and watch for silence (`absent`); a transport target's do
 * none of it (nothing acknowledges its incidents, it has no people or schedules, and nothing ticks
 * it when no line arrives), so its rules are refused those keys rather than taking them to no effect.
 */
export const ruleFields = (yaml: boolean): ObjectShape =>
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
            'an acknowledged incident still firing this long after its ack goes back to unacknowledged, and ' +
              'escalation resumes; default: never',
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
                  'schedule (or schedule/layer) whose person on call this step reaches on its channels, instead ' +
                    "of the channels' recipients",
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
            'an absence rule: an incident opens when no line it selects arrived for `for`, per group key, and ' +
              'resolves when lines return',
          ),
          ...kindRuleFields,
        }
      : {}),
  })
export const ruleShape: ObjectShape = ruleFields(true)
/**
 * A transport target's rule: the YAML's without `ack_timeout`, `absent`, and the escalation steps'
 * `people`, `oncall` and `active_hours`.
 */
export const targetRuleShape: ObjectShape = ruleFields(false)

export const time: Shape = {
  kind: 'either',
  label: 'an ISO date or epoch milliseconds',
  // A number is epoch ms (the integer is tried first: a string shape would take a number as text).
  options: [{ kind: 'integer', min: 0 }, string({ check: checkDate, json: { format: 'date-time' } })],
}

/** A silence's matcher value: a field matcher's, without control characters (values/silence-matcher.ts). */
const silenceMatchValue: Shape = { kind: 'scalar', check: checkSilenceMatchValue, code: ConfigErrorCodes.REGEX }

export const silenceShape: ObjectShape = object({
  id: field(string(), 'names the silence (to remove it at run time); default: silence-<n>'),
  matchers: required(
    { kind: 'map', keyCheck: checkDotPath, values: silenceMatchValue, minEntries: 1 },
    "on rule, fingerprint, title or the line's fields by dot path; all must match",
  ),
  starts_at: field(time, 'ISO date (or epoch milliseconds); default: when the config loads'),
  ends_at: required(time, 'ISO date (or epoch milliseconds) the silence expires at'),
  comment: field(string(), 'why, and who'),
})

export const rulesField = (rule: ObjectShape): Field =>
  field(
    { kind: 'list', items: rule },
    'alert rules, tried in order; the first that selects a line owns it. Default: one rule for error and fatal ' +
      'lines to every channel',
  )
export const silencesField = field({ kind: 'list', items: silenceShape }, 'silences (maintenance windows)', {
  default: [],
})

/** A transport target's `rules` and `silences` options: the YAML's keys (less the two above). */
export const alertOptionsShape: ObjectShape = object({ rules: rulesField(targetRuleShape), silences: silencesField })

export const incidentMatchers: Shape = { kind: 'map', keyCheck: checkDotPath, values: matchValue, minEntries: 1 }

export const inhibitShape = object({
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
