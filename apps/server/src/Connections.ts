import type { Server } from "node:http"

/** The HTTP server's bounds on slow or numerous clients (`HTTP_*_TIMEOUT_MS`, `MAX_CONNECTIONS_PER_ADDRESS`). */
export interface ConnectionLimits {
  /** A request's line and headers must arrive within this (Node's default is 60 s, checked every 30 s). */
  readonly headersTimeoutMs: number
  /** A whole request, body included, must arrive within this (Node's default is 300 s). */
  readonly requestTimeoutMs: number
  /** A connection on which nothing moves either way for this long is closed. */
  readonly idleTimeoutMs: number
  /** Open connections one TCP peer may hold; more are closed at once. 0: no cap. */
  readonly maxPerAddress: number
}

/** How often Node checks the header and request time-outs: the bounds hold to within this. */
export const checkEveryMs = 500

/** The options of `createServer` that carry {@link ConnectionLimits} (the request time-out never below the headers'). */
export const serverOptions = (limits: ConnectionLimits) => ({
  headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
  requestTimeout: limits.requestTimeoutMs,
  connectionsCheckingInterval: checkEveryMs
})

/**
 * Applies the idle time-out and the per-address cap to `server`: a
 * connection from a peer that already holds `maxPerAddress` open ones is
 * destroyed before a byte is read (the client sees the connection reset).
 * The peer is the TCP peer: behind a load balancer (`TRUST_PROXY=true`)
 * every connection comes from the balancer, so the cap is not applied there
 * and belongs to the balancer.
 */
export const limit = (server: Server, limits: ConnectionLimits, trustProxy: boolean): Server => {
  server.timeout = limits.idleTimeoutMs
  if (limits.maxPerAddress <= 0 || trustProxy) return server
  const open = new Map<string, number>()
  server.on("connection", (socket) => {
    const address = socket.remoteAddress ?? "unknown"
    const count = open.get(address) ?? 0
    if (count >= limits.maxPerAddress) return void socket.destroy()
    open.set(address, count + 1)
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1
      if (left <= 0) open.delete(address)
      else open.set(address, left)
    })
  })
  return server
}
