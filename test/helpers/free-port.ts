// A TCP port on 127.0.0.1 that was free a moment ago, for a server a test starts and must name first
// (a config's `listen:`, a redis-server's --port). Another process may take it in between: a caller
// that can, tries again with another.
import { createServer } from 'node:net'

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}
