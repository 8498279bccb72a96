// Country names are shared with the server's legal pages: one implementation in contract/.
export { countryName } from '#contract/countries.ts';
