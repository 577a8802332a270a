// A log call never throws. What goes wrong inside one (a getter, serializer, redactor, hook or
// destination that throws) is reported once per process as a warning, so it is seen without
// flooding the app's own output.

let warned = false

export function reportLogFailure(err: unknown): void {
  if (warned) return
  warned = true
  let message: string
  try {
    message = err instanceof Error ? err.message : String(err)
  } catch {
    message = 'unknown error'
  }
  process.emitWarning(
    `logx: a log call could not be completed as asked (${message}); ` +
      'the line was written with what could be serialized. Further failures are not reported.',
    {
      code: 'LOGX_LOG_CALL_FAILED',
    },
  )
}
