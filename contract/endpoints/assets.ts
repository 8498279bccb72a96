import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';

/** The static images of the API, registered from these declarations. */
export const assetsEndpoints = {
  getAssetsPaymentmethodFile: defineEndpoint({
    method: 'GET',
    path: '/api/assets/paymentmethod/:file',
    tags: ['assets'],
    summary: 'Payment-method icon as SVG: mastercard.svg, visa.svg, applepay.svg',
    params: z.object({ file: z.string().regex(/^[a-z]+\.svg$/) }),
  }),
};
