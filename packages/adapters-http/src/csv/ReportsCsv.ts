import { DateTime, Stream } from "effect"
import type { Report, RoundLinks } from "@gateway/domain"
import * as Csv from "./Csv.ts"

/**
 * The columns of the rounds CSV: one record per transaction, the round's
 * fields repeated on each (JSON's names; `transactionStatus` is the
 * transaction's `status`). A round without transactions (demo, or a debit
 * not sent yet) is one record with the transaction cells empty. `shopId`,
 * last so that readers of the earlier columns are not disturbed, is empty for
 * a round played without a shop (CONTRACT §11); `roundDetailsUrl`, after
 * them for the same reason, is the round's signed link (CONTRACT §10), as
 * in the JSON.
 */
export const roundColumns = [
  "roundId", "createdAt", "playerId", "gameId", "sessionId", "mode", "status", "stake", "payout", "currency",
  "transactionId", "type", "amount", "transactionStatus", "shopId", "freeRoundGrantId", "roundDetailsUrl"
] as const

/** The columns of the summary CSV: one record per group, the JSON's `data`; no total record. */
export const summaryColumns = ["key", "rounds", "bets", "wins", "refunds", "ggr", "currency", "freeWins"] as const

const stamp = (date: Date) => date.toISOString().replace(/[-:]/g, "").replace(/\.\d+/, "")

/** `rounds-20261101T000000Z-20261201T000000Z.csv`: made of the dates only, so nothing to escape. */
const filename = (what: string, range: Report.ReportRange) => `${what}-${stamp(range.from)}-${stamp(range.to)}.csv`

// The round's cells are quoted and guarded once and repeated on each of its transactions' records.
const roundRecords = (links: RoundLinks["Service"]) => (round: Report.OperatorRound): string => {
  const fields = Csv.row([
    round.roundId,
    DateTime.formatIso(round.createdAt),
    { untrusted: round.playerId },
    { untrusted: round.gameId },
    { untrusted: round.sessionId },
    round.mode,
    round.status,
    round.stake,
    round.payout ?? "",
    round.currency
  ]).slice(0, -2)
  const shop = round.shopId === undefined ? "" : Csv.row([{ untrusted: round.shopId }]).slice(0, -2)
  const grant = round.freeRoundGrantId ?? ""
  const link = Csv.row([links.url(round.roundId)]).slice(0, -2)
  return round.transactions.length === 0
    ? `${fields},,,,,${shop},${grant},${link}\r\n`
    : round.transactions.map((t) =>
      `${fields},${Csv.row([t.transactionId, t.type, t.amount, t.status]).slice(0, -2)},${shop},${grant},${link}\r\n`
    ).join("")
}

/** The rounds of `range` as a CSV download, streamed as they are read, each with its signed link. */
export const rounds = <E>(
  range: Report.ReportRange,
  stream: Stream.Stream<Report.OperatorRound, E>,
  links: RoundLinks["Service"]
) => Csv.response(filename("rounds", range), roundColumns, stream, roundRecords(links))

/** Every group of a summary as a CSV download, streamed as they are read; a game's or player's key is untrusted text, a day is ours. */
export const summary = <E>(
  range: Report.ReportRange,
  groupBy: Report.GroupBy,
  currency: string,
  groups: Stream.Stream<Report.SummaryRow, E>
) =>
  Csv.response(
    filename(`summary-by-${groupBy}`, range),
    summaryColumns,
    groups,
    (group) =>
      Csv.row([
        groupBy === "day" ? group.key : { untrusted: group.key },
        String(group.rounds),
        group.bets,
        group.wins,
        group.refunds,
        group.ggr,
        currency,
        group.freeWins
      ])
  )
