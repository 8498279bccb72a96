import { z } from 'zod';
import { idField } from './common.ts';
import { trafficSourceSchema } from './users.ts';

// Field errors are codes (the message of each check); the client translates errors:field.<code>.
export const emailField = z
  .string({ error: 'required' })
  .trim()
  .max(254, { error: 'too_long' })
  .pipe(z.email({ error: 'invalid_email' }));
export const passwordField = z
  .string({ error: 'required' })
  .min(8, { error: 'too_short' })
  .max(128, { error: 'too_long' });
const anyPassword = z
  .string({ error: 'required' })
  .min(1, { error: 'required' })
  .max(1024, { error: 'too_long' });

export const signupBodySchema = z.object({
  email: emailField,
  name: z.string({ error: 'required' }).trim().min(2, { error: 'too_short' }).max(30, { error: 'too_long' }),
  password: passwordField,
  date_of_birth: z.iso.date({ error: 'invalid_date' }).describe('YYYY-MM-DD'),
  signup_message: z.string().trim().max(1000, { error: 'too_long' }).optional(),
  tracking: trafficSourceSchema.optional(),
  profile: idField.optional().describe('the profile the member signed up from: signup_message goes to it'),
});
export type SignupBody = z.infer<typeof signupBodySchema>;

export const loginBodySchema = z.object({ email: emailField, password: anyPassword });

export const languageBodySchema = z.object({ language: z.string().min(2).max(5) });

export const passwordResetRequestSchema = z.object({ email: emailField });
export const passwordResetBodySchema = z.object({
  token: z.string().min(10).max(200),
  password: passwordField,
  password_confirmation: z.string({ error: 'required' }).max(128),
});

export const changePasswordBodySchema = z.object({
  old_password: anyPassword,
  password: passwordField,
  password_confirmation: z.string({ error: 'required' }).max(128),
});

export const mailChangeRequestSchema = z.object({ email: emailField, password: anyPassword });
export const tokenBodySchema = z.object({ token: z.string().min(10).max(200) });
export const tokenQuerySchema = z.object({ token: z.string().max(200).optional() });

export const deleteAccountBodySchema = z.object({ password: anyPassword });
export const reactivateBodySchema = z.object({ email: emailField, password: anyPassword });

export const completeSignupBodySchema = z.object({
  gender: z.enum(['male', 'female'], { error: 'required' }),
  seeking: z.enum(['male', 'female', 'both'], { error: 'required' }),
  countryregion: z.string().max(10).optional(),
});

/** A member's data export (GDPR), for the member (GET /api/export.php) and for staff on their request. */
export const dataExportSchema = z
  .record(z.string(), z.unknown())
  .describe(
    'account, profile, photos (URLs and keys), messages, orders, credits ledger, consents, visits (made: whom; received: counts per day)',
  );
