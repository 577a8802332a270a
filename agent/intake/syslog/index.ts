// The syslog intake (`type: syslog`): RFC 5424 and RFC 3164 over TCP (newline or octet-counting
// framing, TLS with `tls`) and UDP, on one port. Its events go through the one alert path like a
// tailed file's lines.
import type { StreamIntakeContext, StreamIntakeFactory, RunningStreamIntake } from '../types'
import { SyslogBatcher } from './batcher'
import { listenTcp, type TcpListener } from './tcp-listener'
import { syslogEvent } from './syslog-event'
import { listenUdp, type UdpListener } from './udp-listener'

export { parseSyslog, syslogEvent } from './syslog-event'
export type { SyslogMessage } from './message'

/** Frames queued for the alert path past which TCP pauses and UDP drops. */
export const SYSLOG_MAX_QUEUED = 20_000

const DEFAULT_SYSLOG = { tcp: true, udp: true, maxLineBytes: 64 * 1024 }

export const createSyslogIntake: StreamIntakeFactory = async (context: StreamIntakeContext) => {
  const { source, sink, log, metrics } = context
  const settings = source.intake.syslog ?? DEFAULT_SYSLOG
  const { host, port } = source.intake.listen
  const toEvent = (frame: string) => syslogEvent(frame, source.name)
  const batcher = new SyslogBatcher({ source: source.name, sink, log, metrics, maxQueued: SYSLOG_MAX_QUEUED, toEvent })
  const common = { source: source.name, host, maxLineBytes: settings.maxLineBytes, batcher, log, metrics }
  let tcp: TcpListener | undefined
  let udp: UdpListener | undefined
  try {
    if (settings.tcp) tcp = await listenTcp({ ...common, port, tls: source.intake.tls })
    // Both on one port: UDP takes the port TCP was given when the config asked for any (port 0).
    if (settings.udp) udp = await listenUdp({ ...common, port: tcp?.port ?? port })
  } catch (error) {
    await tcp?.close()
    throw error
  }
  return runningIntake(host, tcp, udp, source.intake.tls !== undefined, batcher)
}

function runningIntake(
  host: string,
  tcp: TcpListener | undefined,
  udp: UdpListener | undefined,
  tls: boolean,
  batcher: SyslogBatcher,
): RunningStreamIntake {
  const hostText = host.includes(':') ? `[${host}]` : host
  const urls: string[] = []
  if (tcp !== undefined) urls.push(`${tls ? 'tls' : 'tcp'}://${hostText}:${tcp.port}`)
  if (udp !== undefined) urls.push(`udp://${hostText}:${udp.port}`)
  return {
    urls,
    async close() {
      await Promise.all([tcp?.close(), udp?.close()])
      await batcher.close()
    },
  }
}
