import { Effect } from "effect"
import { type Cookies, HttpEffect, HttpServerResponse } from "effect/http"

/**
 * Sets a cookie on the answer of the request being handled, for a cookie that is not the endpoint's security
 * credential (those go through `HttpApiBuilder.securitySetCookie`): the game page's resume cookie, the back
 * office's device cookie. Name, value and options are the gateway's own, so an encoding failure is a defect.
 */
export const setOnAnswer = (name: string, value: string, options: Cookies.Cookie["options"]) =>
  HttpEffect.appendPreResponseHandler((_request, response) =>
    Effect.orDie(HttpServerResponse.setCookie(response, name, value, options))
  )
