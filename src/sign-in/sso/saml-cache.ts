import type { CacheProvider } from '@node-saml/node-saml';
import type { KeyValueStore } from '../../store';

/**
 * node-saml's request-id cache on the service's store, so the instance that answers the ACS POST finds the
 * AuthnRequest another instance sent. Keys carry the provider slug: a response is only accepted for a request
 * made to the same provider. Entries expire with the flow (`ttlMs`), and node-saml removes one once its
 * response has been checked, whatever the outcome.
 */
export function storeCacheProvider(store: KeyValueStore, slug: string, ttlMs: number): CacheProvider {
  const key = (id: string) => `sso:saml:request:${slug}:${id}`;
  const ttlSeconds = Math.ceil(ttlMs / 1000);
  return {
    async saveAsync(id, value) {
      // node-saml treats null as "already there"; request ids are random, so that means a collision.
      return (await store.setIfAbsent(key(id), value, ttlSeconds)) ? { value, createdAt: Date.now() } : null;
    },
    getAsync: (id) => store.get(key(id)),
    async removeAsync(id) {
      return id === null ? null : store.take(key(id));
    },
  };
}
