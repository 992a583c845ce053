import { Config, Schema, SchemaTransformation } from "effect"
import { defaultSchedule } from "@gateway/domain/RetrySchedule"

/** `WEBHOOK_TIMEOUT_MS`: how long a webhook call may take (default 5000, 1..60000). */
export const timeoutMs = Config.schema(
  Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 60_000 })),
  "WEBHOOK_TIMEOUT_MS"
).pipe(Config.withDefault(5000))

const Seconds = Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 7 * 86_400 }))

const Delay = Schema.String.check(
  Schema.isPattern(/^\d{1,6}(\.\d{1,3})?$/, { message: "must be a number of seconds like 5 or 0.05" })
).pipe(Schema.decodeTo(Schema.NumberFromString.pipe(Schema.decodeTo(Seconds))))

/** Comma-separated seconds (`"5,300,1800"`) as a non-empty schedule. */
export const ScheduleFromString = Schema.String.pipe(
  Schema.decodeTo(
    Schema.Array(Schema.String),
    SchemaTransformation.transform({
      decode: (text: string): ReadonlyArray<string> => text.split(",").map((part) => part.trim()),
      encode: (parts: ReadonlyArray<string>) => parts.join(",")
    })
  ),
  Schema.decodeTo(
    Schema.Array(Delay).check(
      Schema.isMinLength(1, { message: "must list at least one delay" })
    )
  )
)

/**
 * `WEBHOOK_RETRY_SCHEDULE`: the seconds between delivery attempts, comma
 * separated; default the contract's 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h.
 */
export const retrySchedule: Config.Config<ReadonlyArray<number>> = Config.schema(
  ScheduleFromString,
  "WEBHOOK_RETRY_SCHEDULE"
).pipe(Config.withDefault(defaultSchedule))
