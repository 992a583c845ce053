import { Schema, SchemaAST } from "effect"
import * as Webhooks from "./Webhooks.ts"

/**
 * The `webhooks` section of `/openapi.json` (OpenAPI 3.1): one Path Item per
 * call the gateway makes to an operator — `details`, `shop`, `transaction.debit`,
 * `transaction.credit`, `transaction.refund`, `webhook.test`, and the
 * callbacks `session.started`, `session.ended`, `round.settled` — with the
 * signature headers, the body and the answers the gateway acts on. Bodies are
 * generated from the Schemas of `Webhooks.ts` into `components.schemas`.
 */

const tag = "Calls to the operator"

const tagDescription = "What the gateway sends to the operator's Details URLs (player and shop), wallet webhook URLs and callbackUrl " +
  "(the `webhooks` section). Every call is a JSON `POST` signed by the Standard Webhooks scheme; verify it with " +
  "the npm `standardwebhooks` package and the merchant's `encryptionKey` (`v1`, HMAC-SHA256), or with its " +
  "`publicKey` (`v1a`, Ed25519), over `<webhook-id>.<webhook-timestamp>.<raw body>`, and refuse a timestamp more " +
  "than 5 minutes away. New fields may be added to the bodies: ignore the ones you do not know. A runnable " +
  "operator: `examples/operator/` in the repository."

const header = (name: string, description: string, example: string, pattern?: string) => ({
  name,
  in: "header",
  required: true,
  description,
  example,
  schema: { type: "string", ...(pattern === undefined ? {} : { pattern }) }
})

const signatureHeaders = (id: string) => [
  header("webhook-id", id, "msg_9d2c4e1a-5b7f-4c3d-8e9a-1b2c3d4e5f60"),
  header("webhook-timestamp", "Unix seconds when this attempt was signed (each retry is signed afresh).", "1795599737", "^[0-9]{1,12}$"),
  header(
    "webhook-signature",
    "Space-separated signatures of `<webhook-id>.<webhook-timestamp>.<raw body>`: `v1,<base64 HMAC-SHA256 with the " +
      "encryptionKey>` and `v1a,<base64 Ed25519 with the merchant's private key>`. Any one that verifies is enough. " +
      "While a rotated secret's overlap lasts (`POST /merchants/{id}/secrets/rotate`) the old one signs too, after " +
      "the new one: `v1,<new> v1,<old> v1a,<new> v1a,<old>`.",
    "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4= v1a,hnO3f9T8Ytu9HwNXszfzIK0gCpO0nQu8xkcJ0Fs1Kzsm2d0Yk2Jc0m7MMi8xnm0eY1eWG5eG2j8sKQvXyJwYDw=="
  ),
  {
    name: "traceparent",
    in: "header",
    required: false,
    description: "W3C Trace Context of this call, only when the gateway exports traces (`OTEL_EXPORTER_OTLP_ENDPOINT`): " +
      "continue the trace in your own spans to see our request and yours as one. Not signed.",
    example: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    schema: { type: "string", pattern: "^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$" }
  }
]

const ref = (schema: Schema.Top) => {
  const identifier = SchemaAST.resolveIdentifier(schema.ast)
  if (identifier === undefined) throw new Error("a webhook body schema needs an identifier")
  return { $ref: `#/components/schemas/${identifier}` }
}

const json = (schema: Schema.Top) => ({ content: { "application/json": { schema: ref(schema) } } })

const retried = "The gateway retries it with the same `webhook-id` and body until a 2xx: after 5 s, 5 min, 30 min, 2 h, " +
  "5 h, 10 h, 14 h, 20 h and 24 h (with jitter; `WEBHOOK_RETRY_SCHEDULE` changes it), honouring `Retry-After`; then the " +
  "message is `failed`, listed by `GET …/merchants/{id}/webhook-deliveries?status=failed` and re-deliverable by an admin. " +
  "Messages are written in the same database transaction as the ledger row that causes them: none is lost."

const idempotent = "`data.transactionId` (= `webhook-id`) is the idempotency key: answer a repeat with the first " +
  "answer (same status and body) and move no money twice."

const notAccepted = (what: string) => ({ description: `Not accepted: ${what}` })

const callbackRetried = "Sent to the merchant's `callbackUrl` only (none set: no event is written at all), signed and " +
  "queued exactly like the wallet's credits: " + retried.replace("the ledger row that causes them", "what causes them") +
  " `webhook-id` is the event's id: answer a repeat as the first. The body is informational: the answer's body is not read."

const received = {
  "200": { description: "Received (any 2xx; the body is not read)." },
  "4XX": notAccepted("retried."),
  "5XX": notAccepted("retried.")
}

