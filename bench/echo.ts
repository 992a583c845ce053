/**
 * A TCP echo server as its own process (`node bench/echo.ts`, prints
 * `{"port":N}` on its first stdout line), answering every chunk with the
 * same bytes after ECHO_DELAY_MS (0: at once). The other half of the
 * machine probe of wakeup.ts.
 */
import { createServer } from "node:net"
import { serveHelper } from "./children.ts"

const delayMs = Number(process.env["ECHO_DELAY_MS"] ?? 0)
const server = createServer((socket) => {
  socket.on("data", (chunk) => delayMs > 0 ? setTimeout(() => socket.write(chunk), delayMs) : socket.write(chunk))
  socket.on("error", () => socket.destroy())
})
// The bench owns this process: it ends on SIGTERM or when the bench goes away.
serveHelper(server)
