import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { MerchantSettings } from "@gateway/domain"
import * as Problem from "./Problem.ts"
import { ownRevenueShares, settingsUrls, stakeLimits } from "./Merchants.ts"
import { KeyOperation, OperatorAuth } from "./Security.ts"

const testKeyWrite = "An `sv_test` key changes nothing: 403 FORBIDDEN (CONTRACT §2: a test key never changes what " +
  "real money does — URLs, stakes, RTP, branding); use an `sv_live` key."

/**
 * An operator reads and changes its own settings with its API key, except
 * the five revenue shares, which it may only read (the admins' to set).
 */
export class SettingsApi extends HttpApiGroup.make("settings")
  .add(
    HttpApiEndpoint.get("get", "/settings", {
      success: MerchantSettings.MerchantSettings,
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN")
    })
      .annotate(KeyOperation, "readSettings")
      .annotate(OpenApi.Summary, "Read my settings")
      .annotate(
        OpenApi.Description,
        "The merchant's settings, the five `…PercentProfit` revenue shares included (read-only for the operator). " +
          "An `sv_test` key may read them."
      ),
    HttpApiEndpoint.put("change", "/settings", {
      payload: MerchantSettings.SettingsChange,
      success: MerchantSettings.MerchantSettings,
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN")
    })
      .annotate(KeyOperation, "write")
      .annotate(OpenApi.Summary, "Change my settings")
      .annotate(
        OpenApi.Description,
        "Each key given is set, `null` clears it, an absent key is kept; minimumStake ≤ maximumStake. " +
          stakeLimits + " " + ownRevenueShares + " " + settingsUrls + " " + testKeyWrite
      )
  )
  .middleware(OperatorAuth)
  .prefix("/api/v1.1/operator-api")
  .annotate(OpenApi.Title, "Settings")
  .annotate(
    OpenApi.Description,
    "An operator's own settings (`sv-api-key`): read them, and change all but the five revenue shares, " +
      "which it may only read (the admins' to set)."
  )
{}
