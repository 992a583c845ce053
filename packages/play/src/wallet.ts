import { $, byId, reduced } from "./dom.ts"
import { amount, money, toMinor } from "./money.ts"
import { S } from "./state.ts"
import type { Settings } from "./types.ts"

/** Shows the balance (unless the merchant hides it), with a bump when it changes. */
export const setBalance = (b: unknown): void => {
  if (typeof b !== "string" || S.settings.hideBalance === true) return
  const changed = S.balance !== null && S.balance !== b
  S.balance = b
  $("balance").textContent = amount(b)
  const wallet = $("wallet")
  wallet.hidden = false
  if (changed && !reduced()) {
    wallet.classList.remove("bump")
    void wallet.offsetWidth
    wallet.classList.add("bump")
  }
}

/**
 * Shows the balance less the stake while a round is under way (the stake has
 * left it; the round's answer brings the balance after the win); `null`
 * shows the balance as it was (the round was not played).
 */
export const showStakeTaken = (stake: bigint | null): void => {
  if (S.balance === null || S.settings.hideBalance === true) return
  const before = toMinor(S.balance)
  $("balance").textContent = stake === null || before === null || before < stake ? amount(S.balance) : money(before - stake)
}

/** The merchant's logo and font (a font file, or a style sheet such as Google Fonts'). */
export const brand = (s: Settings): void => {
  const logo = byId("logo", HTMLImageElement)
  const one = typeof s.logo1xUrl === "string" ? s.logo1xUrl : typeof s.logo2xUrl === "string" ? s.logo2xUrl : ""
  if (one !== "") {
    logo.src = one
    if (typeof s.logo1xUrl === "string" && typeof s.logo2xUrl === "string") logo.srcset = s.logo1xUrl + " 1x, " + s.logo2xUrl + " 2x"
    logo.hidden = false
  }
  const url = typeof s.fontFamilyUrl === "string" ? s.fontFamilyUrl : ""
  const useFont = (family: string) => document.documentElement.style.setProperty("--font", family + ", system-ui, sans-serif")
  if (/\.(woff2?|ttf|otf)([?#].*)?$/i.test(url) && "FontFace" in window) {
    new FontFace("MerchantFont", "url(" + JSON.stringify(url) + ")").load()
      .then((f) => {
        document.fonts.add(f)
        useFont("MerchantFont")
      })
      .catch(() => {})
  } else if (url !== "") {
    let family = ""
    try {
      family = (new URL(url).searchParams.get("family") ?? "").split(":")[0] ?? ""
    } catch {
      family = ""
    }
    const link = document.createElement("link")
    link.rel = "stylesheet"
    link.href = url
    link.addEventListener("load", () => {
      if (/^[\w \-]{1,64}$/.test(family)) useFont(JSON.stringify(family))
    })
    document.head.append(link)
  }
}
