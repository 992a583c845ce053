import { call } from "../api.ts"
import { announce, h, section } from "../dom.ts"
import { type FieldSpec, form, type Form, plain } from "../form.ts"
import type { Settings } from "../types.ts"

type Key = keyof Settings & string

/** A setting edited as text: its name, label and hint. */
type TextSetting = readonly [Key, string, string]
/** A setting edited as a checkbox: its name and label. */
type FlagSetting = readonly [Key, string]

const text: ReadonlyArray<TextSetting> = [
  ["webhookUrl", "Wallet webhook URL", "Debits, credits, refunds and test pings are sent here."],
  ["debitWebhookUrl", "Debit URL", "With separate URLs: debits go here (else to the wallet webhook URL)."],
  ["creditWebhookUrl", "Credit URL", "With separate URLs: credits and test pings go here (else to the wallet webhook URL)."],
  ["refundWebhookUrl", "Refund URL", "With separate URLs: refunds go here (else to the wallet webhook URL)."],
  ["userDetailsUrl", "Details URL", "Asked who a player is at each real-money launch."],
  ["shopDetailsUrl", "Shop details URL", "Asked about the shop at each launch with a shopId; leave empty without shops."],
  ["callbackUrl", "Callback URL", "Session and round events; leave empty for none."],
  ["minimumStake", "Smallest stake", "In your currency, e.g. 1 or 0.50."],
  ["maximumStake", "Largest stake", "In your currency."],
  ["logo1xUrl", "Logo", "An https image shown at the top of the game page."],
  ["logo2xUrl", "Logo for sharp screens", "The same logo at twice the size."],
  ["cupImageUrl", "Cup image", "An https image shown with wins."],
  ["fontFamilyUrl", "Font", "An https web font file (.woff2) or font style sheet."],
  ["frameAncestors", "Sites that may frame the game", "Origins separated by spaces, * for any, 'none' for none."]
]

/** Checkboxes, each shown before the text setting named with it. */
const flags: ReadonlyArray<readonly [FlagSetting, Key]> = [
  [["isSeperateWebhookUrl", "Separate URLs for debits, credits and refunds"], "debitWebhookUrl"],
  [["hideBalance", "Hide the player's balance"], "minimumStake"]
]

const branding: ReadonlyArray<Key> = ["logo1xUrl", "logo2xUrl", "cupImageUrl", "fontFamilyUrl", "hideBalance", "minimumStake", "maximumStake"]

const shown = (value: unknown): string => (value === undefined || value === null ? "" : String(value))

/** What the game page will look like with these settings: logo, balance, stake limits, cup and font. */
const preview = (): { readonly el: HTMLElement; readonly update: (f: Form) => void } => {
  const logo = h("img", { alt: "Your logo", class: "logo", hidden: true })
  const balance = h("span", { class: "balance" }, "Balance 1,000.00")
  const limits = h("span", { class: "limits" })
  const cup = h("img", { alt: "Your cup image", class: "cup", hidden: true })
  const page = h("div", { class: "game-preview" },
    h("div", { class: "bar" }, logo, h("b", {}, "Odd Even"), balance),
    h("div", { class: "stage" }, cup, h("span", { class: "ball" }, "17")),
    h("div", { class: "bet" }, h("span", {}, "Stake"), limits, h("span", { class: "play" }, "Play")))
  let font = ""
  const image = (img: HTMLImageElement, url: string) => {
    const usable = /^https:\/\/\S+$/i.test(url) || url.startsWith(location.origin + "/")
    img.hidden = !usable
    if (usable && img.getAttribute("src") !== url) img.setAttribute("src", url)
  }
  const update = (f: Form) => {
    image(logo, f.value("logo1xUrl"))
    image(cup, f.value("cupImageUrl"))
    balance.hidden = f.checked("hideBalance")
    const min = f.value("minimumStake")
    const max = f.value("maximumStake")
    limits.textContent = min === "" && max === "" ? "any stake" : `${min || "…"} to ${max || "…"}`
    const url = f.value("fontFamilyUrl")
    if (url !== font && /^https:\/\/\S+\.(woff2?|ttf|otf)$/i.test(url)) {
      font = url
      const face = new FontFace("Merchant preview", `url(${JSON.stringify(url)})`)
      face.load().then((loaded) => {
        document.fonts.add(loaded)
        page.classList.add("font")
      }, () => page.classList.remove("font"))
    }
  }
  return {
    el: h("figure", { class: "preview", "aria-label": "Preview of the game page" }, h("figcaption", {}, "Preview of the game page"), page),
    update
  }
}

/** The settings: each change checked by the API, its message next to the field; a live preview of the branding. */
export const settings = async (main: HTMLElement): Promise<void> => {
  const r = await call<Settings>("GET", "/settings")
  if (!r.ok) return void main.append(h("p", { class: "err", role: "alert" }, plain(r.problem)))
  let current = r.body
  const fields: Array<FieldSpec> = text.flatMap(([name, label, hint]): Array<FieldSpec> => [
    ...flags.filter(([, before]) => before === name).map(([[flag, flagLabel]]): FieldSpec => ({
      name: flag, label: flagLabel, type: "checkbox", checked: current[flag] === true
    })),
    {
      name, label, hint, value: shown(current[name]),
      type: name.endsWith("Stake") || name === "frameAncestors" ? "text" : "url",
      inputmode: name.endsWith("Stake") ? "decimal" : undefined
    }
  ])
  const view = preview()
  const f = form("settings", fields, "Save the settings", async (f) => {
    const change: Record<string, string | boolean | null> = {}
    for (const [[flag]] of flags) if (f.checked(flag) !== (current[flag] === true)) change[flag] = f.checked(flag)
    for (const [name] of text) {
      const value = f.value(name)
      if (value !== shown(current[name])) change[name] = value === "" ? null : value
    }
    if (Object.keys(change).length === 0) return f.done("Nothing changed.")
    const saved = await call<Settings>("PUT", "/settings", change)
    if (!saved.ok) return f.fail(saved.problem)
    current = saved.body
    f.done("Saved.")
    announce("Settings saved.")
  })
  for (const name of branding) f.control(name)?.addEventListener("input", () => view.update(f))
  view.update(f)
  main.append(h("div", { class: "split" }, section("Settings", f.el), view.el))
}
