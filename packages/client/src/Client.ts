import type { Effect } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { Api } from "./api/Api.ts"

/** What the client sends with each request: an admin bearer token, an operator API key, or a player's session token. */
export interface Credentials {
  /** An admin JWT (`authorization: Bearer …`): the merchants, their keys, settings and deliveries. */
  readonly bearer?: string | undefined
  /** An operator API key `sv_live.…` or `sv_test.…` (`sv-api-key`): games, launch URLs, reports. */
  readonly apiKey?: string | undefined
  /** A game session token (`authorization: Bearer …`) from `gameSessions.redeem`: rounds and fairness. */
  readonly sessionToken?: string | undefined
}

const headersOf = (credentials: Credentials): Record<string, string> => {
  const headers: Record<string, string> = {}
  const bearer = credentials.bearer ?? credentials.sessionToken
  if (bearer !== undefined) headers["authorization"] = `Bearer ${bearer}`
  if (credentials.apiKey !== undefined) headers["sv-api-key"] = credentials.apiKey
  return headers
}

/**
 * The typed client of the gateway at `baseUrl` (its origin, e.g. `http://127.0.0.1:8080`), sending `credentials`
 * with each request. Groups and endpoints are named as the document's `operationId`s (`merchants.create`,
 * `games.list` …); every error is a `Problem` whose `code` is one of the endpoint's. Needs an `HttpClient`
 * (`FetchHttpClient.layer` from `effect/http` in Node 18+ and browsers).
 */
export const make = (baseUrl: string, credentials: Credentials = {}): Effect.Effect<GatewayClient, never, HttpClient.HttpClient> =>
  HttpApiClient.make(Api, { baseUrl, transformClient: HttpClient.mapRequest(HttpClientRequest.setHeaders(headersOf(credentials))) })

/** The client `make` builds: one property per endpoint group, one method per endpoint. */
export type GatewayClient = HttpApiClient.ForApi<typeof Api>
