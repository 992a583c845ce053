import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * The change feed that keeps every instance's in-memory copies fresh. Each
 * change to the games, to a merchant (status, settings) or to an API key
 * bumps its topic's version in `gateway_versions` and notifies
 * `gateway_changes` at commit with `<topic>:<version>:<key>` — the key is a
 * game id, merchant id or key slug, or `*` when one statement changed many
 * rows. An instance that missed notifications sees a newer version when it
 * next reads the versions, and reloads that topic.
 */
export const m0005_change_feed = Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`
    CREATE TABLE gateway_versions (
      topic text COLLATE "C" PRIMARY KEY,
      version bigint NOT NULL DEFAULT 0
    )`
  yield* sql`INSERT INTO gateway_versions (topic) VALUES ('games'), ('merchants'), ('api_keys')`
  yield* sql`
    CREATE FUNCTION gateway_changed(topic text, changed bigint, one_key text) RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
      v bigint;
    BEGIN
      IF changed = 0 THEN
        RETURN;
      END IF;
      UPDATE gateway_versions SET version = version + 1 WHERE gateway_versions.topic = gateway_changed.topic
        RETURNING version INTO v;
      PERFORM pg_notify('gateway_changes', topic || ':' || v || ':' || CASE WHEN changed = 1 THEN one_key ELSE '*' END);
    END
    $$`
  for (const [table, topic, key] of [["games", "games", "id"], ["merchants", "merchants", "id"], ["merchant_settings", "merchants", "merchant_id"], ["api_keys", "api_keys", "slug"]] as const) {
    const fn = sql.literal(`${table}_changed`)
    yield* sql`
      CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS ${sql.literal(`$$
      DECLARE
        n bigint;
        one text;
      BEGIN
        IF TG_OP = 'DELETE' THEN
          SELECT count(*), min(${key}::text) INTO n, one FROM old_rows;
        ELSE
          SELECT count(*), min(${key}::text) INTO n, one FROM new_rows;
        END IF;
        PERFORM gateway_changed('${topic}', n, one);
        RETURN NULL;
      END
      $$`)}`
    for (const op of ["INSERT", "UPDATE", "DELETE"] as const) {
      const rows = op === "DELETE" ? "OLD TABLE AS old_rows" : "NEW TABLE AS new_rows"
      yield* sql`
        CREATE TRIGGER ${sql.literal(`${table}_${op.toLowerCase()}_notify`)} AFTER ${sql.literal(op)} ON ${sql.literal(table)}
        REFERENCING ${sql.literal(rows)} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`
    }
  }
})
