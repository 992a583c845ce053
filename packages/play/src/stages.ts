import { t } from "./i18n/index.ts"
import { word } from "./outcomes.ts"
import { colours } from "@gateway/domain/games/Throws"
import { cap1, el, kids, land, reduced, rnd, wait } from "./dom.ts"
import type { Outcome } from "./types.ts"

/** The stage of a game: what it shows before a round, while the draw is awaited, and how it reveals the outcome. */
export interface Stage {
  idle(box: HTMLElement): void
  spin(box: HTMLElement): void
  reveal(box: HTMLElement, outcome: Outcome, selection: unknown): Promise<void>
}

const PIPS: ReadonlyArray<ReadonlyArray<number>> = [[], [4], [0, 8], [0, 4, 8], [0, 2, 6, 8], [0, 2, 4, 6, 8], [0, 2, 3, 5, 6, 8]]

/** Shows `v` pips on a die (a 3×3 grid of pips). */
const face = (d: Element, v: unknown) => {
  const on = PIPS[Number(v)] ?? []
  d.querySelectorAll("i").forEach((p, i) => p.classList.toggle("on", on.includes(i)))
}
const die = (v: number): HTMLElement => {
  const d = el("div", "die")
  for (let i = 0; i < 9; i++) d.append(el("i"))
  face(d, v)
  return d
}
const cube = (c: string): HTMLElement => el("div", "cube" + (c !== "" ? " c-" + c : ""), c !== "" ? cap1(c) : "?")

let spinTimer: ReturnType<typeof setInterval> | undefined
let spinStart = 0
/** Stops the spinning effect. */
export const spinStop = (): void => {
  clearInterval(spinTimer)
  spinTimer = undefined
}
const spinEvery = (ms: number, step: () => void) => {
  spinStop()
  spinStart = Date.now()
  if (reduced()) return
  step()
  spinTimer = setInterval(step, ms)
}
/** Lets the spin run at least `ms` in all, then stops it. */
const settle = async (ms: number) => {
  const left = ms - (Date.now() - spinStart)
  if (left > 0) await wait(left)
  spinStop()
}

const cells = (): Array<HTMLElement> => [...document.querySelectorAll<HTMLElement>("#controls .cell")]
/** Marks the grid's cells drawn so far, and the player's numbers among them. */
export const markCells = (drawn: ReadonlyArray<number>, hits: ReadonlyArray<number>): void => {
  for (const c of cells()) {
    const n = Number(c.dataset["n"])
    c.classList.toggle("drawn", drawn.includes(n))
    c.classList.toggle("hit", hits.includes(n))
  }
}
export { cells }

const numbers = (v: unknown): ReadonlyArray<number> => (Array.isArray(v) ? v.filter((n): n is number => typeof n === "number") : [])
const first = (box: HTMLElement): HTMLElement => kids(box)[0] ?? box.appendChild(el("div"))
const last = (box: HTMLElement): HTMLElement => kids(box).at(-1) ?? box.appendChild(el("div"))

/** One big ball: Odd Even and Single. */
export const ball: Stage = {
  idle: (box) => box.replaceChildren(el("div", "ball big", "?")),
  spin: (box) => {
    const b = first(box)
    box.classList.add("spin")
    spinEvery(70, () => {
      b.textContent = String(rnd(36) + 1)
    })
  },
  reveal: async (box, o, sel) => {
    await settle(700)
    box.classList.remove("spin")
    const b = first(box)
    const n = Number(o["number"])
    b.textContent = String(n)
    b.className = "ball big " + (n % 2 === 1 ? "odd" : "even") + (n === sel ? " hit" : "")
    land(b)
    if (typeof sel === "number") markCells([n], n === sel ? [sel] : [])
  }
}


/** Two dice and their total: Under Over. */
export const dice: Stage = {
  idle: (box) => box.replaceChildren(die(3), die(4), el("div", "total", t("twoDice"))),
  spin: (box) => {
    const [a, b] = box.querySelectorAll(".die")
    box.classList.add("spin")
    last(box).textContent = t("rolling")
    spinEvery(90, () => {
      if (a !== undefined) face(a, rnd(6) + 1)
      if (b !== undefined) face(b, rnd(6) + 1)
    })
  },
  reveal: async (box, o) => {
    await settle(800)
    box.classList.remove("spin")
    const thrown = numbers(o["dice"])
    box.querySelectorAll<HTMLElement>(".die").forEach((d, i) => {
      face(d, thrown[i])
      land(d)
    })
    const total = typeof o["total"] === "number" ? o["total"] : (thrown[0] ?? 0) + (thrown[1] ?? 0)
    const result = typeof o["result"] === "string" ? o["result"] : ""
    last(box).textContent = t("total", { total }) + (result !== "" ? " · " + word(result) : "")
  }
}

/** Three colour cubes: Color Game. */
export const cubes: Stage = {
  idle: (box) => box.replaceChildren(cube(""), cube(""), cube("")),
  spin: (box) => {
    box.classList.add("spin")
    spinEvery(110, () =>
      box.querySelectorAll(".cube").forEach((k) => {
        const c = colours[rnd(6)] ?? "red"
        k.className = "cube c-" + c
        k.textContent = cap1(c)
      }))
  },
  reveal: async (box, o, sel) => {
    await settle(900)
    box.classList.remove("spin")
    const shown = Array.isArray(o["dice"]) ? o["dice"].map(String) : []
    const ks = [...box.querySelectorAll<HTMLElement>(".cube")]
    for (let i = 0; i < ks.length; i++) {
      const k = ks[i]
      const c = shown[i] ?? ""
      if (k === undefined) continue
      k.className = "cube c-" + c + (c === sel ? " hit" : "")
      k.textContent = cap1(c)
      land(k)
      await wait(140)
    }
  }
}

/** `count` balls drawn one by one, `step` ms apart, marked on the grid as they come: Lotto and Mega Ten. */
export const draw = (count: number, size: string, step: number): Stage => ({
  idle: (box) => box.replaceChildren(...Array.from({ length: count }, () => el("div", "ball empty " + size, "?"))),
  spin: (box) => {
    for (const b of box.children) {
      b.className = "ball empty " + size
      b.textContent = "?"
    }
    box.classList.add("spin")
    markCells([], [])
    spinStart = Date.now()
  },
  reveal: async (box, o) => {
    await settle(400)
    box.classList.remove("spin")
    const hits = numbers(o["hits"])
    const drawn = numbers(o["drawn"])
    const shown: Array<number> = []
    const balls = kids(box)
    for (let i = 0; i < drawn.length; i++) {
      const n = drawn[i] ?? 0
      const b = balls[i] ?? box.appendChild(el("div"))
      b.className = "ball " + size + (hits.includes(n) ? " hit" : "")
      b.textContent = String(n)
      land(b)
      shown.push(n)
      markCells(shown, hits.filter((h) => shown.includes(h)))
      await wait(step)
    }
  }
})

/** A game the page does not know: its outcome's summary. */
export const text: Stage = {
  idle: (box) => box.replaceChildren(el("div", "total", "")),
  spin: (box) => {
    first(box).textContent = "…"
    spinStart = Date.now()
  },
  reveal: async (box, o) => {
    await settle(300)
    first(box).textContent = o.summary ?? ""
  }
}
