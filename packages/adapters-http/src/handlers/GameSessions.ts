import { createHash } from "node:crypto"
import { Effect, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder, HttpApiSchema } from "effect/http-api"
import {
  FairRandom,
  FreeRounds,
  GameCatalog,
  gameRules,
  GameSessionRepo,
  Ids,
  LaunchTokenVerifier,
  lobbyGames,
  makePlayRound,
  MerchantRepo,
  OperatorDetails,
  openSession,
  resumeSession,
  rotateSeed,
  roundHistory,
  roundRecall,
  RoundLedger,
  roundOf,
  startAutoplay,
  WalletClient
} from "@gateway/domain"
import { Api } from "@gateway/client/api/Api"
import { resumeCookie, resumePath } from "@gateway/client/api/GameSessions"
import { resumeWindowSeconds } from "@gateway/domain/LaunchPolicy"
import * as AnswerCookie from "../AnswerCookie.ts"
import * as Ports from "../Ports.ts"
import { guardFailures, RateLimiter } from "../middleware/RateLimiter.ts"
import { charge } from "../middleware/SessionAuth.ts"
import { SessionToken } from "@gateway/client/api/SessionAuth"
import * as Problem from "@gateway/client/api/Problem"

const noStore = { "cache-control": "no-store" as const }

/** The session token of a `Bearer` authorization header, if one is given. */
const bearerOf = (authorization: string | undefined): string | undefined => {
  const match = authorization === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization)
  return match?.[1]
}

/**
 * The resume cookie (CONTRACT §6, docs/decisions.md): `<SHA-256 of the launch token, base64url>.<sessionToken>`,
 * so it resumes only the session of the very link it was set for. HttpOnly (the page never reads it), Secure and
 * SameSite=None (the page is framed by the casino's site), Partitioned (kept per top-level site, where Chromium
 * gives a third-party frame no storage; another site never sends it, so no cross-site request can use it), sent
 * only to the resume call, for 12 hours (`resumeWindowSeconds`; sessions expire when idle but have no fixed end:
 * a session resumed renews it). Browsers accept Secure cookies from https and from loopback (http://127.0.0.1,
 * localhost) only.
 */
const resumeMaxAge = `${resumeWindowSeconds} seconds` as const
const linkHash = (launchToken: string) => createHash("sha256").update(launchToken, "utf8").digest("base64url")

/** Sets the resume cookie on the answer. */
const setResume = (launchToken: string, sessionToken: string) =>
  AnswerCookie.setOnAnswer(resumeCookie, `${linkHash(launchToken)}.${sessionToken}`, {
    httpOnly: true,
    secure: true,
    sameSite: "none",
    partitioned: true,
    path: resumePath,
    maxAge: resumeMaxAge
  })

/** The session token the request's resume cookie bound to this launch token, if any. */
const resumedToken = (cookie: string | undefined, launchToken: string): string | undefined => {
  if (cookie === undefined || cookie.length > 256) return undefined
  const dot = cookie.indexOf(".")
  if (dot < 0 || cookie.slice(0, dot) !== linkHash(launchToken)) return undefined
  const token = cookie.slice(dot + 1)
  return /^[A-Za-z0-9_-]{1,128}$/.test(token) ? token : undefined
}

/** Sessions, rounds, fairness and the lobby, for the game front-end. */
export const GameSessionsLive = HttpApiBuilder.group(
  Api,
  "gameSessions",
  Effect.fn(function*(handlers) {
    const provide = yield* Ports.capture(
      LaunchTokenVerifier,
      MerchantRepo,
      GameSessionRepo,
      GameCatalog,
      OperatorDetails,
      FairRandom,
      FreeRounds,
      WalletClient,
      RoundLedger,
      Ids
    )
    const limiter = yield* RateLimiter
    // Built once, as the rounds answered before routing build it (middleware/FastRound.ts).
    const play = yield* makePlayRound
    /** Runs a session call: domain errors become problems, and failed look-ups are charged to the client's address. */
    const run = <A, E extends Problem.DomainError, R>(effect: Effect.Effect<A, E, R>) =>
      effect.pipe(provide, Effect.mapError(Problem.fromDomain), guardFailures(limiter))
    const withToken = <A, E extends Problem.DomainError, R>(use: (token: string) => Effect.Effect<A, E, R>) =>
      Effect.flatMap(SessionToken, (token) => run(use(Redacted.value(token))))
    const fresh = <A>(body: A) => HttpApiSchema.withHeaders({ body, headers: noStore })
    return handlers.handleAll({
      open: ({ payload }) =>
        run(openSession(payload.token)).pipe(
          Effect.tap((opened) => setResume(payload.token, opened.sessionToken)),
          Effect.map(fresh)
        ),
      // A resume asks the operator again, as a round does: it spends the session's own rate-limit bucket first.
      resume: ({ payload, request }) => {
        const sessionToken = resumedToken(request.cookies[resumeCookie], payload.token)
        return (sessionToken === undefined ? Effect.void : charge(limiter, Redacted.make(sessionToken))).pipe(
          Effect.andThen(run(resumeSession(payload.token, sessionToken))),
          Effect.tap((opened) => setResume(payload.token, opened.sessionToken)),
          Effect.map(fresh)
        )
      },
      play: ({ payload }) => withToken((token) => play(token, payload)).pipe(Effect.map(fresh)),
      lobby: ({ query }) => withToken((token) => lobbyGames(token, query)).pipe(Effect.map(fresh)),
      rules: ({ params }) =>
        Effect.flatMap(
          HttpServerRequest.HttpServerRequest,
          (request) => run(gameRules(params.gameId, bearerOf(request.headers["authorization"])))
        ),
      rounds: ({ query }) => withToken((token) => roundHistory(token, query)).pipe(Effect.map(fresh)),
      recall: ({ query }) => withToken((token) => roundRecall(token, query.gameId)).pipe(Effect.map(fresh)),
      round: ({ params }) => withToken((token) => roundOf(token, params.roundId)).pipe(Effect.map(fresh)),
      fairness: ({ payload }) => withToken((token) => rotateSeed(token, payload.clientSeed)).pipe(Effect.map(fresh)),
      autoplay: ({ payload }) => withToken((token) => startAutoplay(token, payload)).pipe(Effect.map(fresh))
    })
  })
)
