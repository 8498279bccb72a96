import { z } from 'zod';
import { idField } from './common.ts';

/** A base64url field of a WebAuthn message (bounded: an attestation with certificates stays well under this). */
const b64url = (max: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]*$/)
    .max(max);

export const authenticatorTransports = [
  'ble',
  'cable',
  'hybrid',
  'internal',
  'nfc',
  'smart-card',
  'usb',
] as const;
const transportsField = z.array(z.enum(authenticatorTransports)).max(10);
const credentialDescriptorSchema = z.object({
  id: b64url(1400),
  type: z.literal('public-key'),
  transports: transportsField.optional(),
});
const userVerificationField = z.enum(['discouraged', 'preferred', 'required']);

/** What navigator.credentials.create() is given (PublicKeyCredentialCreationOptionsJSON). */
export const creationOptionsSchema = z.object({
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: b64url(128), name: z.string(), displayName: z.string() }),
  challenge: b64url(128),
  pubKeyCredParams: z.array(z.object({ alg: z.number().int(), type: z.literal('public-key') })),
  timeout: z.number().int().optional(),
  excludeCredentials: z.array(credentialDescriptorSchema).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
      requireResidentKey: z.boolean().optional(),
      residentKey: userVerificationField.optional(),
      userVerification: userVerificationField.optional(),
    })
    .optional(),
  attestation: z.enum(['direct', 'enterprise', 'indirect', 'none']).optional(),
  extensions: z.object({ credProps: z.boolean().optional() }).optional(),
});

/** What navigator.credentials.get() is given (PublicKeyCredentialRequestOptionsJSON). */
export const requestOptionsSchema = z.object({
  challenge: b64url(128),
  timeout: z.number().int().optional(),
  rpId: z.string().optional(),
  allowCredentials: z.array(credentialDescriptorSchema).optional(),
  userVerification: userVerificationField.optional(),
});

const extensionResultsSchema = z.object({ credProps: z.object({ rk: z.boolean().optional() }).optional() });

/** The browser's answer to create(), as @simplewebauthn/browser sends it (RegistrationResponseJSON). */
export const registrationResponseSchema = z.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(4000),
    attestationObject: b64url(20_000),
    authenticatorData: b64url(4000).optional(),
    transports: z.array(z.string().max(20)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url(4000).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensionResultsSchema.default({}),
});

/** The browser's answer to get() (AuthenticationResponseJSON). */
export const authenticationResponseSchema = z.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(4000),
    authenticatorData: b64url(4000),
    signature: b64url(2000),
    userHandle: b64url(128).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensionResultsSchema.default({}),
});

export const stepQuerySchema = z.object({ step: z.literal('options').optional() });

export const passkeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const creationOptionsResponseSchema = z.object({ options: creationOptionsSchema });
export const requestOptionsResponseSchema = z.object({ options: requestOptionsSchema });
export const passkeyResponseSchema = z.object({ passkey: passkeySchema });
export const passkeysResponseSchema = z.object({ passkeys: z.array(passkeySchema) });

export const registerPasskeyBodySchema = z.object({
  /** Shown in the list; the browser and system of the device when left out. */
  name: z.string().trim().max(60).optional(),
  credential: registrationResponseSchema,
});
export const passkeyLoginBodySchema = z.object({ credential: authenticationResponseSchema });
export const removePasskeySchema = z.object({ id: idField });

/** A signed-in device as its owner sees it (api-contract.md, sessions). */
export const deviceSessionSchema = z.object({
  id: z.number().int(),
  current: z.boolean(),
  device: z.object({
    browser: z.string().nullable().describe('from the User-Agent, e.g. "Firefox"; null when unknown'),
    os: z.string().nullable().describe('e.g. "Android"; null when unknown'),
  }),
  place: z.string().nullable().describe('ISO country code of the sign-in (offline GeoIP), null when unknown'),
  created_at: z.string(),
  last_used_at: z.string(),
});
export type DeviceSession = z.infer<typeof deviceSessionSchema>;
export const deviceSessionsResponseSchema = z.object({ sessions: z.array(deviceSessionSchema) });

export const endDeviceSessionSchema = z.union([
  z.object({ id: idField }),
  z.object({ others: z.literal(true) }),
]);

export const endSessionLinkQuerySchema = z.object({ token: z.string().max(100).optional() });
