import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@gateway/client/api/Api"
import { BackofficeAssets, contentSecurityPolicy, renderBackoffice } from "../page/BackofficePage.ts"
import { newNonce } from "../page/PlayPage.ts"

/** `GET /backoffice`: the app's document under a fresh CSP nonce. */
export const BackofficePageLive = HttpApiBuilder.group(
  Api,
  "backofficePage",
  Effect.fn(function*(handlers) {
    const assets = yield* BackofficeAssets
    return handlers.handle("backofficePage", () =>
      Effect.sync(() => {
        const nonce = newNonce()
        return HttpServerResponse.text(renderBackoffice(nonce, assets), {
          contentType: "text/html; charset=utf-8",
          headers: {
            "content-security-policy": contentSecurityPolicy(nonce),
            "cache-control": "no-store",
            "referrer-policy": "no-referrer",
            "x-content-type-options": "nosniff",
            "x-frame-options": "DENY"
          }
        })
      }))
  })
)
