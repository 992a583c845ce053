import { createServer, type IncomingMessage, type ServerResponse } from "node:http"

/** A request the fake operator received. */
export interface Received {
  readonly method: string
  readonly url: string
  readonly headers: IncomingMessage["headers"]
  readonly body: string
}

/** A real HTTP server on 127.0.0.1 playing the operator; `reply` decides each answer. */
export const startOperator = async (
  reply: (received: Received, res: ServerResponse) => void
): Promise<{ readonly url: string; readonly received: Array<Received>; readonly close: () => Promise<void> }> => {
  const received: Array<Received> = []
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const r = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") }
      received.push(r)
      reply(r, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

export const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" })
  res.end(typeof body === "string" ? body : JSON.stringify(body))
}
