// The shape of a source: a file source's globs and formats, its multi-line events, journald's filters.
import { globProblem } from '../../tail/glob'
import { ConfigErrorCodes } from '../errors'
import { JOURNAL_PRIORITIES } from '../normalize/journald'
import { MULTILINE_PRESETS } from '../normalize/multiline'
import type { ObjectShape, Shape } from './shape'
import { checkPattern } from '../values/value-checks'
import { field, required, string, name, duration, object, withOneOf } from './shape-parts'
import { INTAKE_TYPES, intakeFields } from './intake-shape'

// A multi-line event rule: a preset, or a start or continuation pattern; exactly one of the three
// (normalize-multiline.ts reports two given together).
export const multilinePreset: Shape = { kind: 'enum', values: MULTILINE_PRESETS }
export const linePattern = string({ check: checkPattern, code: ConfigErrorCodes.REGEX })
export const multiline: Shape = {
  kind: 'either',
  options: [
    multilinePreset,
    withOneOf(
      ['preset', 'start', 'continue'],
      object({
        preset: field(
          multilinePreset,
          'java, python, go or node: which lines continue an event (frames, `Caused by:`, `Traceback`, ' +
            '`goroutine N [running]:` ...)',
        ),
        start: field(
          linePattern,
          'regular expression ("/pattern/flags" or bare) a line that starts an event matches; every other line ' +
            'continues the one before',
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

const checkDirectory = (value: string): string | undefined =>
  value === '' || value.includes('\0') ? 'expected a directory path' : undefined

export const sourceShape: ObjectShape = object({
  name: required(name, 'unique source name; rules refer to it'),
  type: field(
    { kind: 'enum', values: ['file', 'journald', ...INTAKE_TYPES] },
    'file tails `paths`; journald reads the systemd journal through journalctl (`units`, `priority`, ' +
      '`journal_files`); alertmanager, grafana, syslog, otlp and http listen on `listen` (docs/intake.md)',
    { default: 'file' },
  ),
  paths: field(
    { kind: 'list', items: string(), minItems: 1, single: true },
    'file globs (relative to the working directory); files that appear later are picked up. Required for a file ' +
      'source; a journald source has none',
  ),
  exclude: field(
    { kind: 'list', items: string({ check: globProblem }), single: true },
    "file globs never tailed (rotated `*.gz`, `*.1`, other apps' files): without '/' matched against the file " +
      "name, with '/' against the path (relative to the working directory)",
  ),
  follow_symlinks: field(
    {
      kind: 'either',
      label: 'inside, outside, never, or a list of directories',
      options: [
        { kind: 'enum', values: ['inside', 'outside', 'never'] },
        { kind: 'list', items: string({ check: checkDirectory }), minItems: 1 },
      ],
    },
    "which symlinks among the files `paths` match are read: inside (those whose target is inside the glob's " +
      'base directory, the part before its first wildcard), never, outside (any target), or a list of directories ' +
      'a target may be in besides the base (relative to the working directory). Default inside; with format ' +
      'docker [/var/log/pods, /var/lib/docker/containers], with format cri [/var/log/pods]. A link refused is ' +
      'not read, warned about once and counted',
  ),
  format: field(
    { kind: 'enum', values: ['json', 'text', 'auto', 'docker', 'cri'] },
    'line format; auto parses lines that look like JSON and treats the rest as text; docker (json-file) and cri ' +
      'are container logs, whose lines are unwrapped (split lines joined) and then read as auto',
    { default: 'auto' },
  ),
  multiline: field(
    multiline,
    'lines that continue an event (a stack trace under its log line) join it: one alert line, its level from the ' +
      'first line; a preset name (java, python, go, node) or an object',
  ),
  start_at: field(
    { kind: 'enum', values: ['end', 'beginning'] },
    'where reading starts in a file found at startup without a checkpoint (journald: in the journal, without a ' +
      'saved cursor)',
    { default: 'end' },
  ),
  max_line_bytes: field(
    { kind: 'integer', min: 1 },
    'longer lines are cut to this (and counted); a syslog source cuts longer messages to it (default 65536 there, ' +
      'at least 64)',
    { default: 262_144 },
  ),
  sync_reads: field(
    { kind: 'boolean' },
    "read on the agent's own thread (fastest from the page cache); false reads on the thread pool, so a stalled " +
      'network filesystem stalls only this source',
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
    'journald: journal file globs (relative to the working directory) read instead of the system journal ' +
      '(journalctl --file), e.g. what systemd-journal-remote writes',
  ),
  ...intakeFields,
})
