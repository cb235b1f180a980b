import crypto from 'node:crypto';

/**
 * A fresh address and the spellings an attacker would try against it (issue 26, finding 1). `accent`
 * and `fullwidth` are equal to `real` under MariaDB's accent- and case-insensitive collations, `kelvin`
 * becomes `real` under String#toLowerCase (U+212A KELVIN SIGN lower-cases to "k"), `cyrillic` looks the
 * same on screen; `trailingDot` is DNS's absolute form of the same domain; `upper` is the same address.
 */
export interface LookalikeSet {
  real: string;
  upper: string;
  trailingDot: string;
  accent: string;
  cyrillic: string;
  fullwidth: string;
  kelvin: string;
}

export function lookalikes(label = 'kadmin'): LookalikeSet {
  if (!label.startsWith('ka')) throw new Error('the label must start with "ka" (the Kelvin and Cyrillic variants replace those letters)');
  const local = `${label}-${crypto.randomBytes(5).toString('hex')}`;
  const rest = local.slice(2);
  return {
    real: `${local}@example.test`,
    upper: `${local.toUpperCase()}@Example.TEST`,
    trailingDot: `${local}@example.test.`,
    accent: `${local}@exämple.test`,
    cyrillic: `k\u0430${rest}@example.test`,
    fullwidth: `k\uff41${rest}@example.test`,
    kelvin: `\u212Aa${rest}@example.test`,
  };
}

/** The spellings that are not the real address and must never reach it (all but `real` and `upper`). */
export function foreignSpellings(set: LookalikeSet): Array<[name: string, email: string]> {
  return (['trailingDot', 'accent', 'cyrillic', 'fullwidth', 'kelvin'] as const).map((name) => [name, set[name]]);
}
