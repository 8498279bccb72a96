import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { z } from 'zod';
import type { Passkey, requestOptionsSchema } from '#contract/security.ts';
import { authenticatorTransports, creationOptionsSchema } from '#contract/security.ts';
import type { Database, Executor } from '#server/db/client.ts';
import type { WebauthnPurpose } from '#server/db/schema/security.ts';
import { addMinutes, type Clock } from '#server/lib/clock.ts';
import { NotFoundError } from '#server/lib/errors.ts';
import { emailBanHash } from './email-bans.ts';
import { AddressRefusedError, PasskeyExistsError, PasskeyFailedError } from './security.errors.ts';
import * as repo from './security.repository.ts';

export type PasskeyOwner = repo.PasskeyOwner;

/**
 * Who the passkeys are for: the RP id is the site's configured domain and the origin the site's
 * configured origin (server/modules/sites/site-origin.ts), never a Host header; an answer made for
 * another origin does not verify.
 */
export type RelyingParty = { id: string; origin: string; name: string; siteId: number };

export const challengeMinutes = 5;

const isTransport = (value: string): value is (typeof authenticatorTransports)[number] =>
  (authenticatorTransports as readonly string[]).includes(value);

/** The challenge a WebAuthn answer signed, read from its clientDataJSON (unverified until the check). */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    if (
      typeof data === 'object' &&
      data !== null &&
      'challenge' in data &&
      typeof data.challenge === 'string'
    )
      return data.challenge;
    return null;
  } catch (error) {
    // expected: an answer whose client data is no JSON names no challenge and is refused
    if (error instanceof SyntaxError) return null;
    throw error;
  }
}

