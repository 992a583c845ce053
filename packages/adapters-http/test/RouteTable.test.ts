import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { Api } from "@gateway/client/api/Api"
import * as RouteTable from "../src/middleware/RouteTable.ts"

const id = { params: { id: Schema.String } }

/** An API whose parameter route comes before a fixed path it also matches. */
const Items = HttpApi.make("items").add(
  HttpApiGroup.make("items")
    .add(HttpApiEndpoint.get("item", "/items/:id", id))
    .add(HttpApiEndpoint.get("fresh", "/items/new"))
    .add(HttpApiEndpoint.post("create", "/items"))
)

describe("RouteTable.route (the access log's and the metrics' route label)", () => {
  const routes = RouteTable.make(Api, [["GET", "/openapi.json"], ["GET", "/docs"]])

  it("names the pattern of a fixed path, with or without a trailing slash, and of a path with values", () => {
    expect(routes.route("GET", "/api/v1.1/operator-api/games")).toBe("/api/v1.1/operator-api/games")
    expect(routes.route("GET", "/api/v1.1/operator-api/games/")).toBe("/api/v1.1/operator-api/games")
    expect(routes.route("POST", "/api/v1.1/game-api/rounds")).toBe("/api/v1.1/game-api/rounds")
    expect(routes.route("GET", "/openapi.json")).toBe("/openapi.json")
    expect(routes.route("POST", "/api/v1.1/operator-api/merchants/42/api-keys")).toBe("/api/v1.1/operator-api/merchants/:id/api-keys")
  })

  it("names nothing for an unknown path or a method the path does not answer", () => {
    expect(routes.route("GET", "/api/v1.1/operator-api/nothing")).toBeUndefined()
    expect(routes.route("PATCH", "/api/v1.1/game-api/rounds")).toBeUndefined()
    expect(routes.route("GET", "/api/v1.1/operator-api/games//")).toBeUndefined()
  })

  it("keeps the table's order: a fixed path an earlier parameter route matches is named by that route", () => {
    const items = RouteTable.make(Items)
    expect(items.route("GET", "/items/new")).toBe("/items/:id")
    expect(items.route("GET", "/items/7")).toBe("/items/:id")
    expect(items.route("POST", "/items/")).toBe("/items")
    expect(items.allowed("/items/new")).toEqual(["GET"])
  })
})
