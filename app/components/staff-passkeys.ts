import { ApiError, apiFetch } from '#app/lib/api-client.ts';
import { creationOptionsResponseSchema, passkeyResponseSchema } from '#contract/security.ts';

/** A staff member's own passkeys (/api/admin/passkeys.php), for the account page's passkey section. */
export const staffPasskeys = {
  async options() {
    try {
      const answer = await apiFetch<unknown>('/api/admin/passkeys.php?step=options', {
        method: 'POST',
        body: {},
      });
      return creationOptionsResponseSchema.parse(answer).options;
    } catch (error) {
      if (error instanceof ApiError) return { message: error.body.message };
      throw error;
    }
  },
  async register(credential: unknown) {
    try {
      const answer = await apiFetch<unknown>('/api/admin/passkeys.php', {
        method: 'POST',
        body: { credential },
      });
      passkeyResponseSchema.parse(answer);
      return { ok: true };
    } catch (error) {
      if (error instanceof ApiError) return { ok: false, message: error.body.message };
      throw error;
    }
  },
};
