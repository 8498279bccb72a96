import { errorBodySchema } from '#contract/common.ts';
import { commonErrorCodes } from '#contract/endpoints.ts';
import { type StaffEndpoints, staffEndpoints } from '#contract/staff-endpoints.ts';
import { callerTransport, type TypedApiOver, typedApiOver } from './api.ts';
import type { ApiCaller } from './load-context.ts';

const contract = { endpoints: staffEndpoints, commonErrorCodes, errorBodySchema };

/** The back office's typed client: answers and error codes as contract/staff-endpoints.ts declares. */
export type StaffApi = TypedApiOver<StaffEndpoints, 'form'>;

/**
 * Back-office loaders and actions call the staff API through this, in-process with the staff
 * session's cookies (context.api). Server-only: the browser never loads the staff schemas.
 */
export function staffApi(caller: ApiCaller): StaffApi {
  return typedApiOver<StaffEndpoints, 'form'>(async () => contract, callerTransport(caller));
}
