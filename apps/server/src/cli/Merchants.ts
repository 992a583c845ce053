import { Effect, Option, Schema } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import {
  AccountStatus,
  CreateMerchantRequest,
  Merchant,
  MerchantCreated,
  MerchantId,
  maxMerchantSearchLength
} from "@gateway/domain/Merchant"
import { cliActor } from "@gateway/domain/Audit"
import { MerchantRepo } from "@gateway/domain/ports/MerchantRepo"
import { changeStatusAudited, createMerchantAudited } from "@gateway/domain/usecases/AuditedChanges"
import { listMerchants } from "@gateway/domain/usecases/ListMerchants"
import { printJson } from "./Output.ts"
import { Repositories } from "./Repositories.ts"

/** The `<merchant-id>` argument, decoded as the API decodes a merchant id. */
export const merchantId = Argument.Int("merchant-id").pipe(Argument.withDescription("The merchant's id (a positive integer)"))
export const decodeMerchantId = Schema.decodeUnknownEffect(MerchantId)

const encodeMerchant = Schema.encodeSync(Merchant)

const create = Command.make(
  "create",
  {
    country: Flag.String("country").pipe(
      Flag.atLeast(1),
      Flag.withDescription("ISO 3166-1 alpha-2 code of a country it operates in (required; repeat for several)")
    ),
    company: Flag.String("company").pipe(Flag.withDescription("Company name (required)")),
    email: Flag.String("email").pipe(Flag.withDescription("Contact e-mail, unique in any case (required)")),
    providerId: Flag.Int("provider-id").pipe(Flag.withDescription("The provider's id (default 1)"), Flag.withDefault(1))
  },
  ({ country, company, email, providerId }) =>
    Effect.gen(function*() {
      const request = yield* Schema.decodeUnknownEffect(CreateMerchantRequest)({
        countryCodes: country,
        companyName: company,
        email,
        providerId
      })
      const created = yield* createMerchantAudited(request, cliActor)
      yield* printJson(Schema.encodeSync(MerchantCreated)(created))
    }).pipe(Effect.provide(Repositories))
).pipe(Command.withDescription("Create a merchant and print it with its credentials (shown once)"))

const list = Command.make(
  "list",
  {
    search: Flag.String("search").pipe(
      Flag.withDescription(`Part of the e-mail or company name, any case, at most ${maxMerchantSearchLength} characters (default: every merchant)`),
      Flag.optional
    ),
    status: Flag.Literals("status", AccountStatus.literals).pipe(
      Flag.withDescription("Only merchants of this account status (default: any status)"),
      Flag.optional
    ),
    page: Flag.Int("page").pipe(Flag.withDescription("Page number, from 1 (default 1)"), Flag.withDefault(1)),
    limit: Flag.Int("limit").pipe(Flag.withDescription("Merchants per page, 1 to 100 (default 20)"), Flag.withDefault(20))
  },
  ({ search, status, page, limit }) =>
    Effect.gen(function*() {
      const query = yield* Schema.decodeUnknownEffect(Schema.Struct({
        search: Schema.optional(Schema.String.check(Schema.isMaxLength(maxMerchantSearchLength))),
        status: Schema.optional(AccountStatus),
        page: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1_000_000 })),
        limit: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))
      }))({ search: Option.getOrUndefined(search), status: Option.getOrUndefined(status), page, limit })
      const found = yield* listMerchants(query)
      yield* printJson({ data: found.data.map((merchant) => encodeMerchant(merchant)), meta: found.meta })
    }).pipe(Effect.provide(Repositories))
).pipe(Command.withDescription("List merchants, newest first, with paging metadata"))

const show = Command.make("show", { merchantId }, ({ merchantId }) =>
  Effect.gen(function*() {
    const merchant = yield* (yield* MerchantRepo).findById(yield* decodeMerchantId(merchantId))
    yield* printJson(encodeMerchant(merchant))
  }).pipe(Effect.provide(Repositories))).pipe(Command.withDescription("Print a merchant with its settings (no secrets)"))

const status = Command.make(
  "status",
  {
    merchantId,
    status: Argument.Literals("status", AccountStatus.literals).pipe(
      Argument.withDescription("The new account status: active, suspended (its keys refused) or closed (for good)")
    )
  },
  ({ merchantId, status }) =>
    Effect.gen(function*() {
      const merchant = yield* changeStatusAudited(yield* decodeMerchantId(merchantId), status, cliActor)
      yield* printJson({ id: merchant.id, accountStatus: merchant.accountStatus })
    }).pipe(Effect.provide(Repositories))
).pipe(Command.withDescription("Change a merchant's account status (a closed merchant stays closed)"))

/** `gateway merchant create|list|show|status`. */
export const merchant = Command.make("merchant").pipe(
  Command.withDescription("Merchant accounts"),
  Command.withSubcommands([create, list, show, status])
)
