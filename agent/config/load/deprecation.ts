// Deprecation warnings: through process.emitWarning (so `--no-deprecation` silences them and
// `--trace-deprecation` shows where), each text once per process however often its options are read.

const emitted = new Set<string>()

export function emitDeprecation(code: string, message: string): void {
  if (emitted.has(message)) return
  emitted.add(message)
  process.emitWarning(message, { type: 'DeprecationWarning', code })
}
