// The normalized config of one JSON file source read from the beginning, synchronously: what the
// tests of a single source reader hand to startSourceReader without loading a whole agent config.
import type { SourceConfig } from '../../../agent/config/types'

export function jsonFileSource(name: string, file: string): SourceConfig {
  return {
    name,
    type: 'file',
    journald: undefined,
    paths: [file],
    exclude: [],
    followSymlinks: 'inside',
    format: 'json',
    multiline: undefined,
    startAt: 'beginning',
    maxLineBytes: 1024,
    syncReads: true,
  }
}
