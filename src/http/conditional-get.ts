import crypto from 'node:crypto';

/**
 * Conditional GET for public documents clients poll (discovery, the JWKS): a strong ETag of the JSON sent, and
 * whether the client's If-None-Match already names it (RFC 9110 13.1.2: weak comparison, any of a list, or `*`).
 */
export function jsonEtag(body: unknown): string {
  return `"${crypto.hash('sha256', JSON.stringify(body), 'base64url').slice(0, 27)}"`;
}

export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}
