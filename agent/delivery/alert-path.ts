// THE alert path: alert lines -> engine (with the incident state that outlives the process) ->
// one journaled outbox batch per engine step -> one sender per channel -> incident recorder. The
// daemon and every in-app target build it here, with the same promises after a crash: what the
// outbox holds is sent at the next start, an incident that paged is not paged again, one waiting
// out group_wait still fires. Only where the state lives differs (files, or memory for a target
// that keeps none). What people do to incidents sits a floor above: agent/acknowledge/with-actions.ts
// adds the actions to this path, on its state and silences.
import { createAlertEngine } from '../../alerts'
import { createIncidentState, type IncidentState } from '../incidents/incident-state'
import { IncidentStateError } from '../incidents/errors'
import { takeRecordsLost } from '../storage/corrupt-state'
import { createIncidentTimeline, type IncidentTimeline } from '../incidents/incident-timeline'
import { createRuntimeSilences, type RuntimeSilences } from '../incidents/runtime-silences'
import { createMessagingClient, type MessagingClient } from '../messaging'
import { createOutbox, type Outbox, type OutboxConsumer, type OutboxOptions } from '../outbox'
import { createAlertPipeline } from './alert-pipeline'
import { engineOptionsOfSetup } from './alert-setup'
import { createDispatcher, outboxReports } from './dispatcher'
import { DeliveryError, DeliveryErrorCodes } from './errors'
import type { FleetHooks } from './fleet/types'
import { acquireRecorder, type CrmTarget, type IncidentRecorder } from './record/incident-recorder'
import type { AlertPipeline, AlertSetup, DeliveryLog, Dispatcher } from './types'

export interface AlertPathOptions {
  setup: AlertSetup
  /** The incident state file (`incidents.json`); undefined: memory. */
  statePath: string | undefined
  /**
   * The incidents' history (`timeline.jsonl`) and the silences made at run time (`silences.json`);
   * undefined: memory.
   */
  timelinePath?: string | undefined
  silencesPath?: string | undefined
  /** The outbox: its journal file (undefined: memory), window, age limit, attempts and backoff. */
  outbox: Omit<OutboxOptions, keyof OutboxConsumer | 'onDead' | 'onError'>
  /** The messaging API; undefined when only incidents are recorded (logx-incident). */
  api: { baseUrl: string; apiKey: string } | undefined
  /** Records incidents as leads with activities. */
  crm: CrmTarget | undefined
  /** Per HTTP attempt. */
  timeoutMs?: number | undefined
  service?: string | undefined
  log: DeliveryLog
  now: number
  /** A fleet's shared state (agent/cluster): claims before sending, counts, what people do. */
  fleet?: FleetHooks | undefined
}

export interface DeliveryPath {
  readonly pipeline: AlertPipeline
  readonly dispatcher: Dispatcher
  readonly timeline: IncidentTimeline
  /** The incident state and the run-time silences, for the actions built on this path. */
  readonly state: IncidentState
  readonly silences: RuntimeSilences
  close(): Promise<void>
}

function failure(code: DeliveryError['code'], what: string, err: unknown): DeliveryError {
  return new DeliveryError(code, `cannot use ${what}: ${(err as Error).message}`, { cause: err })
}

interface IncidentFiles {
  state: IncidentState
  timeline: IncidentTimeline
  silences: RuntimeSilences
}

function openIncidentFiles(options: AlertPathOptions): IncidentFiles {
  try {
    return {
      state: createIncidentState(options.statePath),
      timeline: createIncidentTimeline(options.timelinePath),
      silences: createRuntimeSilences(options.silencesPath),
    }
  } catch (err) {
    // The incident files' own error keeps its code and message: a caller sees one DeliveryError.
    if (err instanceof IncidentStateError) throw new DeliveryError(err.code, err.message, { cause: err })
    throw err instanceof DeliveryError
      ? err
      : failure(DeliveryErrorCodes.STATE, options.statePath ?? 'the incident state', err)
  }
}

function openRecorder(options: AlertPathOptions): IncidentRecorder | undefined {
  if (options.crm === undefined) return undefined
  try {
    return acquireRecorder(options.crm, { timeoutMs: options.timeoutMs })
  } catch (err) {
    throw failure(DeliveryErrorCodes.LEADS, options.crm.stateDir ?? 'the lead map', err)
  }
}

/** The dispatcher with the outbox and the client it is handed; the recorder is released on failure. */
function openDispatcher(options: AlertPathOptions, recorder: IncidentRecorder | undefined): Dispatcher {
  let outbox: Outbox | undefined
  let client: MessagingClient | undefined
  try {
    outbox = createOutbox({ ...options.outbox, ...outboxReports(options.log) })
    const { api, timeoutMs } = options
    client =
      api === undefined
        ? undefined
        : createMessagingClient({ ...api, ...(timeoutMs === undefined ? {} : { timeoutMs }) })
    return createDispatcher({
      outbox,
      client,
      recorder,
      channels: options.setup.channels,
      service: options.service,
      log: options.log,
      fleet: options.fleet?.gate,
    })
  } catch (err) {
    void outbox?.close()
    void client?.close().catch(() => {})
    void recorder?.release()
    throw failure(DeliveryErrorCodes.OUTBOX, options.outbox.path ?? 'the outbox', err)
  }
}

export function createDeliveryPath(options: AlertPathOptions): DeliveryPath {
  // The outbox starts sending what a previous run left as soon as the dispatcher takes it: a setup
  // the engine refuses is refused before that, not after a page already went out behind the error.
  const engine = createAlertEngine(engineOptionsOfSetup(options.setup, options.now))
  const { state, timeline, silences } = openIncidentFiles(options)
  const dispatcher = openDispatcher(options, openRecorder(options))
  // A crash between journaling a page and recording it in the incident state: the page is in the
  // outbox (it will go out), so the incident has paged. Recorded before any line is read again,
  // so the lines behind it do not page it a second time.
  for (const page of dispatcher.queuedPages()) {
    if (state.paged(page.key) === undefined) state.notified(page.key, page.rule, page.at)
  }
  // A damaged outbox may have lost recorded pages unsent: they fire again (incidents/page-reconcile.ts).
  const lost = options.outbox.path !== undefined && takeRecordsLost(options.outbox.path)
  const queued = new Set(dispatcher.queuedPages().map((page) => page.key))
  const repaged = state.repageUnsent(queued, lost, options.now)
  if (repaged.length > 0) options.log.warn({ incidents: repaged }, 'the outbox was damaged: recorded pages sent again')
  let pipeline: AlertPipeline
  try {
    pipeline = createAlertPipeline({
      setup: options.setup,
      state,
      dispatcher,
      log: options.log,
      now: options.now,
      engine,
      runtimeSilences: (now) => silences.configs(now),
      onDeliveries: (deliveries, now) => {
        timeline.notices(deliveries)
        options.fleet?.decided(deliveries, now)
      },
      ...(options.fleet === undefined ? {} : { onSelected: options.fleet.selected }),
    })
  } catch (err) {
    // Replaying the incidents that waited out group_wait failed: the open outbox is closed (what it
    // had in flight ends and is journaled; a resend carries its key).
    void dispatcher.close().catch(() => {})
    throw err
  }
  return { pipeline, dispatcher, timeline, state, silences, close: () => dispatcher.close() }
}
