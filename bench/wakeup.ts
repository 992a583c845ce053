/**
 * What a message costs a process on this machine, busy and asleep: two
 * processes exchanging 200 bytes over loopback TCP, (a) back to back at 16
 * connections, (b) one connection with the answer held 20 ms, so both
 * processes sleep between messages — as a server does at a low rate or when
 * the wallet answers after 20 ms. Each side's CPU (user + system) per
 * exchange. On a virtual machine a process woken on an idle core pays for
 * the core's wake-up and its cold caches: (b) costs several times (a), and
 * so does every request of the bench at low rates, on every server alike.
 * `node bench/wakeup.ts` prints the two; the bet bench puts them in its
 * report's facts.
 */
import { connect } from "node:net"
import { startHelper } from "./children.ts"
import { cpuMs } from "./proc.ts"

/** CPU microseconds an exchange, of the sending process and of the echoing one, and the exchanges a second. */
export interface ExchangeCost {
  readonly perSecond: number
  readonly senderUs: number
  readonly echoUs: number
}

const exchange = async (delayMs: number, connections: number, seconds: number): Promise<ExchangeCost> => {
  const echo = await startHelper("echo.ts", { ECHO_DELAY_MS: String(delayMs) })
  const { port } = new URL(echo.url)
  const message = Buffer.alloc(200, 120)
  let count = 0
  let counting = false
  const sockets = Array.from({ length: connections }, () => {
    const socket = connect(Number(port), "127.0.0.1", () => socket.write(message))
    socket.on("data", (chunk) => {
      if (counting) count++
      socket.write(chunk)
    })
    socket.on("error", () => socket.destroy())
    return socket
  })
  // A second unmeasured, then `seconds` measured.
  await new Promise((resolve) => setTimeout(resolve, 1000))
  counting = true
  const began = performance.now()
  const mine = process.cpuUsage()
  const theirs = cpuMs(echo.pid)
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
  counting = false
  const used = process.cpuUsage(mine)
  const echoMs = cpuMs(echo.pid) - theirs
  const elapsed = (performance.now() - began) / 1000
  for (const socket of sockets) socket.destroy()
  await echo.stop()
  return {
    perSecond: count / elapsed,
    senderUs: count > 0 ? (used.user + used.system) / count : Number.NaN,
    echoUs: count > 0 ? (echoMs * 1000) / count : Number.NaN
  }
}

/** The probe: busy (back to back, 16 connections) and asleep (one connection, 20 ms between messages). */
export const wakeupCost = async (seconds = 3): Promise<{ readonly busy: ExchangeCost; readonly asleep: ExchangeCost }> => ({
  busy: await exchange(0, 16, seconds),
  asleep: await exchange(20, 1, seconds)
})

/** The probe's result on one line. */
export const describe = ({ busy, asleep }: Awaited<ReturnType<typeof wakeupCost>>): string =>
  `an exchange of 200 bytes over loopback costs the sender ${busy.senderUs.toFixed(0)} µs and the echo ` +
  `${busy.echoUs.toFixed(0)} µs of CPU back to back (16 connections, ${busy.perSecond.toFixed(0)}/s), ` +
  `${asleep.senderUs.toFixed(0)} µs and ${asleep.echoUs.toFixed(0)} µs when both sleep 20 ms between messages ` +
  `(bench/wakeup.ts)`

if (import.meta.main) {
  console.log(describe(await wakeupCost()))
  process.exit(0)
}
