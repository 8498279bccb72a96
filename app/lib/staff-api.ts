import type { StaffEndpoints } from '#contract/staff-endpoints.ts';
import { type BodyIn, fetchTransport, type TypedApiOver, typedApiOver } from './api.ts';

/**
 * The back office's typed client in the browser (the operator console's typing signal and queue
 * pages). The staff schemas load with its first call, in a chunk of their own: only back-office
 * pages ever call it, so no member page downloads them.
 */
export const staffBrowserApi: TypedApiOver<StaffEndpoints> = typedApiOver<StaffEndpoints>(async () => {
  const [{ staffEndpoints }, { commonErrorCodes }, { errorBodySchema }] = await Promise.all([
    import('#contract/staff-endpoints.ts'),
    import('#contract/endpoints.ts'),
    import('#contract/common.ts'),
  ]);
  return { endpoints: staffEndpoints, commonErrorCodes, errorBodySchema };
}, fetchTransport());

/** A staff call's body, as contract/staff-endpoints.ts declares it. */
export type StaffBodyOf<K extends keyof StaffEndpoints> = BodyIn<StaffEndpoints, K>;
