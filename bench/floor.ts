/**
 * The FLOOR of the bench, run as its own process (`node bench/floor.ts`,
 * prints `{"port":N}` on its first stdout line): bare `node:http` answering
 * every request with the same bytes — the gateway's own games page, its
 * body and `content-type` read from FLOOR_BODY_FILE and FLOOR_CONTENT_TYPE —
 * and doing nothing else. A cached page of the gateway is compared with it:
 * how close an answer kept in memory comes to what this machine's node:http
 * can do at all.
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import { serveHelper } from "./children.ts"

const file = process.env["FLOOR_BODY_FILE"]
if (file === undefined || file === "") throw new Error("floor: FLOOR_BODY_FILE is required")
const body = readFileSync(file)
const headers = {
  "content-type": process.env["FLOOR_CONTENT_TYPE"] ?? "application/json",
  "content-length": String(body.length)
}

const server = createServer((req, res) => {
  req.resume()
  res.writeHead(200, headers)
  res.end(body)
})
server.keepAliveTimeout = 60_000
// The bench owns this process: it ends on SIGTERM or when the bench goes away.
serveHelper(server)
