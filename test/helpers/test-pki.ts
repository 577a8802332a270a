// A throwaway PKI for TLS tests, made with openssl at test time: a CA, a server certificate for
// localhost and 127.0.0.1, and a client certificate the CA signed (for client-certificate checks).
// Suites that use it skip loudly when `openssl` is missing (Debian's openssl package ships it).
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const hasOpenssl = spawnSync('openssl', ['version']).status === 0

export interface Pki {
  /** The PEM files' paths, for configs. */
  files: { ca: string; serverCert: string; serverKey: string; clientCert: string; clientKey: string }
  caCert: string
  serverCert: string
  serverKey: string
  clientCert: string
  clientKey: string
}

export function makePki(dir: string): Pki {
  const openssl = (...args: string[]): void => {
    const result = spawnSync('openssl', args, { cwd: dir })
    if (result.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${result.stderr.toString()}`)
  }
  const ca = ['-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=logx test CA']
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', ...ca)
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n')
  for (const name of ['server', 'client']) {
    const subject = name === 'server' ? '/CN=localhost' : '/CN=sender'
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject)
    const extensions = name === 'server' ? ['-extfile', 'server.ext'] : []
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.pem`,
      '-days',
      '1',
      ...extensions,
    )
  }
  const path = (name: string): string => join(dir, name)
  const read = (name: string): string => readFileSync(path(name), 'utf8')
  return {
    files: {
      ca: path('ca.pem'),
      serverCert: path('server.pem'),
      serverKey: path('server.key'),
      clientCert: path('client.pem'),
      clientKey: path('client.key'),
    },
    caCert: read('ca.pem'),
    serverCert: read('server.pem'),
    serverKey: read('server.key'),
    clientCert: read('client.pem'),
    clientKey: read('client.key'),
  }
}
