/** What an element is made of: text (always as text, never HTML), nodes, or nothing. */
export type Child = Node | string | number | null | undefined | false

/** Attributes (a `false`/`undefined` one is left out) and `on<event>` listeners. */
export type Props = Readonly<Record<string, string | number | boolean | undefined | ((event: Event) => void)>>

const fill = (el: Element, props: Props, children: ReadonlyArray<Child>): void => {
  for (const [name, value] of Object.entries(props)) {
    if (typeof value === "function") el.addEventListener(name.slice(2), value)
    else if (value === true) el.setAttribute(name, "")
    else if (value !== false && value !== undefined) el.setAttribute(name, String(value))
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    el.append(typeof child === "object" ? child : document.createTextNode(String(child)))
  }
}

/** An HTML element with its attributes, listeners and children. */
export const h = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: ReadonlyArray<Child>): HTMLElementTagNameMap[K] => {
  const el = document.createElement(tag)
  fill(el, props, children)
  return el
}

/** An SVG element (charts). */
export const svg = (tag: string, props: Props = {}, ...children: ReadonlyArray<Child>): SVGElement => {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag)
  fill(el, props, children)
  return el
}

/** The element with this id (the shell's); throws when the shell lacks it. */
export const byId = (id: string): HTMLElement => {
  const el = document.getElementById(id)
  if (el === null) throw new Error(`#${id} is missing`)
  return el
}

/** Tells screen readers something without moving focus. */
export const announce = (text: string): void => {
  const live = byId("live")
  live.textContent = ""
  setTimeout(() => (live.textContent = text), 30)
}

/** A section's heading and its content. */
export const section = (title: string, ...children: ReadonlyArray<Child>): HTMLElement =>
  h("section", { class: "card" }, h("h2", {}, title), ...children)

/** A table with a caption, column heads and rows of cells. */
export const table = (caption: string, heads: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<Child>>): HTMLElement =>
  h(
    "div",
    { class: "scroll", role: "region", "aria-label": caption, tabindex: 0 },
    h(
      "table",
      {},
      h("caption", {}, caption),
      h("thead", {}, h("tr", {}, ...heads.map((head) => h("th", { scope: "col" }, head)))),
      h("tbody", {}, ...rows.map((cells) => h("tr", {}, ...cells.map((cell, i) => h("td", { "data-label": heads[i] ?? "" }, cell)))))
    )
  )

/** A definition list of label and value pairs. */
export const facts = (pairs: ReadonlyArray<readonly [string, Child]>): HTMLElement =>
  h("dl", { class: "facts" }, ...pairs.flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, value)]))
