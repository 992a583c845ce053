import { SessionExpired } from "@gateway/domain/GameSession"
import { SessionEnded } from "@gateway/domain/SessionControl"
import { AutoplayLimitReached } from "@gateway/domain/Autoplay"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type * as Statement from "effect/sql/Statement"

/** Why a session is not live, from its `ended_reason`: SessionEnded when the operator ended it, else SessionExpired. */
const notLive = (row: { readonly ended_reason: string | null } | undefined): SessionExpired | SessionEnded =>
  row?.ended_reason === "terminated" ? new SessionEnded() : new SessionExpired()

/**
 * Why a session found not live is not: SessionEnded when the operator ended it, else SessionExpired (idle, or
 * unknown). Asked only once a statement found the session not live, so never on the path of a live session.
 */
export const whyNotLive = (
  sql: SqlClient,
  where: Statement.Fragment
): Effect.Effect<never, SessionExpired | SessionEnded> =>
  sql<{ readonly ended_reason: string | null }>`SELECT ended_reason FROM game_sessions WHERE ${where}`.pipe(
    Effect.catchTag("SqlError", Effect.die),
    Effect.flatMap(([row]) => Effect.fail(notLive(row)))
  )

/**
 * Why a round of the session could not begin: as {@link whyNotLive}, or — an autoplay round of a session still
 * live — AutoplayLimitReached (no autoplay round left, its loss limit reached, or no autoplay started). Asked only
 * once the round's statement found nothing to take; one statement either way.
 */
export const whyNotBegun = (
  sql: SqlClient,
  sessionId: string,
  autoplay: boolean
): Effect.Effect<never, SessionExpired | SessionEnded | AutoplayLimitReached> =>
  sql<{ readonly ended_reason: string | null; readonly live: boolean }>`
    SELECT ended_reason, expires_at > now() AND ended_reason IS NULL AS live
    FROM game_sessions WHERE id = ${sessionId}`.pipe(
    Effect.catchTag("SqlError", Effect.die),
    Effect.flatMap(([row]) =>
      Effect.fail(autoplay && row?.live === true ? new AutoplayLimitReached() : notLive(row))
    )
  )
