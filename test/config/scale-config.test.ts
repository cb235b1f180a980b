import assert from 'node:assert/strict';
import { loadConfig, ConfigError } from '../../src/config/config';

const base = { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/auth-scale-config' };

describe('config: Redis Sentinel, Redis Cluster and read replicas (CONTRACT 13)', () => {
  it('when REDIS_URL names a Sentinel set, then it is the store address as given', () => {
    const config = loadConfig({ ...base, REDIS_URL: 'redis+sentinel://10.0.0.1:26379,10.0.0.2:26379/auth-master' });
    assert.equal(config.redisUrl, 'redis+sentinel://10.0.0.1:26379,10.0.0.2:26379/auth-master');
    assert.equal(loadConfig({ ...base, REDIS_URL: 'redis+sentinel://:pw@s1:26379/m' }).redisUrl, 'redis+sentinel://:pw@s1:26379/m');
  });

  it('when REDIS_CLUSTER_NODES is set, then the store is that cluster', () => {
    assert.equal(loadConfig({ ...base, REDIS_CLUSTER_NODES: 'r1:7000, r2:7001,r3:7002' }).redisUrl, 'redis+cluster://r1:7000,r2:7001,r3:7002');
  });

  it('when DATABASE_READ_URLS lists replicas of a MySQL primary, then each is kept in order', () => {
    const config = loadConfig({ ...base, DATABASE_URL: 'mysql://root@db:3306/auth', DATABASE_READ_URLS: 'mysql://ro@r1/auth, mysql://ro@r2/auth' });
    assert.deepEqual(config.databaseReadUrls, ['mysql://ro@r1/auth', 'mysql://ro@r2/auth']);
    assert.deepEqual(loadConfig(base).databaseReadUrls, []);
  });

  for (const [label, env, message] of [
    ['a Sentinel URL without a master name', { REDIS_URL: 'redis+sentinel://s1:26379' }, /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL, or redis\+sentinel/],
    ['cluster nodes without ports', { REDIS_CLUSTER_NODES: 'r1,r2' }, /REDIS_CLUSTER_NODES must be host:port entries/],
    ['both REDIS_URL and REDIS_CLUSTER_NODES', { REDIS_URL: 'redis://r:6379', REDIS_CLUSTER_NODES: 'r1:7000' }, /name two stores/],
    ['read replicas of SQLite', { DATABASE_READ_URLS: 'mysql://r1/auth' }, /DATABASE_READ_URLS needs a mysql/],
    ['a replica that is not MySQL', { DATABASE_URL: 'mysql://db/auth', DATABASE_READ_URLS: 'sqlite:x' }, /DATABASE_READ_URLS must be mysql/],
  ] as const) {
    it(`when given ${label}, then the start fails naming the variable`, () => {
      assert.throws(() => loadConfig({ ...base, ...env }), (err: unknown) => err instanceof ConfigError && message.test(err.message));
    });
  }
});
