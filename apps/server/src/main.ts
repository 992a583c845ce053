import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Console, Effect, Exit, Layer, Runtime } from "effect"
import { AppLive } from "./App.ts"

const oneLine = (cause: Cause.Cause<unknown>): string => {
  const reason = cause.reasons[0]
  const error = reason?._tag === "Fail" ? reason.error : reason?._tag === "Die" ? reason.defect : undefined
  const text = (error instanceof Error ? error.message : String(error ?? "interrupted")).replace(/\s*\n\s*/g, " ")
  const config = /^(?:ConfigError\()?SchemaError\((.*) at \["([A-Z0-9_]+)"\]\)\)?$/.exec(text)
  return config === null ? text : `${config[2]}: ${config[1]}`
}

/** SIGTERM and SIGINT are a requested stop: exit 0 once everything is closed. */
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

const program = Layer.launch(AppLive).pipe(
  Effect.catchCause((cause) =>
    Cause.hasInterruptsOnly(cause)
      ? Effect.void
      : Console.error(`gateway: cannot start: ${oneLine(cause)}`).pipe(Effect.andThen(Effect.fail("start-up failed")))
  )
)

NodeRuntime.runMain(program, { disableErrorReporting: true, teardown })
