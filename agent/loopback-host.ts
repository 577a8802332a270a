// Which listen addresses are loopback, and which Host headers a server listening on loopback answers.
// The console, the sandbox and the metrics server all listen on 127.0.0.1 by default, and all three
// are reachable from a web page whose name was re-pointed at 127.0.0.1 (DNS rebinding): the browser
// then sends the page's own name in Host, which is the one thing that tells the request apart.
//
// 1. A listen address is loopback when it is localhost, 127.0.0.0/8 (also IPv4-mapped, ::ffff:127.x) or
//    ::1 (in any spelling of its zeros, also in brackets).
// 2. Listening on loopback, the Host header must name loopback (127.0.0.1, localhost or [::1]) with
//    the port the request came in on (80 when the header has none); anything else gets 403.

/** Rule 1: whether an address to listen on is loopback-only. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '')
  if (name === 'localhost') return true
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(name)
  if (v4 !== null) return v4[1] === '127' && v4.slice(1).every((part) => Number(part) <= 255)
  return name === '::1' || /^(?:0{1,4}:){7}0{0,3}1$/.test(name)
}

/** Rule 2: the Host header names loopback and the port the server answers on. */
export function hostHeaderAllowed(header: string | undefined, port: number): boolean {
  if (header === undefined) return false
  const match = /^(127\.0\.0\.1|localhost|\[::1\])(?::(\d{1,5}))?$/i.exec(header)
  if (match === null) return false
  return Number(match[2] ?? '80') === port
}
