export interface Txn {
  /** "MM/DD" within the period. */
  date: string;
  description: string;
  /** Positive credits, negative debits. */
  amount: number;
  /** A second description line, as banks wrap long ACH descriptions. */
  more?: string;
}

export interface StatementSpec {
  /** Inclusive period, ISO dates. */
  start: string;
  end: string;
  holder: string[];
  account: string;
  opening: number;
  txns: Txn[];
}

export function parts(iso: string): { y: number; m: number; d: number } {
  const [y, m, d] = iso.split("-").map(Number);
  return { y: y ?? 0, m: m ?? 0, d: d ?? 0 };
}

export function usDate(iso: string, twoDigitYear = false): string {
  const { y, m, d } = parts(iso);
  const year = twoDigitYear ? String(y).slice(2) : String(y);
  return `${String(m).padStart(2, "0")}/${String(d).padStart(2, "0")}/${year}`;
}

export function withBalances(spec: StatementSpec): Array<Txn & { balance: number }> {
  let balance = spec.opening;
  return spec.txns.map((txn) => {
    balance = Math.round((balance + txn.amount) * 100) / 100;
    return { ...txn, balance };
  });
}

export function sum(txns: Txn[], sign: 1 | -1): number {
  return (
    Math.round(txns.filter((t) => Math.sign(t.amount) === sign).reduce((s, t) => s + t.amount, 0) * 100) / 100
  );
}

export const SMITH = ["JOHN A SMITH JR", "142 ORCHARD LANE", "DAYTON OH 45402-1187"];
