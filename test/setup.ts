import { setupTestContext, teardownTestContext, ctx } from './support/context';

// Root hooks: one scratch database and store for the whole run. Rate-limit counters and caches are
// cleared before each test so tests never throttle each other; rows stay, each test makes its own.
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(60_000);
    await setupTestContext();
  },
  async beforeEach() {
    await ctx().store.clear();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await teardownTestContext();
  },
};
