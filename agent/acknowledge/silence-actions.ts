// Silences made at run time, kept by the run-time silences file and applied to the engine through
// the pipeline (so a new engine, after a reload or a restart, gets them too).
import type { AlertPipeline, DeliveryLog } from '../delivery/types'
import type { RuntimeSilence, RuntimeSilences, SilenceRequest } from '../incidents/runtime-silences'

export interface SilenceActions {
  add(request: SilenceRequest, now: number): { ok: true; silence: RuntimeSilence } | { ok: false; error: string }
  expire(id: string, now: number): RuntimeSilence | undefined
  /** A silence another agent of the fleet made: kept and applied, not logged as ours. */
  put(silence: RuntimeSilence, now: number): void
  /** A silence another agent expired. */
  remove(id: string, now: number): void
}

export function createSilenceActions(
  pipeline: AlertPipeline,
  silences: RuntimeSilences,
  log: DeliveryLog,
): SilenceActions {
  /** The engine takes a silence in its config form, which the run-time silences make (none once over). */
  const configOf = (id: string, now: number) => silences.configs(now).find((s) => s.id === id)

  function unapply(id: string, now: number): void {
    pipeline.change(now, (engine) => ({ deliveries: [], result: engine.removeSilence(id) }))
  }

  return {
    add(request, now) {
      const added = silences.add(request, now)
      if (!added.ok) return added
      const { silence } = added
      pipeline.change(now, (engine) => {
        const config = configOf(silence.id, now)
        if (config !== undefined) engine.addSilence(config, now)
        return { deliveries: [], result: undefined }
      })
      const until = new Date(silence.endsAt).toISOString()
      log.info({ silence: silence.id, matchers: silence.matchers, until, by: silence.createdBy }, 'silence added')
      return added
    },
    expire(id, now) {
      const removed = silences.remove(id)
      if (removed === undefined) return undefined
      unapply(id, now)
      log.info({ silence: id }, 'silence expired by hand')
      return removed
    },
    put(silence, now) {
      silences.put(silence)
      const config = configOf(silence.id, now)
      if (config !== undefined)
        pipeline.change(now, (engine) => ({ deliveries: [], result: engine.addSilence(config, now) }))
    },
    remove(id, now) {
      if (silences.remove(id) !== undefined) unapply(id, now)
    },
  }
}
