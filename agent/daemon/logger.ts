// The agent's own log: JSON lines through logx on stdout (pm2 keeps them in its out log). Secrets
// never reach it: config values are `Secret` objects that print as [secret], and the keys below
// are censored wherever a caller puts them. LOGX_AGENT_LOG_LEVEL=debug shows every candidate line.
import logx from '../../logx'

export type AgentLogger = logx.Logger

const SECRET_PATHS = [
  'apiKey',
  'api_key',
  'activityToken',
  'activity_token',
  'leadWebhook',
  'lead_webhook',
  '*.apiKey',
  '*.api_key',
  '*.activityToken',
  '*.activity_token',
  '*.leadWebhook',
  '*.lead_webhook',
  'headers.apikey',
  'headers["x-o-token"]',
]

export function createAgentLogger(
  options: { level?: string; destination?: { write(line: string): unknown } } = {},
): AgentLogger {
  const settings: logx.LoggerOptions = {
    name: 'logx-agent',
    level: options.level ?? process.env.LOGX_AGENT_LOG_LEVEL ?? 'info',
    redact: { paths: SECRET_PATHS, censor: '[redacted]' },
  }
  return options.destination === undefined ? logx(settings) : logx(settings, options.destination)
}
