import { Deferred, Effect, Exit, FiberSet } from "effect"

/** How a {@link make} batcher groups its items. */
export interface BatchOptions<In, Out, E> {
  /** At most this many items in one batch (one statement). */
  readonly maxItems: number
  /** At most this many batches running at once; more items wait and join the next batch. */
  readonly lanes: number
  /**
   * Items of one key never run at once: at most one per batch, and none while a batch with its key runs (a
   * statement locks its rows in no set order, so two batches sharing rows could deadlock).
   */
  readonly key: (item: In) => string
  /** Runs one batch: one result per item, in the items' order. */
  readonly run: (items: ReadonlyArray<In>) => Effect.Effect<ReadonlyArray<Out>, E>
}

interface Waiting<In, Out, E> {
  readonly item: In
  readonly key: string
  readonly done: Deferred.Deferred<Out, E>
}

/**
 * Group commit for the bet path (issue 22): each item waits for the batch it joins, and a batch is one statement,
 * so one transaction. Nothing waits on purpose: an item runs at once in a batch of its own when a lane is free;
 * only while every lane is busy do the items that arrive meanwhile gather, and the next free lane takes them
 * together. Under load, rounds share statements and commits (fewer round trips, fewer WAL flushes); alone, a
 * round costs what it did. A batch that fails is run again item by item, so each item's outcome is its own,
 * whatever the others'. Scoped: the lanes stop with the scope, interrupting what waits.
 */
export const make = Effect.fnUntraced(function*<In, Out, E>(options: BatchOptions<In, Out, E>) {
  const fibers = yield* FiberSet.make()
  // Lanes run in the context the batcher was made in, not in that of the request whose item started them: a
  // lane serves everyone's items, and its statements belong to no one round's trace.
  const fork = yield* FiberSet.runtime(fibers)<never>()
  const waiting: Array<Waiting<In, Out, E>> = []
  const running = new Set<string>()
  let lanes = 0

  /** The next batch: waiting items in arrival order, one per key, none of a key running. */
  const take = (): Array<Waiting<In, Out, E>> => {
    const batch: Array<Waiting<In, Out, E>> = []
    for (let i = 0; i < waiting.length && batch.length < options.maxItems;) {
      const next = waiting[i]!
      if (running.has(next.key)) {
        i++
        continue
      }
      running.add(next.key)
      batch.push(next)
      waiting.splice(i, 1)
    }
    return batch
  }

  /**
   * One exit per item. A batch of several that fails is run again item by item, so that an item the statement
   * refuses (a defect: a transaction id booked twice) fails alone and the others' outcomes are their own.
   */
  const runAll = (items: ReadonlyArray<In>): Effect.Effect<ReadonlyArray<Exit.Exit<Out, E>>> =>
    Effect.flatMap(Effect.exit(options.run(items)), (exit) => {
      if (Exit.isSuccess(exit)) {
        return Effect.succeed(items.map((_, i) =>
          i < exit.value.length
            ? Exit.succeed(exit.value[i] as Out)
            : Exit.die(new Error("a batch answered fewer items than it took"))
        ))
      }
      if (items.length === 1 || Exit.hasInterrupts(exit)) return Effect.succeed(items.map(() => Exit.failCause(exit.cause)))
      return Effect.forEach(items, (item) => Effect.map(runAll([item]), (exits) => exits[0]!))
    })

  /** Each item of `batch` gets its exit (the last one when fewer were given: an interrupted batch). */
  const settle = (batch: ReadonlyArray<Waiting<In, Out, E>>, exits: ReadonlyArray<Exit.Exit<Out, E>>) => {
    batch.forEach((entry, i) => {
      running.delete(entry.key)
      Deferred.doneUnsafe(entry.done, exits[Math.min(i, exits.length - 1)]!)
    })
  }

  /** A lane: runs batches while items wait, then ends. */
  const lane: Effect.Effect<void> = Effect.suspend(() => {
    const batch = take()
    if (batch.length === 0) {
      lanes--
      return Effect.void
    }
    return runAll(batch.map((entry) => entry.item)).pipe(
      Effect.onInterrupt(() => Effect.sync(() => settle(batch, [Exit.interrupt()]))),
      Effect.flatMap((exits) => Effect.sync(() => settle(batch, exits))),
      Effect.andThen(lane)
    )
  })

  // Stopping: items that never ran are interrupted rather than left waiting.
  yield* Effect.addFinalizer(() =>
    Effect.sync(() => {
      for (const entry of waiting.splice(0)) Deferred.doneUnsafe(entry.done, Exit.interrupt())
    })
  )

  /** Runs `item` in the next batch it can join, and answers its own result. */
  const submit = (item: In): Effect.Effect<Out, E> =>
    Effect.suspend(() => {
      const done = Deferred.makeUnsafe<Out, E>()
      waiting.push({ item, key: options.key(item), done })
      if (lanes < options.lanes) {
        lanes++
        fork(lane)
      }
      return Deferred.await(done)
    })
  return submit
})
