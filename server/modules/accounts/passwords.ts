import { loadArgon2 } from '#server/lib/lazy-packages.ts';

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
// algorithm 2 is Argon2id (the package's const enum cannot be imported under verbatimModuleSyntax).
const argon2Id = 2;
const argon2Options = { algorithm: argon2Id, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export async function hashPassword(password: string): Promise<string> {
  const { hash } = await loadArgon2();
  return hash(password, argon2Options);
}

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  const { hash, verify } = await loadArgon2();
  if (!passwordHash) {
    // Spend the same time as a real check, so a wrong address cannot be told from a wrong password.
    await hash(password, argon2Options);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch (error) {
    // A stored hash argon2 cannot read is broken data, never a wrong password: it must be seen.
    throw new Error('a stored password hash cannot be read', { cause: error });
  }
}

// The list loads with the first password checked, not with every start (~55 ms).
let commonPasswords: Promise<Set<string>> | undefined;

/** One of the ~50,000 most common passwords (zxcvbn's list), or the member's own e-mail or name. */
export async function isCommonPassword(password: string, personal: string[] = []): Promise<boolean> {
  commonPasswords ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'] as string[]),
  );
  const lower = password.toLowerCase();
  return (
    (await commonPasswords).has(lower) || personal.some((value) => value && lower === value.toLowerCase())
  );
}
