import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Round } from "@gateway/domain"
import * as Problem from "./Problem.ts"

const Html = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/html; charset=utf-8" }))
const Script = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/javascript; charset=utf-8" }))
const Style = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/css; charset=utf-8" }))

/** A round's signed link (CONTRACT §10) and the page's code; no credentials: the signature is the credential. */
export class RoundDetailsApi extends HttpApiGroup.make("roundDetails", { topLevel: true })
  .add(
    HttpApiEndpoint.get("round", "/rounds/:roundId", {
      params: { roundId: Schema.String.check(Schema.isMaxLength(64)).annotate({ description: "The round's id" }) },
      query: {
        sig: Schema.String.check(Schema.isNonEmpty(), Schema.isMaxLength(128)).annotate({
          description: "The link's signature (base64url HMAC-SHA256 of the round id with a key of the gateway)"
        })
      },
      success: [Round.RoundDetails, Html],
      error: Problem.responses("ROUND_NOT_FOUND")
    })
      .annotate(OpenApi.Summary, "A round's details and proof (its `roundDetailsUrl`)")
      .annotate(
        OpenApi.Description,
        "The link every credit and refund webhook, `round.settled` callback and reported round carries: signed, " +
          "never expiring, nothing stored. With `accept: application/json` the round as JSON; otherwise an HTML page " +
          "for people (the player, support, a regulator) with the selection, outcome and payout and, once the " +
          "server seed is revealed (a client seed change, or the session has ended), the proof and a button that " +
          "verifies the draw in the browser (WebCrypto HMAC-SHA256, the game page's own code). A signature that does " +
          "not verify, or an unknown round, is 404 ROUND_NOT_FOUND: the answer does not tell whether the round exists."
      ),
    HttpApiEndpoint.get("script", "/static/round-details.js", { success: Script, error: Problem.responses() })
      .annotate(OpenApi.Summary, "The round page's script")
      .annotate(OpenApi.Description, "The bundled verification code of the round page (built from packages/play)."),
    HttpApiEndpoint.get("style", "/static/round-details.css", { success: Style, error: Problem.responses() })
      .annotate(OpenApi.Summary, "The round page's style sheet")
      .annotate(OpenApi.Description, "The style sheet of the round page (built from packages/play).")
  )
  .annotate(OpenApi.Title, "Round links")
  .annotate(
    OpenApi.Description,
    "A round's signed link: its details and provably-fair proof, for people and for programs."
  )
{}
