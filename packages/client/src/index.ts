/**
 * The gateway's HTTP contract and its typed client, without server code: `Api` (every endpoint, its
 * problem+json errors and the OpenAPI document's annotations), `Problem` (the error codes and body), `Security`
 * (the middleware declarations) and `Client.make`, an `HttpApiClient` of `Api`.
 */
export { Api } from "./api/Api.ts"
export * as Client from "./Client.ts"
export * as Problem from "./api/Problem.ts"
export * as Security from "./api/Security.ts"
