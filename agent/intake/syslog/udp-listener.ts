// Syslog over UDP (RFC 5426): one message per datagram. UDP cannot wait: a datagram that comes while
// the batcher is full is dropped and counted (503), so UDP is at-most-once; a sender that must not
// lose lines uses TCP.
import { createSocket, type Socket } from 'node:dgram'
import { isIP } from 'node:net'
import { IntakeError, IntakeErrorCodes } from '../errors'
import type { IntakeCounters, IntakeLog } from '../types'
import type { SyslogBatcher } from './batcher'
import { mayPage } from './frame-filter'

export interface UdpListenerOptions {
  source: string
  host: string
  port: number
  maxLineBytes: number
  batcher: SyslogBatcher
  log: IntakeLog
  metrics: IntakeCounters
}

export interface UdpListener {
  readonly port: number
  close(): Promise<void>
}

export async function listenUdp(options: UdpListenerOptions): Promise<UdpListener> {
  const { batcher, source, metrics } = options
  const socket = createSocket({ type: isIP(options.host) === 6 ? 'udp6' : 'udp4' })
  let dropped = 0
  socket.on('message', (datagram: Buffer) => {
    if (batcher.full) {
      dropped++
      metrics.refused(503)
      if (dropped === 1 || dropped % 10_000 === 0) {
        options.log.warn({ source, dropped }, 'syslog UDP datagrams dropped: the alert path is full')
      }
      return
    }
    const bytes = datagram.length > options.maxLineBytes ? datagram.subarray(0, options.maxLineBytes) : datagram
    if (mayPage(bytes, 0, bytes.length, batcher.lowestLevel())) batcher.add([bytes.toString('utf8')])
    else batcher.passed(1)
  })
  const port = await bind(socket, options)
  socket.on('error', (error) => options.log.warn({ source, err: error.message }, 'syslog UDP socket error'))
  return { port, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) }
}

function bind(socket: Socket, options: UdpListenerOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    socket.once('error', (error) => {
      const where = `udp://${options.host}:${options.port}`
      reject(new IntakeError(IntakeErrorCodes.LISTEN, `syslog cannot listen on ${where}: ${error.message}`))
    })
    socket.bind(options.port, options.host, () => resolve(socket.address().port))
  })
}
