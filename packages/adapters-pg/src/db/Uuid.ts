/**
 * Whether a text is a UUID, which a `uuid` column can be compared with: any other id given by a client would fail
 * the query, so a look-up answers "not found" for it without asking PostgreSQL.
 */
export const isUuid = (text: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text)
