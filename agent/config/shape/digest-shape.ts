// The `digest:` section's keys (part of agent-shape.ts's structure): a summary of the error kinds and
// incidents of each period, sent on a wall-clock schedule to some channels (agent/daemon/digest.ts).
// What takes more than one key to judge (`every` against a day, the channels' types) is
// normalize/digest.ts's.
import type { ObjectShape } from './shape'
import { clock, duration, field, names, object, required, timeZone } from './shape-parts'

export const DEFAULT_DIGEST_EVERY = '1d'
export const DEFAULT_DIGEST_AT = '09:00'
export const DEFAULT_DIGEST_ZONE = 'UTC'

export const digestShape: ObjectShape = object({
  every: field(
    duration,
    'how often a digest goes out: a whole number of days (1d, 7d), or hours that divide a day (1h, 6h, 12h)',
    { default: DEFAULT_DIGEST_EVERY },
  ),
  at: field(clock, 'local time of day a digest goes out, "HH:MM" (with every under a day: the first of the day)', {
    default: DEFAULT_DIGEST_AT,
  }),
  time_zone: field(timeZone, 'IANA time zone of at (and of the times the digest shows)', {
    default: DEFAULT_DIGEST_ZONE,
  }),
  notify: required(
    names('channel names'),
    'the channels a digest goes to, one message each: a mail channel gets the whole digest, an sms or chat ' +
      'channel a short one',
  ),
})
