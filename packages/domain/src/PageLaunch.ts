import { Schema } from "effect"
import { HttpUrl } from "./MerchantSettings.ts"

/** The languages the player's page speaks (CONTRACT §3); any other tag gets the first. */
export const pageLanguages = ["en", "fr", "am", "sw"] as const

/** A language the player's page speaks. */
export const PageLanguage = Schema.Literals(pageLanguages).annotate({
  description: "A language the player's page speaks: `en` English, `fr` French, `am` Amharic, `sw` Swahili"
})
export type PageLanguage = typeof PageLanguage.Type

/** A BCP 47 language tag as a launch asks for it (its syntax only: a tag the page does not speak gets English). */
export const LanguageTag = Schema.String.check(
  Schema.isMaxLength(35),
  Schema.isPattern(/^[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*$/u, { message: "must be a BCP 47 language tag such as en or fr-CA" })
)

/** The page's language for a tag: its primary subtag when the page speaks it, else English. */
export const pageLanguageOf = (tag: string | undefined): PageLanguage => {
  const primary = (tag ?? "").split(/[-_]/u)[0]?.toLowerCase() ?? ""
  return pageLanguages.find((l) => l === primary) ?? "en"
}

/** The operator's site the page leads back to: its exit button and its error screens. */
export const LobbyUrl = HttpUrl

/** How often, in minutes, the page stops to show the session's time and net result (CONTRACT §12). */
export const RealityCheckMinutes = Schema.Int.check(Schema.isBetween({ minimum: 5, maximum: 120 }))

/** What a launch asked of the player's page, given back with the session (CONTRACT §3, §12). */
export const PageLaunch = Schema.Struct({
  language: PageLanguage,
  lobbyUrl: Schema.optionalKey(Schema.String).annotate({
    description: "The operator's site (the launch's `lobbyUrl`): the page's exit button and error screens lead there"
  }),
  realityCheckMinutes: Schema.optionalKey(Schema.Int).annotate({
    description: "Every this many minutes the page shows the session's time and net result, with continue or leave"
  }),
  shop: Schema.optionalKey(Schema.Struct({
    shopId: Schema.String.annotate({ description: "The shop's id (the launch's `shopId`)" }),
    name: Schema.String.annotate({ description: "The shop's name, from the operator's `shopDetailsUrl`" })
  })).annotate({
    description: "The retail shop of a launch with a `shopId`: the page shows its cashier layout (large type, the " +
      "shop's name, no lobby and no exit button)"
  })
}).annotate({
  identifier: "PageLaunch",
  description: "What the launch asked of the player's page: its language, where its exit leads, its reality check and its shop."
})
export type PageLaunch = typeof PageLaunch.Type

/** The page's part of a launch token's claims: `lang`, `lurl`, `rcm` and the shop (`shop`, `shn`) when the launch set them. */
export const pageLaunchOf = (claims: {
  readonly lang?: string | undefined
  readonly lurl?: string | undefined
  readonly rcm?: number | undefined
  readonly shop?: string | undefined
  readonly shn?: string | undefined
}): PageLaunch => ({
  language: pageLanguageOf(claims.lang),
  ...(claims.lurl === undefined ? {} : { lobbyUrl: claims.lurl }),
  ...(claims.rcm === undefined ? {} : { realityCheckMinutes: claims.rcm }),
  ...(claims.shop === undefined ? {} : { shop: { shopId: claims.shop, name: claims.shn ?? claims.shop } })
})
