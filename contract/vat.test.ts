import { describe, expect, it } from 'vitest';
import { vatOf } from './vat.ts';

describe('VAT inside an amount', () => {
  it('splits a price that includes VAT by the buyer country’s rate', () => {
    expect(vatOf(1210, 'NL')).toEqual({ rate: 21, net: 1000, vat: 210 });
    expect(vatOf(1999, 'DE')).toEqual({ rate: 19, net: 1680, vat: 319 });
    expect(vatOf(1000, 'FI')).toEqual({ rate: 25.5, net: 797, vat: 203 });
  });
  it('no rate known: no VAT, the whole amount net', () => {
    expect(vatOf(500, 'US')).toEqual({ rate: 0, net: 500, vat: 0 });
  });
});
