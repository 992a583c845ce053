import { Context, Effect } from "effect"

/** What the services of `Keys` provide. */
type Provided<Keys extends ReadonlyArray<Context.Key<any, any>>> = Context.Service.Identifier<Keys[number]>

/**
 * The services of `keys`, captured while a layer is built, as a function that
 * provides them to a request's effect. Each is added as an overlay, a
 * constant cost per request, where `Effect.provideContext` would copy every
 * service of the request's context on every call (a measurable share of a
 * cached `games` page).
 */
export const capture = <const Keys extends ReadonlyArray<Context.Key<any, any>>>(...keys: Keys) =>
  Effect.map(Effect.context<Provided<Keys>>(), (context) => {
    const services = keys.map((key) => [key, Context.getUnsafe(context, key)] as const)
    return <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, Exclude<R, Provided<Keys>>> =>
      Effect.updateContext(
        self,
        (current: Context.Context<Exclude<R, Provided<Keys>>>) =>
          services.reduce<Context.Context<any>>((acc, [key, value]) => Context.add(acc, key, value), current)
      )
  })
