// What the console's test-page routes answer (issue #33): the progress of one test page, a test
// incident of its own rule, never a real one. A leaf: the daemon's runner fills it, the CLI reads it.

/**
 * One channel of a test page. queued: in the outbox, the API lists no record of it (yet, or it does
 * not show one); sent: the API lists it; delivered, failed: as the API's record says.
 */
export interface TestPageChannelView {
  channel: string
  type: string
  status: 'queued' | 'sent' | 'delivered' | 'failed'
  /** When the agent first saw the API list it, and saw it delivered (or failed). */
  sentAt: number | undefined
  deliveredAt: number | undefined
  /** The record's status as the API wrote it. */
  apiStatus: string | undefined
}

export interface TestPageView {
  id: string
  test: true
  /** The incident key (`logx-test-page:<id>`): its timeline and CRM lead carry it. */
  incident: string
  target: string
  /** The person paged; undefined when a channel was named. */
  person: string | undefined
  text: string
  startedAt: number
  /** When its messages were in the outbox. */
  queuedAt: number | undefined
  deadline: number
  /** Where the missed call goes; undefined: any number of the API. */
  ackNumber: string | undefined
  /** The embedded sandbox's inbox, whose "simulate missed call" button acknowledges it. */
  inboxUrl: string | undefined
  channels: TestPageChannelView[]
  acknowledged: { at: number; by: string; caller: string } | undefined
  state: 'starting' | 'waiting' | 'acknowledged' | 'timed_out' | 'failed'
  /** Why it failed (state `failed`). */
  error: string | undefined
}

export type TestPageStart = { ok: true; page: TestPageView } | { ok: false; status: 400 | 404 | 409; error: string }

/** The console backend's test pages; absent when the agent runs none (a backend of tests). */
export interface TestPageBackend {
  start(input: { target: string; timeoutMs: number }): TestPageStart
  get(id: string): TestPageView | undefined
}
