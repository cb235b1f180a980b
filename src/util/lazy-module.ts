/**
 * A module loaded at its first use rather than at start: for libraries only a few routes need (the passkey
 * ceremonies, the TOTP arithmetic, the enrolment QR code, the password-quality dictionaries), which together
 * cost tens of MiB of memory and a tenth of a second of start-up in every process, most of which never uses them.
 * The first call pays the load once (tens of milliseconds, synchronous: `require`); later calls get the cached module.
 */
export function lazyModule<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load());
}
