import { $ } from "./dom.ts"

/**
 * The cashier's page of a retail shop (CONTRACT §11): the shop's name in the
 * header and large type for a counter screen (`html.cashier`, style/shop.css);
 * the lobby and the exit are left out by the caller. `null`: the player's page.
 */
export const cashier = (shop: { readonly name: string } | null): void => {
  document.documentElement.classList.toggle("cashier", shop !== null)
  $("shop-name").textContent = shop?.name ?? ""
  $("shop").hidden = shop === null
}