const operations = {
  details: {
    operationId: "operator.details",
    summary: "Details URL: who is this player? (userDetailsUrl)",
    description: "Called at a real-mode launch and again when the launch token is redeemed. The answer's " +
      "`playerId` must be the one asked; `currency` must be the merchant's currency (else the launch is 422 " +
      "CURRENCY_MISMATCH); `balance` is shown to the player. Time-out `DETAILS_TIMEOUT_MS` (5 s): the launch is 504 " +
      "OPERATOR_TIMEOUT. Never retried. Its time-outs, 5xx and network errors count towards the merchant's circuit " +
      "breaker (docs/operations.md): once it opens, launches answer 503 OPERATOR_UNAVAILABLE without calling.",
    id: "`msg_<uuid>`, new for every call.",
    body: Webhooks.DetailsRequest,
    responses: {
      "200": { description: "The player. `status: \"blocked\"` refuses the launch (422 PLAYER_REJECTED).", ...json(Webhooks.DetailsReply) },
      "4XX": notAccepted("the player is unknown or blocked; the launch is 422 PLAYER_REJECTED."),
      "5XX": notAccepted("the launch is 502 OPERATOR_BAD_RESPONSE (so is an unreachable URL, a redirect or a body that does not parse).")
    }
  },
  shop: {
    operationId: "operator.shop",
    summary: "Shop Details URL: which retail shop is this? (shopDetailsUrl)",
    description: "Called at a real-mode launch with a `shopId` (CONTRACT §11), after the player's Details call and " +
      "before the token is signed (a merchant without `shopDetailsUrl`: the launch is 422 SHOP_DETAILS_URL_NOT_SET " +
      "and nothing is called). The answer's `shopId` must be the one asked; `currency` must be the merchant's (else " +
      "422 CURRENCY_MISMATCH); `name` is shown on the cashier's page; `minimumStake` / `maximumStake` narrow the " +
      "merchant's stake limits for the session. The shop travels with the session: every wallet message of its " +
      "rounds carries `data.shopId`, and the reports group and filter by it. Time-out `DETAILS_TIMEOUT_MS` (5 s): " +
      "504 OPERATOR_TIMEOUT. Never retried.",
    id: "`msg_<uuid>`, new for every call.",
    body: Webhooks.ShopRequest,
    responses: {
      "200": { description: "The shop. `status: \"blocked\"` refuses the launch (422 SHOP_REJECTED).", ...json(Webhooks.ShopReply) },
      "4XX": notAccepted("the shop is unknown or blocked; the launch is 422 SHOP_REJECTED."),
      "5XX": notAccepted("the launch is 502 OPERATOR_BAD_RESPONSE (so is an unreachable URL, a redirect or a body that does not parse).")
    }
  },
  "transaction.debit": {
    operationId: "operator.transaction.debit",
    summary: "A bet: take the stake (debitWebhookUrl, else webhookUrl)",
    description: "Synchronous and never retried: the round waits for it (time-out `WEBHOOK_TIMEOUT_MS`, 5 s). " +
      `${idempotent} A time-out, 5xx, redirect or network error is an unknown outcome: the bet is rejected ` +
      "(502 WALLET_UNAVAILABLE) and a `transaction.refund` of this debit is queued, so take it only once and give " +
      "it back when the refund comes. Those failures count towards the merchant's circuit breaker: while it is open no " +
      "debit is sent, the bet is 503 OPERATOR_UNAVAILABLE and no refund is needed.",
    id: "The debit's `data.transactionId`.",
    body: Webhooks.DebitMessage,
    responses: {
      "200": { description: "Taken (any 2xx): the balance after the debit.", ...json(Webhooks.BalanceReply) },
      "402": notAccepted("insufficient funds. The bet is refused (402 BET_REFUSED) and nothing else is sent."),
      "4XX": notAccepted("refused (limits, unknown or blocked player …): as 402."),
      "5XX": notAccepted("unknown outcome: the bet is rejected and a refund of this debit is queued.")
    }
  },
  "transaction.credit": {
    operationId: "operator.transaction.credit",
    summary: "A round's result: pay the win (creditWebhookUrl, else webhookUrl)",
    description: `Settles the debit \`data.refTransactionId\`; a credit of \`"0.00"\` closes a lost round. The win of a free round (CONTRACT §13) is a credit without \`refTransactionId\` that carries \`data.freeRound\` \`{campaignId, grantId}\`: no debit was sent for it, and a free round that loses sends no credit (only its \`round.settled\`, with a \`callbackUrl\`). Every credit carries the round's \`roundDetailsUrl\`. ${idempotent} ${retried}`,
    id: "The credit's `data.transactionId`.",
    body: Webhooks.CreditMessage,
    responses: {
      "200": { description: "Accepted (any 2xx): the balance after the credit.", ...json(Webhooks.BalanceReply) },
      "4XX": notAccepted("retried like a 5xx (a credit cannot be refused)."),
      "5XX": notAccepted("retried.")
    }
  },
  "transaction.refund": {
    operationId: "operator.transaction.refund",
    summary: "Give a stake back (refundWebhookUrl, else webhookUrl)",
    description: "Reverses the debit `data.refTransactionId` whose outcome the gateway does not know (it timed out " +
      "or failed): give the amount back if that debit was taken, else take nothing and answer 2xx — and refuse " +
      `that debit should it arrive later. ${idempotent} ${retried}`,
    id: "The refund's `data.transactionId`.",
    body: Webhooks.RefundMessage,
    responses: {
      "200": { description: "Accepted (any 2xx): the balance after the refund.", ...json(Webhooks.BalanceReply) },
      "4XX": notAccepted("retried like a 5xx."),
      "5XX": notAccepted("retried.")
    }
  },
  "webhook.test": {
    operationId: "operator.webhook.test",
    summary: "A ping an admin sends (creditWebhookUrl, else webhookUrl)",
    description: "Sent by `POST …/merchants/{id}/webhook-test` to check the URL and the signature; moves no money. " +
      retried,
    id: "`test_<uuid>`, the `deliveryId` the admin API answered.",
    body: Webhooks.TestMessage,
    responses: {
      "200": { description: "Received (any 2xx; the body is not read)." },
      "4XX": notAccepted("retried."),
      "5XX": notAccepted("retried.")
    }
  },
  "session.started": {
    operationId: "operator.session.started",
    summary: "A player's session opened (callbackUrl)",
    description: "A real-mode launch token was redeemed: the game page is open. Demo sessions are not reported. " +
      callbackRetried,
    id: "A new UUID for this event.",
    body: Webhooks.SessionStartedMessage,
    responses: received
  },
  "session.ended": {
    operationId: "operator.session.ended",
    summary: "A player's session ended, with its totals (callbackUrl)",
    description: "A real-mode session ended: idle for `GAME_SESSION_IDLE_SECONDS` (reported within seconds of its " +
      "expiry, by a sweep), or ended by the operator. `rounds`, `bets` and `wins` are the session's settled rounds, their " +
      "stakes and their payouts (a free round's stake is not a bet: it was never debited). A shop session's events " +
      "(all three) carry its `shopId` (CONTRACT §11). " + callbackRetried,
    id: "A new UUID for this event.",
    body: Webhooks.SessionEndedMessage,
    responses: received
  },
  "round.settled": {
    operationId: "operator.round.settled",
    summary: "A round was settled, with its link (callbackUrl)",
    description: "A real-money round was settled: written in the same transaction as the round's ledger rows and its " +
      "`transaction.credit`. A free round (CONTRACT §13) sends it too, a loss included (which sends no credit), " +
      "flagged by `data.freeRound` `{campaignId, grantId}` as its win's credit is; its `stake` is the grant's stake, " +
      "never debited. A shop session's round carries its `shopId`. `roundDetailsUrl` opens the round's page (selection, outcome, payout, and its proof " +
      "once the server seed is revealed). " + callbackRetried,
    id: "A new UUID for this event.",
    body: Webhooks.RoundSettledMessage,
    responses: received
  }
} as const

