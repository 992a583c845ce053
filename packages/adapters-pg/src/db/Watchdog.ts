import type { Duplex } from "node:stream"
import * as Net from "node:net"

/**
 * A connection to PostgreSQL that gives up on a server that stopped answering. PostgreSQL's own
 * `statement_timeout` cannot fire in a server that is frozen (SIGSTOP, a stalled disk, a paused VM) while the
 * kernel still acknowledges its TCP traffic, and TCP keep-alive sees nothing wrong: a request would wait as long
 * as the freeze. Here each write starts a clock that any byte of answer stops; `silenceMs` without one and the
 * socket is destroyed, so the statement fails with a connection error (503 SERVICE_UNAVAILABLE at the HTTP edge)
 * and the pool opens a fresh connection for the next one. An idle connection (nothing asked) is never timed, a
 * LISTEN connection neither. `silenceMs` must exceed the connection's `statement_timeout`: a slow statement is
 * cancelled by the server, which answers, before the clock runs out.
 */
class WatchedSocket extends Net.Socket {
  /** When the oldest write still without an answer went out (`performance.now()`), 0 when none waits. */
  #waitingSince = 0
  readonly #check: ReturnType<typeof setInterval>

  constructor(silenceMs: number) {
    super()
    // Any byte of answer: nothing waits any more. A listener beside the driver's, on the socket itself: no stream
    // in between, no timer set and cleared per statement (issue 22: a bet's statements pay nothing for the watch).
    this.on("data", () => {
      this.#waitingSince = 0
    })
    // Looked at a few times within `silenceMs`: a silence is seen at most a quarter of it (or a second) late.
    this.#check = setInterval(() => {
      if (this.#waitingSince !== 0 && performance.now() - this.#waitingSince >= silenceMs) {
        this.destroy(new Error(`the database did not answer within ${silenceMs} ms`))
      }
    }, Math.min(1_000, Math.max(10, silenceMs / 4))).unref()
    this.once("close", () => clearInterval(this.#check))
  }

  // The stream's writing hooks (`net.Socket` sets `write` itself on connecting, so that cannot be overridden).
  override _write(chunk: unknown, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#asked()
    super._write(chunk, encoding, callback)
  }

  override _writev(
    chunks: Array<{ chunk: unknown; encoding: BufferEncoding }>,
    callback: (error?: Error | null) => void
  ): void {
    this.#asked()
    if (super._writev === undefined) callback(new Error("this socket cannot write several chunks at once"))
    else super._writev(chunks, callback)
  }

  #asked() {
    if (this.#waitingSince === 0) this.#waitingSince = performance.now()
  }
}

/**
 * The `stream` option of a PgClient for the server of `url`: TCP connections watched as {@link WatchedSocket}
 * says. A URL of a Unix socket (`host=/path`) gets none (undefined: the driver's own connection).
 */
export const watchedConnections = (url: string, silenceMs: number): (() => Duplex) | undefined => {
  const parsed = new URL(url)
  const socketHost = parsed.searchParams.get("host")
  if (socketHost !== null && socketHost.startsWith("/")) return undefined
  const host = (socketHost ?? (decodeURIComponent(parsed.hostname) || "localhost")).replace(/^\[(.*)\]$/u, "$1")
  const port = Number(parsed.searchParams.get("port") ?? (parsed.port || "5432"))
  return () => new WatchedSocket(silenceMs).connect({ host, port }).setNoDelay(true)
}
