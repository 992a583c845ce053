import { Cause, Layer, Logger, References } from "effect"
import type { GatewayConfig } from "./Config.ts"

const field = (value: unknown): unknown =>
  value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? value
    : typeof value === "bigint"
    ? value.toString()
    : String(value)

/**
 * One JSON object a line on standard output, flat as log shippers expect:
 * `time`, `level`, `message`, then the log's annotations (for a request:
 * `method`, `route`, `status`, `durationMs`, `requestId`), and `cause` when
 * there is one. Written straight to the stream: cheap enough to stay on
 * under load.
 */
export const jsonLines = Logger.make(({ cause, date, fiber, logLevel, message }) => {
  const line: Record<string, unknown> = {
    time: date.toISOString(),
    level: logLevel.toUpperCase(),
    message: Array.isArray(message) ? message.map(field).join(" ") : field(message)
  }
  for (const [key, value] of Object.entries(fiber.getRef(References.CurrentLogAnnotations))) {
    if (!(key in line)) line[key] = field(value)
  }
  if (cause.reasons.length > 0) line["cause"] = Cause.pretty(cause)
  process.stdout.write(`${JSON.stringify(line)}\n`)
})

/**
 * Logs at `LOG_LEVEL` and up, as {@link jsonLines} (`LOG_FORMAT=json`, the
 * default unless standard output is a terminal) or readable text (`pretty`).
 */
export const layer = (config: GatewayConfig) =>
  Layer.merge(
    Layer.succeed(References.MinimumLogLevel, config.logLevel),
    Logger.layer([config.logFormat === "json" ? jsonLines : Logger.consolePretty()])
  )
