// A monotonic clock in milliseconds that does not load node:perf_hooks. The global `performance` is
// a lazy getter that compiles nine built-in modules (0.25 MB of peak RSS) on its first use, for the
// one `now()` the agent reads; process.uptime() reads the same clock (libuv's hrtime) in seconds.
export function monotonicMs(): number {
  return process.uptime() * 1000
}
