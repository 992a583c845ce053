import { SessionExpired } from "@gateway/domain/GameSession"
import { SessionEnded } from "@gateway/domain/SessionControl"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type * as Statement from "effect/sql/Statement"

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
    Effect.flatMap(([row]) =>
      Effect.fail<SessionExpired | SessionEnded>(
        row?.ended_reason === "terminated" ? new SessionEnded() : new SessionExpired()
      )
    )
  )