function toPasskey(row: repo.PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * Passkeys of members and staff (WebAuthn with @simplewebauthn/server) and the address bans. A
 * challenge is a row deleted as it is answered, so it works once across every instance; sign-in
 * counters only grow, checked in the update that stores them.
 */
export class SecurityService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly banSecret: string,
  ) {}

  private purpose(kind: PasskeyOwner['kind'], step: 'register' | 'login'): WebauthnPurpose {
    return `${kind}_${step}`;
  }

  private async storeChallenge(
    challenge: string,
    purpose: WebauthnPurpose,
    subjectId: number | null,
    rp: RelyingParty,
  ): Promise<void> {
    await repo.insertChallenge(this.db, {
      challenge,
      purpose,
      subjectId,
      siteId: rp.siteId,
      expiresAt: addMinutes(this.clock.now(), challengeMinutes),
    });
  }

  /** The challenge the answer names, taken (deleted) if it is one of ours for this purpose and site. */
  private async takeChallenge(
    clientDataJSON: string,
    purpose: WebauthnPurpose,
    rp: RelyingParty,
    status: 400 | 401,
  ) {
    const challenge = challengeOf(clientDataJSON);
    const row = challenge
      ? await repo.takeChallenge(this.db, challenge, purpose, this.clock.now())
      : undefined;
    if (!row || row.siteId !== rp.siteId) throw new PasskeyFailedError(status);
    return row;
  }

  async list(owner: PasskeyOwner): Promise<Passkey[]> {
    return (await repo.listPasskeys(this.db, owner)).map(toPasskey);
  }

  async remove(owner: PasskeyOwner, id: number): Promise<void> {
    if (!(await repo.deletePasskey(this.db, owner, id))) throw new NotFoundError();
  }

  async registrationOptions(
    owner: PasskeyOwner,
    rp: RelyingParty,
    user: { name: string; displayName: string },
  ): Promise<z.input<typeof creationOptionsSchema>> {
    const existing = await repo.listPasskeys(this.db, owner);
    const options = await generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: user.name,
      userDisplayName: user.displayName,
      // The user handle says whose passkey it is without naming them: kind and id, as bytes.
      userID: new TextEncoder().encode(`${owner.kind}:${owner.id}`),
      attestationType: 'none',
      timeout: challengeMinutes * 60_000,
      excludeCredentials: existing.map((row) => ({
        id: row.credentialId,
        transports: row.transports.filter(isTransport),
      })),
      // A discoverable credential: sign-in needs no e-mail address first.
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    await this.storeChallenge(options.challenge, this.purpose(owner.kind, 'register'), owner.id, rp);
    return creationOptionsSchema.parse(options);
  }

  async register(
    owner: PasskeyOwner,
    rp: RelyingParty,
    response: RegistrationResponseJSON,
    name: string,
  ): Promise<Passkey> {
    const row = await this.takeChallenge(
      response.response.clientDataJSON,
      this.purpose(owner.kind, 'register'),
      rp,
      400,
    );
    if (row.subjectId !== owner.id) throw new PasskeyFailedError();
    const verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: row.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    }).catch(() => {
      // expected: the library throws for an answer that does not match (origin, RP id, format)
      throw new PasskeyFailedError(400);
    });
    if (!verification.verified) throw new PasskeyFailedError();
    const { credential } = verification.registrationInfo;
    const created = await repo.insertPasskey(this.db, owner, {
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? response.response.transports ?? [],
      name,
      at: this.clock.now(),
    });
    if (!created) throw new PasskeyExistsError();
    return toPasskey(created);
  }

  async loginOptions(
    kind: PasskeyOwner['kind'],
    rp: RelyingParty,
  ): Promise<z.input<typeof requestOptionsSchema>> {
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      userVerification: 'preferred',
      timeout: challengeMinutes * 60_000,
    });
    await this.storeChallenge(options.challenge, this.purpose(kind, 'login'), null, rp);
    return {
      challenge: options.challenge,
      ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
      ...(options.rpId !== undefined ? { rpId: options.rpId } : {}),
      ...(options.userVerification !== undefined ? { userVerification: options.userVerification } : {}),
    };
  }

  /**
   * Verifies a sign-in assertion: the challenge must be ours and unused, the signature the stored
   * key's, the counter larger than the stored one (when the authenticator counts). Answers the
   * owner's id; 401 passkey_failed otherwise.
   */
  async verifyLogin(
    kind: PasskeyOwner['kind'],
    rp: RelyingParty,
    response: AuthenticationResponseJSON,
  ): Promise<number> {
    const row = await this.takeChallenge(
      response.response.clientDataJSON,
      this.purpose(kind, 'login'),
      rp,
      401,
    );
    const passkey = await repo.findPasskeyByCredential(this.db, kind, response.id);
    if (!passkey) throw new PasskeyFailedError(401);
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: row.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: passkey.transports.filter(isTransport),
      },
    }).catch(() => {
      // expected: the library throws for an answer that does not match (origin, RP id, signature)
      throw new PasskeyFailedError(401);
    });
    if (!verification.verified) throw new PasskeyFailedError(401);
    const next = verification.authenticationInfo.newCounter;
    // An authenticator that never counts sends 0 every time; one that counts must have moved on.
    if (!(await repo.advanceCounter(this.db, kind, passkey.id, passkey.counter, next, this.clock.now())))
      throw new PasskeyFailedError(401);
    return passkey.ownerId;
  }

  /** Challenges nobody answered: the hourly sweep forgets them. */
  pruneChallenges(): Promise<number> {
    return repo.pruneChallenges(this.db, this.clock.now());
  }

  // ---- address bans

  /** Keeps the banned member's address as a keyed hash, in the ban's transaction. */
  async banAddress(tx: Executor, userId: number, email: string | null): Promise<void> {
    if (email) await repo.insertEmailBan(tx, emailBanHash(this.banSecret, email), userId, this.clock.now());
  }

  /** The member's unban lifts the address ban too. */
  async liftAddressBan(tx: Executor, userId: number): Promise<number> {
    return repo.deleteEmailBansOfUser(tx, userId);
  }

  async hasAddressBan(userId: number): Promise<boolean> {
    return (await repo.countEmailBansOfUser(this.db, userId)) > 0;
  }

  /** 422 address_refused for a banned address (sign-up, e-mail change). */
  async refuseBannedAddress(db: Executor, email: string): Promise<void> {
    if (await repo.isEmailBanned(db, emailBanHash(this.banSecret, email))) throw new AddressRefusedError();
  }
}
