// Connection settings and secrets come from options or, failing that, the environment, so an app
// can attach an alert transport without putting credentials in code. Options win.

export const ENV = {
  messagingUrl: 'LOGX_MESSAGING_URL',
  apiKey: 'LOGX_API_KEY',
  leadWebhook: 'LOGX_LEAD_WEBHOOK',
  activityWebhook: 'LOGX_ACTIVITY_WEBHOOK',
  activityToken: 'LOGX_ACTIVITY_TOKEN',
} as const

export type EnvOption = keyof typeof ENV

export function fromEnv(option: EnvOption, written: unknown, env: NodeJS.ProcessEnv = process.env): unknown {
  if (written !== undefined) return written
  const value = env[ENV[option]]
  return value === undefined || value === '' ? undefined : value
}
