import { Console, Effect } from "effect"
import { CliError, CliOutput } from "effect/cli"

/**
 * Imports a module when a command runs: the server's adapters take a few seconds of CPU to load from their
 * TypeScript sources, which `--help` and a wrong invocation do not need.
 */
export const load = <A>(module: () => Promise<A>): Effect.Effect<A> => Effect.promise(module)

/** Prints a value as indented JSON (what every command prints: a script reads it with `jq` or `node -p`). */
export const printJson = (value: unknown) => Console.log(JSON.stringify(value, null, 2))

/**
 * A wrong invocation says what is wrong in one line on stderr and where the usage is, instead of the whole help
 * (`--help` still prints it); help and `--version` are printed as effect's CLI prints them.
 */
export const presenter = CliOutput.layerPresenter({
  present: (event) =>
    event._tag === "InvalidInvocation"
      ? Console.error(
        `error: ${event.errors.map((error) => error.message).join("; ")}\n` +
          `usage: ${event.commandPath.join(" ")} --help`
      )
      : CliOutput.defaultPresenter.present(event)
})

/** What a failed command prints: its error's message (a wrong invocation was already presented). */
export const reportFailure = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.tapCause(self, (cause) => {
    const messages = cause.reasons.flatMap((reason) => {
      if (reason._tag !== "Fail") return reason._tag === "Die" ? ["unexpected failure"] : []
      if (CliError.isCliError(reason.error)) return []
      const error: unknown = reason.error
      return [typeof error === "object" && error !== null && "message" in error ? String(error.message) : String(error)]
    })
    return messages.length === 0 ? Effect.void : Console.error(`error: ${messages.join("; ")}`)
  })
