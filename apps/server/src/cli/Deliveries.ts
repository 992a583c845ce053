import { Effect, Option, Schema } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { DeliveryStatus, ListedDelivery } from "@gateway/domain/Delivery"
import { DeliveryQueue } from "@gateway/domain/ports/DeliveryQueue"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { decodeMerchantId, merchantId } from "./Merchants.ts"
import { printJson } from "./Output.ts"
import { Repositories } from "./Repositories.ts"

const encodeDelivery = Schema.encodeSync(ListedDelivery)

const list = Command.make(
  "list",
  {
    merchantId,
    status: Flag.Literals("status", DeliveryStatus.literals).pipe(
      Flag.withDescription("pending (waiting to be sent or retried), delivered or failed (retries used up) (default: every status)"),
      Flag.optional
    ),
    limit: Flag.Int("limit").pipe(Flag.withDescription("At most this many messages, 1 to 500 (default 50)"), Flag.withDefault(50))
  },
  ({ merchantId, status, limit }) =>
    Effect.gen(function*() {
      const id = yield* decodeMerchantId(merchantId)
      const bounded = yield* Schema.decodeUnknownEffect(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 500 })))(limit)
      yield* (yield* MerchantRepo).findById(id)
      const listed = yield* (yield* DeliveryQueue).list(id, Option.getOrUndefined(status), bounded)
      yield* printJson(listed.map((delivery) => encodeDelivery(delivery)))
    }).pipe(Effect.provide(Repositories))
).pipe(Command.withDescription("List a merchant's webhook messages, newest first, with attempts and last error"))

const redeliver = Command.make(
  "redeliver",
  {
    merchantId,
    deliveryId: Argument.String("delivery-id").pipe(Argument.withDescription("The failed message's id (its webhook-id)"))
  },
  ({ merchantId, deliveryId }) =>
    Effect.gen(function*() {
      const id = yield* decodeMerchantId(merchantId)
      yield* (yield* MerchantRepo).findById(id)
      const text = yield* Schema.decodeUnknownEffect(Schema.String.check(Schema.isMaxLength(64)))(deliveryId)
      const queued = yield* (yield* DeliveryQueue).redeliver(id, text)
      if (!queued) return yield* Effect.fail(new Error(`merchant ${id} has no failed webhook delivery with id ${JSON.stringify(text)}`))
      yield* printJson({ id: text, status: "pending" })
    }).pipe(Effect.provide(Repositories))
).pipe(Command.withDescription("Queue a failed webhook message again, due now, same webhook-id and body, fresh retry schedule"))

/** `gateway deliveries list|redeliver`. */
export const deliveries = Command.make("deliveries").pipe(
  Command.withDescription("The webhook outbox of a merchant"),
  Command.withSubcommands([list, redeliver])
)
