import type { FairRandom } from "../ports/FairRandom.ts"

/**
 * Block `i` of a round's random byte stream (32 bytes each in production).
 * Blocks are pulled in order, lazily, each at most once per {@link make}.
 */
export type Block = (index: number) => Uint8Array

/** Uniform numbers read from a round's byte stream, in the order a game asks for them. */
export interface Draws {
  /** A uniform integer in [0, n), 1 ≤ n ≤ 2^32, without modulo bias. */
  readonly int: (n: number) => number
  /** `k` distinct integers of [0, n) in draw order (a partial Fisher–Yates shuffle), k ≤ n ≤ 65536. */
  readonly sample: (k: number, n: number) => ReadonlyArray<number>
}

const TWO_32 = 2 ** 32

/** The largest n `sample` shuffles (it holds all n positions). */
const maxDeck = 65_536

const wordReader = (block: Block): () => number => {
  let index = 0
  let bytes = block(0)
  let offset = 0
  return () => {
    while (offset + 4 > bytes.length) {
      index += 1
      bytes = block(index)
      offset = 0
    }
    const b0 = bytes[offset] ?? 0
    const b1 = bytes[offset + 1] ?? 0
    const b2 = bytes[offset + 2] ?? 0
    const b3 = bytes[offset + 3] ?? 0
    offset += 4
    return b0 * 0x1000000 + ((b1 << 16) | (b2 << 8) | b3)
  }
}

const checkCount = (n: number): void => {
  if (!Number.isInteger(n) || n < 1 || n > TWO_32) throw new RangeError(`cannot draw from [0, ${n})`)
}

/**
 * Reads the stream 4 bytes at a time as unsigned 32-bit big-endian integers
 * x. `int(n)` rejects x ≥ ⌊2^32 / n⌋ × n and reads the next 4 bytes, else
 * answers x mod n. `sample(k, n)` shuffles [0, 1, …, n − 1] (n ≤ 65536): for
 * j = 0 … k − 1 it swaps position j with position j + int(n − j), then
 * answers positions 0 … k − 1. Both share one reading position, so a game's
 * draws follow each other through the stream.
 */
export const make = (block: Block): Draws => {
  let next: (() => number) | undefined
  const word = (): number => (next ??= wordReader(block))()
  const int = (n: number): number => {
    checkCount(n)
    const limit = Math.floor(TWO_32 / n) * n
    for (;;) {
      const x = word()
      if (x < limit) return x % n
    }
  }
  const sample = (k: number, n: number): ReadonlyArray<number> => {
    checkCount(n)
    if (n > maxDeck || !Number.isInteger(k) || k < 0 || k > n) throw new RangeError(`cannot draw ${k} of ${n}`)
    const deck: Array<number> = []
    for (let i = 0; i < n; i++) deck.push(i)
    for (let j = 0; j < k; j++) {
      const r = j + int(n - j)
      const picked = deck[r] ?? r
      deck[r] = deck[j] ?? j
      deck[j] = picked
    }
    deck.length = k
    return deck
  }
  return { int, sample }
}

/**
 * The HMAC message of block `index` of a round: `<clientSeed>:<nonce>` for
 * block 0, `<clientSeed>:<nonce>:<index>` for every later block.
 */
export const message = (clientSeed: string, nonce: number, index: number): string =>
  index === 0 ? `${clientSeed}:${nonce}` : `${clientSeed}:${nonce}:${index}`

/**
 * A round's byte stream: block i = HMAC-SHA256(key = the server seed text,
 * message = {@link message}(clientSeed, nonce, i)), each computed once.
 */
export const streamFor = (
  fair: FairRandom["Service"],
  serverSeed: string,
  clientSeed: string,
  nonce: number
): Block => {
  const blocks: Array<Uint8Array> = []
  return (index) => blocks[index] ??= fair.hmacSha256(serverSeed, message(clientSeed, nonce, index))
}

/** The draws of a round: {@link make} over {@link streamFor}. */
export const forRound = (fair: FairRandom["Service"], serverSeed: string, clientSeed: string, nonce: number): Draws =>
  make(streamFor(fair, serverSeed, clientSeed, nonce))