/** The JSON Schemas of the bodies, by identifier, with `$ref`s into `components.schemas`. */
const componentSchemas = (): Record<string, unknown> => {
  const bodies = [
    Webhooks.DetailsRequest,
    Webhooks.DetailsReply,
    Webhooks.ShopRequest,
    Webhooks.ShopReply,
    Webhooks.DebitMessage,
    Webhooks.CreditMessage,
    Webhooks.RefundMessage,
    Webhooks.TestMessage,
    Webhooks.BalanceReply,
    Webhooks.SessionStartedMessage,
    Webhooks.SessionEndedMessage,
    Webhooks.RoundSettledMessage
  ]
  const schemas: Record<string, unknown> = {}
  for (const body of bodies) Object.assign(schemas, Schema.toJsonSchemaDocument(body).definitions)
  return JSON.parse(JSON.stringify(schemas).replaceAll("\"#/$defs/", "\"#/components/schemas/"))
}

/** The `webhooks` map: one Path Item with a `post` operation per call. */
export const webhooks = (): Record<string, unknown> =>
  Object.fromEntries(Object.entries(operations).map(([name, op]) => [name, {
    post: {
      tags: [tag],
      operationId: op.operationId,
      summary: op.summary,
      description: op.description,
      parameters: signatureHeaders(op.id),
      requestBody: { required: true, ...json(op.body) },
      responses: op.responses
    }
  }]))

/**
 * `OpenApi.Transform` of the Api: adds the `webhooks` section, its tag and its
 * schemas. A schema name already in the document must be the same schema.
 */
export const withWebhooks = (spec: Record<string, any>): Record<string, any> => {
  const existing: Record<string, unknown> = spec["components"]?.schemas ?? {}
  const added = componentSchemas()
  for (const [name, schema] of Object.entries(added)) {
    if (name in existing && JSON.stringify(existing[name]) !== JSON.stringify(schema)) {
      throw new Error(`the webhook schema ${name} differs from the API's schema of that name`)
    }
  }
  return {
    ...spec,
    webhooks: webhooks(),
    tags: [...(spec["tags"] ?? []), { name: tag, description: tagDescription }],
    components: { ...spec["components"], schemas: { ...existing, ...added } }
  }
}
