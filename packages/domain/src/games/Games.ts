import { Schema } from "effect"
import { definitions } from "./Definitions.ts"
import type { GameDefinition } from "./GameDefinition.ts"
import type { GameRules } from "./GameRules.ts"
import { type ProfitField, profitFields } from "./ProfitFields.ts"
import { decoderOf } from "./Selection.ts"
import { defaultProfit, GameProfit, maxProfit, minProfit, profitBp, StoredProfit } from "./Rtp.ts"

export type { EngineRules, GameOutcome, GameRules, Played, SelectionSpec } from "./GameRules.ts"
export type { ControlsSpec, GameArt, GameDefinition, StageSpec } from "./GameDefinition.ts"
export type { ExpectedMultiplier, PayoutLine } from "./PayTable.ts"
export type { DrawSpec } from "./Throws.ts"
export { formatRtp } from "./Rtp.ts"
export { definitions }
export { type ProfitField, profitFields } from "./ProfitFields.ts"

type Definition = typeof definitions[number]

/** The id of a built-in game. */
export type BuiltinGameId = Definition["id"]


/** The rules of the built-in games, in the catalogue's order, each with the decoder its selection spec gives. */
export const allRules: ReadonlyArray<GameRules> = definitions.map(({ rules }) => ({
  ...rules,
  decodeSelection: decoderOf(rules.selection)
}))

const byId: ReadonlyMap<string, GameDefinition> = new Map(definitions.map((definition) => [definition.id, definition]))

/** The definition of a built-in game, if `gameId` is one. */
export const definitionOf = (gameId: string): GameDefinition | undefined => byId.get(gameId)

const rulesById: ReadonlyMap<string, GameRules> = new Map(allRules.map((rules) => [rules.id, rules]))

/** The rules of a built-in game, if `gameId` is one. */
export const rulesOf = (gameId: string): GameRules | undefined => rulesById.get(gameId)


const fieldOf: ReadonlyMap<string, ProfitField> = new Map(Object.entries(profitFields))

/**
 * The RTP a merchant's game plays at, in basis points: 10000 − the house
 * edge of its `<game>GameProfit` setting ({@link profitBp}: default 2.5,
 * clamped to 1…15, rounded to 2 decimals). An unknown game or missing
 * settings play at the default.
 */
export const rtpFor = (gameId: string, settings: { readonly [K in ProfitField]?: number } | undefined): number => {
  const field = fieldOf.get(gameId)
  const profit = field === undefined ? undefined : settings?.[field]
  return 10_000 - profitBp(profit ?? defaultProfit)
}

type PerField<A> = { readonly [K in ProfitField]: A }

const complete = <A>(fields: { readonly [K in ProfitField]?: A }): fields is PerField<A> =>
  definitions.every((definition) => Object.hasOwn(fields, definition.profitField))

/** A value for each game's profit setting, in the games' order. */
const perField = <A>(f: (definition: Definition) => A): PerField<A> => {
  const fields: { [K in ProfitField]?: A } = {}
  for (const definition of definitions) fields[definition.profitField] = f(definition)
  if (!complete(fields)) throw new Error("every built-in game has its own profit setting")
  return fields
}

const described = (definition: Definition) =>
  `The house edge of ${definition.id} in percent, ${minProfit} to ${maxProfit} (its RTP is 100 − this); default the game's own`

/** The settings fields of the games' house edges, as stored and answered (MerchantSettings spreads them). */
export const profitSettings = perField((definition) => StoredProfit.annotate({ description: described(definition) }))

/** The same fields in a settings change: bounded to the playable range, `null` clears one. */
export const profitChanges = perField((definition) =>
  Schema.optionalKey(Schema.NullOr(GameProfit.annotate({ description: described(definition) })))
)
