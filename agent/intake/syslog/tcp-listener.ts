// Syslog over TCP, or TLS (RFC 5425) when the source has `tls`: one framer per connection, frames
// parsed into events and queued in the source's batcher. While the batcher is full the socket is
// paused: the sender's writes wait in the kernel's buffers and then in its own (TCP's flow control is
// the backpressure). TCP has no acknowledgement of its own in syslog: "accepted" means read.
import { createServer as createPlainServer, type Server, type Socket } from 'node:net'
import { createServer as createTlsServer } from 'node:tls'
import type { IntakeTlsConfig } from '../../config/types'
import { IntakeError, IntakeErrorCodes } from '../errors'
import type { IntakeCounters, IntakeLog } from '../types'
import type { SyslogBatcher } from './batcher'
import { mayPage } from './frame-filter'
import { SyslogFramer } from './framing'

export interface TcpListenerOptions {
  source: string
  host: string
  port: number
  tls: IntakeTlsConfig | undefined
  maxLineBytes: number
  batcher: SyslogBatcher
  log: IntakeLog
  metrics: IntakeCounters
}

export interface TcpListener {
  readonly port: number
  close(): Promise<void>
}

export async function listenTcp(options: TcpListenerOptions): Promise<TcpListener> {
  const sockets = new Set<Socket>()
  const onConnection = (socket: Socket): void => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
    readConnection(socket, options)
  }
  const server = options.tls === undefined ? createPlainServer(onConnection) : tlsServer(options.tls, onConnection)
  if (options.tls !== undefined) {
    server.on('tlsClientError', (error: Error) => {
      options.metrics.refused(401)
      options.log.warn({ source: options.source, err: error.message }, 'syslog TLS handshake refused')
    })
  }
  const port = await listen(server, options)
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
      }),
  }
}

function tlsServer(tls: IntakeTlsConfig, onConnection: (socket: Socket) => void): Server {
  const mutual = tls.clientCa !== undefined
  return createTlsServer(
    { cert: tls.cert, key: tls.key.reveal(), ca: tls.clientCa, requestCert: mutual, rejectUnauthorized: mutual },
    onConnection,
  )
}

function listen(server: Server, options: TcpListenerOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error) => {
      const where = `tcp://${options.host}:${options.port}`
      reject(new IntakeError(IntakeErrorCodes.LISTEN, `syslog cannot listen on ${where}: ${error.message}`))
    })
    server.listen(options.port, options.host, () => {
      const address = server.address()
      resolve(typeof address === 'object' && address !== null ? address.port : options.port)
    })
  })
}

/** One connection: frames -> events -> the batcher, paused while the batcher is full. */
function readConnection(socket: Socket, options: TcpListenerOptions): void {
  const { batcher, source, log, metrics } = options
  // Read once a chunk: a reload that changes the rules applies from the next read on.
  let lowest = batcher.lowestLevel()
  const framer = new SyslogFramer(options.maxLineBytes, (bytes, start, end) => mayPage(bytes, start, end, lowest))
  let cut = 0
  const take = (frames: readonly Buffer[]): void => {
    const texts = new Array<string>(frames.length)
    for (let i = 0; i < frames.length; i++) texts[i] = (frames[i] as Buffer).toString('utf8')
    batcher.add(texts)
  }
  socket.on('data', (chunk: Buffer) => {
    lowest = batcher.lowestLevel()
    const out = framer.push(chunk)
    cut += out.cut
    batcher.passed(out.dropped)
    take(out.frames)
    if (framer.mode === 'broken') {
      metrics.refused(400)
      log.warn({ source, remote: socket.remoteAddress }, 'syslog octet-counting frame length unreadable: closed')
      socket.destroy()
      return
    }
    if (batcher.full) {
      socket.pause()
      batcher.whenRoom(() => socket.resume())
    }
  })
  socket.on('end', () => {
    const out = framer.finish()
    cut += out.cut
    batcher.passed(out.dropped)
    take(out.frames)
    socket.end()
  })
  socket.on('error', (error) => log.warn({ source, err: error.message }, 'syslog connection error'))
  socket.once('close', () => {
    if (cut > 0) log.warn({ source, cut, max_line_bytes: options.maxLineBytes }, 'syslog messages cut to the limit')
  })
}
