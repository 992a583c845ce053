/** DOM helpers: every text is set with `textContent`, never parsed as HTML. */

/** The element with this id, of this kind (the page's markup has every id the code asks for). */
export const byId = <T extends HTMLElement>(id: string, kind: new() => T): T => {
  const found = document.getElementById(id)
  if (!(found instanceof kind)) throw new Error(`no ${kind.name} #${id} on the page`)
  return found
}
export const $ = (id: string): HTMLElement => byId(id, HTMLElement)
export const $input = (id: string): HTMLInputElement => byId(id, HTMLInputElement)
export const $select = (id: string): HTMLSelectElement => byId(id, HTMLSelectElement)

/** The element children of `box` (the page builds them all as HTML elements). */
export const kids = (box: Element): Array<HTMLElement> => [...box.children].filter((e) => e instanceof HTMLElement)

/** A new element with a class and a text. */
export const el = <K extends keyof HTMLElementTagNameMap>(tag: K, cls = "", text?: string | number): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag)
  if (cls !== "") e.className = cls
  if (text !== undefined) e.textContent = String(text)
  return e
}

/** A `type=button` button. */
export const btn = (cls: string, text?: string | number, onClick?: () => void): HTMLButtonElement => {
  const b = el("button", cls, text)
  b.type = "button"
  if (onClick !== undefined) b.addEventListener("click", onClick)
  return b
}

/** Sets a toggle button's `aria-pressed`. */
export const pressed = (b: Element, on: boolean): void => b.setAttribute("aria-pressed", on ? "true" : "false")

/** Whether the player asked for less motion. */
export const reduced = (): boolean => window.matchMedia("(prefers-reduced-motion: reduce)").matches

/** Whether the side panel is a column beside the game (desktop) rather than over it. */
export const wide = (): boolean => window.matchMedia("(min-width: 860px)").matches

/** Waits `ms` (nothing under reduced motion). */
export const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, reduced() ? 0 : ms))

/** Restarts an element's `land` animation. */
export const land = (e: HTMLElement): void => {
  e.classList.remove("land")
  void e.offsetWidth
  e.classList.add("land")
}

/** A uniform integer below n for the page's own effects (never a round's draw). */
export const rnd = (n: number): number => (crypto.getRandomValues(new Uint32Array(1))[0] ?? 0) % n

/** "red" -> "Red". */
export const cap1 = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1)
