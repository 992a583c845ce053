import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Merchant, SecretRotation } from "@gateway/domain"
import * as Problem from "./Problem.ts"
import { AdminAuth } from "./Security.ts"

const id = { id: Merchant.MerchantId }

/** How an operator verifies while a secret is rotated, for the descriptions. */
export const overlapRule =
  "During the overlap every call to the operator (Details URL, wallet webhooks, callbacks) carries the signatures " +
  "of both secrets in `webhook-signature`, space separated, the new one first (`v1,<new> v1,<old> v1a,<new> " +
  "v1a,<old>`): an operator verifying with either secret accepts them (the `standardwebhooks` package tries each " +
  "`v1` signature). After `overlapUntil` only the new secret signs. A second rotation of the same secret drops " +
  "the first one's old secret at once."

/** A merchant's signing secrets: rotation with an overlap, and the reveal of the webhook secret (bearer). */
export class SecretsApi extends HttpApiGroup.make("secrets")
  .add(
    HttpApiEndpoint.post("rotate", "/merchants/:id/secrets/rotate", {
      params: id,
      payload: SecretRotation.RotateSecretRequest,
      success: SecretRotation.RotatedSecret,
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN", "MERCHANT_NOT_FOUND")
    })
      .annotate(OpenApi.Summary, "Rotate the webhook secret or the Ed25519 key pair")
      .annotate(
        OpenApi.Description,
        "Replaces the merchant's `encryptionKey` (the HMAC secret of the `v1` signatures; the new one is answered, " +
          "shown again only by `POST …/secrets/reveal`) or its Ed25519 pair (the `v1a` signatures; the new " +
          "public key is answered and published in `GET /merchants/{id}`, the private key never leaves the " +
          "gateway). " + overlapRule + " Recorded in the audit log (`secret.rotate`, never the values). Scope " +
          "`write:users`."
      ),
    HttpApiEndpoint.post("reveal", "/merchants/:id/secrets/reveal", {
      params: id,
      success: SecretRotation.RevealedSecret,
      error: Problem.responses("UNAUTHORIZED", "FORBIDDEN", "MERCHANT_NOT_FOUND")
    })
      .annotate(OpenApi.Summary, "Reveal the current webhook secret (audited)")
      .annotate(
        OpenApi.Description,
        "The merchant's current `encryptionKey`, for an admin to hand to the operator. Every reveal is recorded " +
          "in the audit log (`secret.reveal`, who and from where, never the value). The answer is not cached " +
          "(`cache-control: no-store`). Scope `write:users`."
      )
  )
  .middleware(AdminAuth)
  .prefix("/api/v1.1/operator-api")
  .annotate(OpenApi.Title, "Merchant secrets")
  .annotate(
    OpenApi.Description,
    "The secrets that sign the gateway's calls to a merchant's systems, for the provider's admins (bearer " +
      "`write:users`): rotation with an overlap in which both secrets sign, and the reveal of the webhook secret."
  )
{}
