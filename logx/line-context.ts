// Bindings that change from line to line (the asyncContext store, the active OpenTelemetry span),
// composed into one function the write path calls after the logger's own bindings. A logger with
// neither option has none, and its write path only checks for that.
import { createAsyncContextBindings, type AsyncContextOptions } from './async-context'
import { createOtelBindings, otelContextRegistered, type OtelOptions } from './otel'
import { reportLogFailure } from './failures'

import type { LineContext } from './logger-state'

export type { LineContext }

export function createLineContext(
  asyncContext: AsyncContextOptions | undefined,
  otel: boolean | OtelOptions | undefined,
): LineContext | undefined {
  const fromStore = asyncContext === undefined ? undefined : createAsyncContextBindings(asyncContext)
  const fromSpan =
    otel === false
      ? undefined
      : otel === undefined
        ? otelContextRegistered()
          ? createOtelBindings(true, true)
          : undefined
        : createOtelBindings(otel)
  if (fromStore === undefined && fromSpan === undefined) return undefined
  return (logger) => {
    try {
      return (fromSpan === undefined ? '' : fromSpan()) + (fromStore === undefined ? '' : fromStore(logger))
    } catch (err) {
      // A store selector or serializer that throws costs the context, not the line.
      reportLogFailure(err)
      return ''
    }
  }
}
