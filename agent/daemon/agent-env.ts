// What the agent reads from its environment rather than its config: test and tuning knobs.

/**
 * A knob from the environment, a number of at least 1 or undefined: the outbox's in-memory window
 * (`LOGX_AGENT_OUTBOX_MEMORY_ITEMS`, default 1000), the age at which a notification stops being
 * retried (`LOGX_AGENT_OUTBOX_MAX_AGE_MS`, default 6 h), and the messaging client's per-attempt
 * timeout (`LOGX_AGENT_MESSAGING_TIMEOUT_MS`, default 10 s).
 */
export function envNumber(name: string): number | undefined {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value >= 1 ? value : undefined
}

/**
 * The agent's clock: the system's, moved by `LOGX_AGENT_CLOCK_SKEW_MS` (tests only, environment not
 * config: a schedule's handoff or a night can then be minutes away instead of hours).
 */
export function clockOf(skew: string | undefined): () => number {
  const ms = Number(skew)
  return skew === undefined || !Number.isFinite(ms) || ms === 0 ? Date.now : () => Date.now() + ms
}
