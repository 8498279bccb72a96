// What the typed client (api.ts) needs at run time, in one module it imports on its first call.
export { errorBodySchema } from '#contract/common.ts';
export { commonErrorCodes, endpoints } from '#contract/endpoints.ts';
