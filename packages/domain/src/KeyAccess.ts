import { Result } from "effect"
import type { ApiKeyPrefix } from "./ApiKey.ts"
import { Forbidden } from "./Auth.ts"

/**
 * What an operator's request does, as far as the environment of its key
 * matters (CONTRACT §2): list the catalogue, launch in demo or real mode,
 * read its own settings, change anything (settings, stakes, RTP, URLs,
 * games, sessions, grants), or read real-money data (rounds, transactions,
 * reports, CSV).
 */
export type KeyOperation = "listGames" | "launchDemo" | "launchReal" | "readSettings" | "write" | "readRealMoney"

/** Every {@link KeyOperation}, for exhaustive tests. */
export const keyOperations: ReadonlyArray<KeyOperation> = [
  "listGames",
  "launchDemo",
  "launchReal",
  "readSettings",
  "write",
  "readRealMoney"
]

const useLive = "; use an sv_live key"

/**
 * Why an `sv_test` key may not do an operation, or `undefined` when it may.
 * A test key is for integration testing and never touches real money or
 * changes what real money does: it lists games, launches demo mode and reads
 * its own settings; anything else needs an `sv_live` key.
 */
const testKeyRefusal: Readonly<Record<KeyOperation, string | undefined>> = {
  listGames: undefined,
  launchDemo: undefined,
  readSettings: undefined,
  launchReal: "an sv_test key launches demo mode only; use an sv_live key for real money",
  write: "an sv_test key changes nothing (settings, stakes, RTP, URLs, games, sessions)" + useLive,
  readRealMoney: "an sv_test key reads no real-money data (rounds, transactions, reports, CSV)" + useLive
}

const allowed: Result.Result<void, Forbidden> = Result.succeed(undefined)

/**
 * The authorisation of an operator key by its environment, one rule for
 * every operator endpoint: an `sv_live` key may do every operation, an
 * `sv_test` key only what cannot touch real money — anything else is
 * {@link Forbidden} (403) with a detail that says why and what to use.
 */
export const authorise = (prefix: ApiKeyPrefix, operation: KeyOperation): Result.Result<void, Forbidden> => {
  if (prefix === "sv_live") return allowed
  const detail = testKeyRefusal[operation]
  return detail === undefined ? allowed : Result.fail(new Forbidden({ detail }))
}

/** The operation of a launch in `mode`. */
export const launchOperation = (mode: "real" | "demo"): KeyOperation => mode === "real" ? "launchReal" : "launchDemo"
