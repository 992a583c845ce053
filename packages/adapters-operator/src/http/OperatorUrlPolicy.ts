import { Effect, Layer, Option } from "effect"
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

/**
 * The policy: an absolute http(s) URL whose host is neither a non-public IP
 * literal nor `localhost`, and whose name resolves only to public addresses.
 * With `allowPrivate` (local development, tests) only the scheme is checked.
 */
export const make = (allowPrivate: boolean, resolve: Resolve = systemResolve): OperatorUrlPolicy["Service"] =>
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
      const addresses = yield* resolve(host)
      if (addresses.length === 0) return yield* refuse(field, `the host ${host} does not resolve`)
      if (addresses.some(isNonPublicAddress)) return yield* refuse(field, `the host ${host} resolves to ${nonPublic}`)
    })
  })

/** The policy with private addresses allowed (`true`) or refused (`false`). */
export const layer = (allowPrivate: boolean): Layer.Layer<OperatorUrlPolicy> =>
  Layer.succeed(OperatorUrlPolicy, make(allowPrivate))
