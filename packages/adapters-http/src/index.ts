/**
 * The gateway's HTTP adapter: the `HttpApi` contract, its handlers written
 * against the domain ports, authentication, and problem+json errors.
 */
export { Api } from "./Api.ts"
export * as AuthApiKey from "./AuthApiKey.ts"
export * as AuthBearer from "./AuthBearer.ts"
export { BearerAuth } from "./AuthBearer.ts"
export * as Problem from "./Problem.ts"
export { Readiness } from "./Readiness.ts"
export { HttpLive, Routes } from "./Server.ts"
export * as Security from "./api/Security.ts"
