/** Outcome of a password check; `needsRehash` asks the caller to store a fresh hash (legacy or weaker). */
export interface PasswordCheck {
    ok: boolean;
    needsRehash: boolean;
}
/**
 * Password hashing (SPEC 5.5): PBKDF2-SHA256, a 16-byte random salt per password, a 256-bit key, stored
 * as `pbkdf2:<iterations>:<salt_hex>:<hash_hex>` and compared in constant time. Always the async
 * `crypto.pbkdf2`, so hashing runs on libuv's thread pool and never blocks the event loop.
 *
 * - `hash(password)` → the storage string, at the configured iteration count.
 * - `verify(password, stored)` → `{ ok, needsRehash }`; `needsRehash` is true on success when the stored
 *   hash is a legacy SHA-256 one or uses fewer iterations than configured. Never throws on a malformed
 *   stored value (that is simply `ok: false`).
 * - `verifyAgainstDummy(password)` → always `{ ok: false }`, after the same hashing work as a real check,
 *   so an unknown email or a user without a password costs the same time as a wrong password.
 */
export declare function createPasswordService(options: {
    iterations: number;
}): {
    iterations: number;
    hash: (password: string) => Promise<string>;
    verify: (password: string, stored: string | null | undefined) => Promise<PasswordCheck>;
    verifyAgainstDummy: (password: string) => Promise<PasswordCheck>;
};
export type PasswordService = ReturnType<typeof createPasswordService>;
