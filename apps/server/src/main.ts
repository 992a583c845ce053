import { NodeRuntime } from "@effect/platform-node"
import { Cause, Console, Effect, Layer } from "effect"
import { AppLive } from "./App.ts"
import { withAuthSecret } from "./DevSecrets.ts"

const oneLine = (cause: Cause.Cause<unknown>): string => {
  const reason = cause.reasons[0]
  const error = reason?._tag === "Fail" ? reason.error : reason?._tag === "Die" ? reason.defect : undefined
  const text = error instanceof Error ? error.message : String(error ?? "interrupted")
  return text.replace(/\s*\n\s*/g, " ")
}

const program = Layer.launch(AppLive).pipe(
  withAuthSecret,
  Effect.catchCause((cause) =>
    Cause.hasInterruptsOnly(cause)
      ? Effect.void
      : Console.error(`gateway: cannot start: ${oneLine(cause)}`).pipe(Effect.andThen(Effect.fail("start-up failed")))
  )
)

NodeRuntime.runMain(program, { disableErrorReporting: true })
