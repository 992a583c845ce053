import { Clock, Duration, Effect, Layer, Option } from "effect"
import { OperatorUrlPolicy, Validation } from "@gateway/domain"
import { lookup } from "node:dns/promises"
import { isNonPublicAddress, literalAddress } from "./AddressGuard.ts"

/** The addresses of a host name; empty when it does not resolve. */
export type Resolve = (hostname: string) => Effect.Effect<ReadonlyArray<string>>

const DNS_TIMEOUT = "5 seconds"

/** The system resolver (`dns.lookup` with `all: true`, as connections use), 5 s at most. */
export const systemResolve: Resolve = (hostname) =>
  Effect.tryPromise(() => lookup(hostname, { all: true, verbatim: true })).pipe(
    Effect.map((found) => found.map((a) => a.address)),
    Effect.timeoutOption(DNS_TIMEOUT),
    Effect.map(Option.getOrElse((): ReadonlyArray<string> => [])),
    Effect.orElseSucceed((): ReadonlyArray<string> => [])
  )

const isLocalName = (host: string): boolean => host === "localhost" || host.endsWith(".localhost")

const refuse = (field: string, detail: string) => Effect.fail(new Validation.ValidationFailed({ field, detail }))

const nonPublic = "a loopback, private, link-local, unique-local or unspecified address"
/** The one answer for a name that does not resolve and one that resolves to a non-public address. */
const publicOnly = "must be a host name that resolves to public addresses only"
/** A refused name is answered no sooner than this after its check began, whatever DNS did. */
const REFUSAL_FLOOR_MS = 250

/**
 * The policy: an absolute http(s) URL whose host is neither a non-public IP
 * literal nor `localhost`, and whose name resolves only to public addresses.
 * A name that does not resolve and one that resolves to a non-public
 * address get the same answer, no sooner than `refusalFloorMs` (250) after
 * the check began, so the answer does not tell an operator which internal
 * names exist. What the game page loads must be https. With `allowPrivate`
 * (local development over plain http, tests) only the scheme is checked.
 */
export const make = (
  allowPrivate: boolean,
  resolve: Resolve = systemResolve,
  refusalFloorMs: number = REFUSAL_FLOOR_MS
): OperatorUrlPolicy["Service"] =>
  OperatorUrlPolicy.of({
    check: Effect.fnUntraced(function*(field: string, url: string) {
      const parsed = URL.parse(url)
      if (parsed === null || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
        return yield* refuse(field, "must be an absolute http(s) URL")
      }
      if (allowPrivate) return
      const host = parsed.hostname.toLowerCase().replace(/\.$/, "")
      const literal = literalAddress(host)
      if (literal !== undefined) {
        if (isNonPublicAddress(literal)) return yield* refuse(field, `must not point to ${nonPublic}`)
        return
      }
      if (host === "" || isLocalName(host)) return yield* refuse(field, `must not point to ${nonPublic}`)
      const started = yield* Clock.currentTimeMillis
      const addresses = yield* resolve(host)
      if (addresses.length === 0 || addresses.some(isNonPublicAddress)) {
        const waited = (yield* Clock.currentTimeMillis) - started
        if (waited < refusalFloorMs) yield* Effect.sleep(Duration.millis(refusalFloorMs - waited))
        return yield* refuse(field, publicOnly)
      }
    }),
    checkPageUrl: (field, url) =>
      allowPrivate || URL.parse(url)?.protocol === "https:"
        ? Effect.void
        : refuse(field, "must be an absolute https URL (the game page loads it)")
  })

/** The policy with private addresses allowed (`true`) or refused (`false`). */
export const layer = (allowPrivate: boolean): Layer.Layer<OperatorUrlPolicy> =>
  Layer.succeed(OperatorUrlPolicy, make(allowPrivate))
