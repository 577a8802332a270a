// A test page with no agent running: the alert path and the missed-call watcher started in this
// process from the config, as the daemon starts them (the embedded sandbox when no API is
// configured), in memory (the agent's state_dir files belong to the agent), then stopped cleanly.
import { hostname } from 'node:os'
import { createAlertPath } from '../../acknowledge/with-actions'
import type { AgentConfig } from '../../config/types'
import { setupOfConfig } from '../../delivery/alert-setup'
import type { DeliveryLog } from '../../delivery/types'
import { startMessagingEndpoint } from '../../daemon/messaging-endpoint'
import { createTestPages, type TestPages } from '../../daemon/test-pages'

export interface AloneRun {
  pages: TestPages
  inboxUrl: string | undefined
  /** Lets what was queued go out (a few seconds at most), then stops everything. */
  stop(): Promise<void>
}

/** The agent's log lines are not the drill's report: only warnings and errors reach stderr. */
function quietLog(stderr: { write(text: string): unknown }): DeliveryLog {
  const say = (_fields: Record<string, unknown>, message: string): void => void stderr.write(`logx-agent: ${message}\n`)
  return { info: () => {}, warn: say, error: say }
}

const DRAIN_MS = 5_000

export async function startAlone(config: AgentConfig, stderr: { write(text: string): unknown }): Promise<AloneRun> {
  const log = quietLog(stderr)
  const endpoint = await startMessagingEndpoint(config.messaging)
  let path: ReturnType<typeof createAlertPath>
  try {
    path = createAlertPath({
      setup: setupOfConfig(config, endpoint.secrets),
      statePath: undefined,
      outbox: { path: undefined },
      api: { baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey },
      crm: endpoint.crm,
      log,
      now: Date.now(),
    })
  } catch (err) {
    await endpoint.close()
    throw err
  }
  const api = { baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey }
  const pages = createTestPages({
    path,
    config: () => config,
    api,
    inboxUrl: endpoint.inboxUrl,
    host: hostname(),
    log,
    now: Date.now,
  })
  return {
    pages,
    inboxUrl: endpoint.inboxUrl,
    async stop() {
      await pages.close()
      await path.dispatcher.drain(DRAIN_MS).catch(() => undefined)
      await path.close().catch(() => undefined)
      await endpoint.close()
    },
  }
}
