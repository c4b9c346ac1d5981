import type { DbOrTx } from '../../db/client';
import { unitsText } from '../../money-text';
import { CURRENCIES, type Currency } from '../../validation';
import { requireLocation } from '../../locations/locations';
import { dayRangeOf, reportRead } from '../report-range';
import {
  CHECK_NOUNS,
  CROSS_CHECKS,
  type CrossCheck,
  FIGURES,
  type Figures,
  PROBLEM_ORDER,
  type ReconciliationDay,
  type ReconciliationOptions,
  type ReconciliationProblem,
  type ReconciliationReport,
} from './definitions';
import { PROBLEM_LIMIT, reportStatement } from './statement';

const zeroFigures = (): Figures => Object.fromEntries(FIGURES.map((f) => [f.key, 0])) as Figures;

const money = (v: unknown) => Number(v ?? 0);

function mismatchProblem(m: Record<string, unknown>, currency: string): ReconciliationProblem {
  const noun = CHECK_NOUNS[m.check_name as CrossCheck];
  const base = {
    transactionId: m.id === null ? null : Number(m.id),
    ledgerKind: (m.kind as string | null) ?? null,
    reference: (m.reference as string) ?? null,
  };
  const ledger = money(m.ledger_amount);
  const rows = money(m.rows_amount);
  if (m.id === null) {
    return {
      ...base,
      problem: 'no_ledger',
      offBy: -rows,
      detail: `This ${noun} row has no ledger transaction: ${unitsText(rows)} ${currency} is missing from the ledger.`,
    };
  }
  if (m.rows_amount === null) {
    return { ...base, problem: 'no_row', offBy: ledger, detail: `The ledger moved ${unitsText(ledger)} ${currency} as a ${noun} with no matching row.` };
  }
  const amountOff = ledger - rows;
  const feeOff = money(m.ledger_fee) - money(m.rows_fee);
  const parts = [
    amountOff ? `the amount is ${unitsText(ledger)} in the ledger and ${unitsText(rows)} on the ${noun} row` : '',
    feeOff ? `the fee is ${unitsText(money(m.ledger_fee))} in the ledger and ${unitsText(money(m.rows_fee))} on the ${noun} row` : '',
  ].filter(Boolean);
  return { ...base, problem: 'rows_differ', offBy: amountOff || feeOff, detail: `${parts.join('; ')} (${currency}).` };
}

/**
 * The daily reconciliation of a business and mode over a range of its days:
 * money in and out by type, reversals and fees from the ledger; the trial
 * balance and the balance chain of its accounts; and the ledger checked
 * against the payouts and payments tables, transaction by transaction. Read
 * for a branch (or for no branch), only the spends recorded there count.
 */
export async function reconciliationReport(db: DbOrTx, opts: ReconciliationOptions): Promise<ReconciliationReport> {
  const range = dayRangeOf(opts.from, opts.to, opts.timeZone);
  const branch = typeof opts.location === 'number' ? await requireLocation(db, opts.businessId, opts.location) : opts.location;
  const result = await reportRead(db, (tx) => tx.execute<{ section: string; data: Record<string, unknown> }>(reportStatement(opts, range)));
  const days = new Map<string, ReconciliationDay>();
  const dayOf = (day: string, currency: string) => {
    const key = `${day}|${currency}`;
    let d = days.get(key);
    if (!d) {
      d = { day, currency: currency as Currency, transactions: 0, figures: zeroFigures(), checks: [], problems: [], problemCount: 0, reconciles: true };
      days.set(key, d);
    }
    return d;
  };
  let truncated = false;
  const counts = { unbalanced: 0, chain: 0, mismatch: 0 };
  for (const { section, data } of result.rows) {
    const d = dayOf(data.day as string, data.currency as string);
    if (section === 'day') {
      d.transactions = Number(data.transactions);
      for (const fig of FIGURES) d.figures[fig.key] = money(data[fig.key]);
    } else if (section === 'problems') {
      d.problemCount = Number(data.count);
    } else if (section === 'check') {
      d.checks.push({
        check: data.check as CrossCheck,
        ledger: money(data.ledger),
        rows: money(data.rows),
        ledgerFee: money(data.ledgerFee),
        rowsFee: money(data.rowsFee),
        ledgerCount: Number(data.ledgerCount),
        rowsCount: Number(data.rowsCount),
      });
    } else if (section === 'unbalanced' || section === 'chain' || section === 'mismatch') {
      if (++counts[section] > PROBLEM_LIMIT) {
        truncated = true;
        continue;
      }
      const base = { transactionId: Number(data.id), ledgerKind: data.kind as string, reference: (data.reference as string | null) ?? null };
      if (section === 'unbalanced') {
        d.problems.push({
          ...base,
          problem: 'unbalanced',
          offBy: money(data.total),
          detail: `Its entries sum to ${unitsText(money(data.total))} ${d.currency}, not zero: the transaction does not balance.`,
        });
      } else if (section === 'chain') {
        d.problems.push({
          ...base,
          problem: 'balance_chain',
          offBy: money(data.off_by),
          detail: `Entry ${data.entry_id} on a ${data.account_kind === 'business' ? 'business account' : 'card'}: its balance after is off by ${unitsText(money(data.off_by))} from the previous balance plus its amount.`,
        });
      } else {
        d.problems.push(mismatchProblem(data, d.currency));
      }
    }
  }
  const ordered = [...days.values()].sort((a, b) => a.day.localeCompare(b.day) || CURRENCIES.indexOf(a.currency) - CURRENCIES.indexOf(b.currency));
  const totals = new Map<Currency, ReconciliationReport['totals'][number]>();
  for (const d of ordered) {
    d.checks.sort((a, b) => Object.keys(CROSS_CHECKS).indexOf(a.check) - Object.keys(CROSS_CHECKS).indexOf(b.check));
    d.problems.sort((a, b) => PROBLEM_ORDER.indexOf(a.problem) - PROBLEM_ORDER.indexOf(b.problem) || (a.transactionId ?? 0) - (b.transactionId ?? 0));
    d.reconciles = d.problemCount === 0 && d.figures.debits === d.figures.credits;
    let t = totals.get(d.currency);
    if (!t) {
      t = { currency: d.currency, figures: zeroFigures(), transactions: 0, reconciles: true };
      totals.set(d.currency, t);
    }
    t.transactions += d.transactions;
    t.reconciles &&= d.reconciles;
    for (const fig of FIGURES) t.figures[fig.key] += d.figures[fig.key];
  }
  return { range, currency: opts.currency, days: ordered, totals: [...totals.values()], truncated, ...(branch && { branch }) };
}
