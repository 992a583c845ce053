import { Duplex } from "node:stream"
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
class WatchedSocket extends Duplex {
  readonly #socket: Net.Socket
  readonly #silenceMs: number
  #timer: ReturnType<typeof setTimeout> | undefined

  constructor(socket: Net.Socket, silenceMs: number) {
    super()
    this.#socket = socket
    this.#silenceMs = silenceMs
    socket.on("data", (chunk: Buffer) => {
      this.#quiet()
      if (!this.push(chunk)) socket.pause()
    })
    socket.on("end", () => this.push(null))
    socket.on("error", (error) => this.destroy(error))
    socket.on("close", () => {
      this.#quiet()
      if (!this.destroyed) this.destroy()
    })
  }

  #quiet() {
    if (this.#timer !== undefined) clearTimeout(this.#timer)
    this.#timer = undefined
  }

  override _read() {
    this.#socket.resume()
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void) {
    if (this.#timer === undefined) {
      this.#timer = setTimeout(
        () => this.destroy(new Error(`the database did not answer within ${this.#silenceMs} ms`)),
        this.#silenceMs
      )
    }
    this.#socket.write(chunk, encoding, callback)
  }

  override _final(callback: (error?: Error | null) => void) {
    this.#socket.end(callback)
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void) {
    this.#quiet()
    this.#socket.destroy()
    callback(error)
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
  return () => new WatchedSocket(Net.connect({ host, port, noDelay: true }), silenceMs)
}
