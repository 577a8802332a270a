// Where notifications go: the real API of the config, or the embedded sandbox started here (the
// default), which also provides the lead and activity webhooks and a web inbox.
import type { CrmConfig, MessagingConfig } from '../config/types'
import type { Sandbox, StoreStats } from '../sandbox/types'

export interface CrmEndpoint {
  leadWebhook: string
  activityWebhook: string
  activityToken: string
}

export interface MessagingEndpoint {
  mode: 'sandbox' | 'remote'
  baseUrl: string
  apiKey: string
  crm: CrmEndpoint | undefined
  /** The sandbox's web inbox, when the sandbox is embedded. */
  inboxUrl: string | undefined
  /** Values that must never reach a log line, a message or a note. */
  secrets: string[]
  /** The embedded sandbox's store (its size, its byte cap's drops), for /metrics. */
  sandboxStats: (() => StoreStats) | undefined
  close(): Promise<void>
}

function remoteCrm(crm: CrmConfig | undefined): CrmEndpoint | undefined {
  if (crm === undefined) return undefined
  return {
    leadWebhook: crm.leadWebhook,
    activityWebhook: crm.activityWebhook,
    activityToken: crm.activityToken.reveal(),
  }
}

export async function startMessagingEndpoint(config: MessagingConfig): Promise<MessagingEndpoint> {
  if (config.mode === 'remote') {
    const crm = remoteCrm(config.crm)
    const apiKey = config.apiKey.reveal()
    return {
      mode: 'remote',
      baseUrl: config.baseUrl,
      apiKey,
      crm,
      inboxUrl: undefined,
      sandboxStats: undefined,
      secrets: [apiKey, ...(crm === undefined ? [] : [crm.activityToken, crm.leadWebhook])],
      close: async () => {},
    }
  }
  // Loaded only when embedded: an agent talking to a real API never pays for the sandbox's modules.
  const { startSandbox } = await import('../sandbox/server.js')
  const sandbox: Sandbox = await startSandbox({
    host: config.listen.host,
    port: config.listen.port,
    allowRemote: config.allowRemote,
    ...(config.apiKey !== undefined ? { apiKey: config.apiKey.reveal() } : {}),
    ...(config.activityToken !== undefined ? { activityToken: config.activityToken.reveal() } : {}),
  })
  const { info } = sandbox
  return {
    mode: 'sandbox',
    baseUrl: info.baseUrl,
    apiKey: sandbox.apiKey,
    crm: {
      leadWebhook: info.leadWebhookUrl,
      activityWebhook: info.activityWebhookUrl,
      activityToken: sandbox.activityToken,
    },
    inboxUrl: info.inboxUrl,
    // The sandbox's built-in key and token are public defaults; keys given in the config are secrets.
    secrets: [config.apiKey?.reveal(), config.activityToken?.reveal()].filter((s): s is string => s !== undefined),
    sandboxStats: () => sandbox.store.stats(),
    close: () => sandbox.close(),
  }
}
