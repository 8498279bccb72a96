/**
 * Standard VAT rates (percent) of the countries the sites sell in, for electronic services taxed
 * in the buyer's country (EU OSS; Norway and Switzerland their own). Prices include VAT, so an
 * invoice splits the amount charged (decision 050). Rates as of 2026-01-01.
 */
export const vatRates: Readonly<Record<string, number>> = {
  AT: 20,
  BE: 21,
  BG: 20,
  CH: 8.1,
  CY: 19,
  CZ: 21,
  DE: 19,
  DK: 25,
  EE: 24,
  ES: 21,
  FI: 25.5,
  FR: 20,
  GB: 20,
  GR: 24,
  HR: 25,
  HU: 27,
  IE: 23,
  IT: 22,
  LT: 21,
  LU: 17,
  LV: 21,
  MT: 18,
  NL: 21,
  NO: 25,
  PL: 23,
  PT: 23,
  RO: 21,
  SE: 25,
  SI: 22,
  SK: 23,
};

/**
 * The VAT inside an amount that includes it (integer cents, rounded half up); 0 % where no rate is
 * known. The server keeps what it computed when the order was paid (decision 059).
 */
export function vatOf(
  amountCents: number,
  country: string,
  rates: Readonly<Record<string, number>> = vatRates,
): { rate: number; net: number; vat: number } {
  const rate = rates[country] ?? 0;
  const net = Math.round((amountCents * 100) / (100 + rate));
  return { rate, net, vat: amountCents - net };
}
