import crypto from 'node:crypto';
import { argon2i, argon2id, bcrypt, createSHA256, createSHA512, pbkdf2, scrypt } from 'hash-wasm';

/*
 * Every hash here is made by hash-wasm (WebAssembly ports of the reference implementations), independently of the
 * bcryptjs, argon2 and node:crypto code that checks them; the passlib and Django strings are encoded here by hand
 * after their documents (ab64: base64 with `.` for `+`, no padding; Django: the salt as text, the hash padded base64).
 */
export const salt = (): Uint8Array => crypto.randomBytes(16);
export const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64').replace(/=+$/, '');
export const ab64 = (bytes: Uint8Array): string => b64(bytes).replace(/\+/g, '.');

/** One hash of `password` in each accepted foreign format, keyed by a label. */
export async function foreignHashesOf(password: string): Promise<Record<string, string>> {
  const argon = { password, salt: salt(), parallelism: 1, iterations: 2, memorySize: 4096, hashLength: 32, outputType: 'encoded' } as const;
  const scryptSalt = salt();
  const scryptKey = await scrypt({ password, salt: scryptSalt, costFactor: 2 ** 10, blockSize: 8, parallelism: 1, hashLength: 32, outputType: 'binary' });
  const passlibSalt = salt();
  const sha256Key = await pbkdf2({ password, salt: passlibSalt, iterations: 2000, hashLength: 32, hashFunction: createSHA256(), outputType: 'binary' });
  const sha512Key = await pbkdf2({ password, salt: passlibSalt, iterations: 2000, hashLength: 64, hashFunction: createSHA512(), outputType: 'binary' });
  const keycloakKey = await pbkdf2({ password, salt: passlibSalt, iterations: 1500, hashLength: 64, hashFunction: createSHA256(), outputType: 'binary' });
  const djangoSalt = crypto.randomBytes(12).toString('hex');
  const djangoKey = await pbkdf2({ password, salt: djangoSalt, iterations: 3000, hashLength: 32, hashFunction: createSHA256(), outputType: 'binary' });
  const bcrypt2b = await bcrypt({ password, salt: salt(), costFactor: 6, outputType: 'encoded' });
  return {
    bcrypt2b,
    // PHP's $2y$ and the older $2a$ are the same computation for such passwords; hash-wasm writes $2b$.
    bcrypt2y: bcrypt2b.replace(/^\$2b\$/, '$2y$'),
    bcrypt2a: (await bcrypt({ password, salt: salt(), costFactor: 5, outputType: 'encoded' })).replace(/^\$2b\$/, '$2a$'),
    argon2id: await argon2id(argon),
    argon2i: await argon2i({ ...argon, salt: salt() }),
    scrypt: `$scrypt$ln=10,r=8,p=1$${b64(scryptSalt)}$${b64(scryptKey)}`,
    passlibSha256: `$pbkdf2-sha256$2000$${ab64(passlibSalt)}$${ab64(sha256Key)}`,
    passlibSha512: `$pbkdf2-sha512$2000$${ab64(passlibSalt)}$${ab64(sha512Key)}`,
    // Keycloak before 20: pbkdf2-sha256 with a 512-bit key, carried over in passlib's form (docs/migration.md).
    keycloakSha256Long: `$pbkdf2-sha256$1500$${ab64(passlibSalt)}$${ab64(keycloakKey)}`,
    django: `pbkdf2_sha256$3000$${djangoSalt}$${Buffer.from(djangoKey).toString('base64')}`,
  };
}

