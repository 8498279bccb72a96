import { paymentMethodOptions } from '#contract/payments.ts';

/** Payment methods (spec §3) offered per country, in the order a member there expects them. */
export const paymentMethods = paymentMethodOptions;
export type PaymentMethod = (typeof paymentMethods)[number];

const byCountry: Record<string, PaymentMethod[]> = {
  NL: ['ideal', 'card', 'paypal', 'applepay', 'directdebit', 'banktransfer', 'paysafecard'],
  BE: ['bancontact', 'card', 'paypal', 'applepay', 'banktransfer', 'paysafecard'],
  DE: ['card', 'paypal', 'sofort', 'giropay', 'applepay', 'directdebit', 'banktransfer', 'paysafecard'],
  AT: ['eps', 'card', 'paypal', 'sofort', 'applepay', 'paysafecard'],
  PL: ['blik', 'card', 'paypal', 'applepay', 'banktransfer'],
  GB: ['card', 'paypal', 'applepay'],
  US: ['card', 'paypal', 'applepay'],
};

export function methodsFor(country: string): PaymentMethod[] {
  return byCountry[country] ?? ['card', 'paypal', 'applepay'];
}

export function isPaymentMethod(value: string): value is PaymentMethod {
  return (paymentMethods as readonly string[]).includes(value);
}
