import assert from 'node:assert/strict';
import path from 'node:path';
import { startService, type ServiceProcess } from '../support/service-process';
import { uniqueEmail } from '../support/context';
import { PASSWORD } from '../support/auth';

/**
 * Libraries only one optional feature needs load at that feature's first use (src/util/lazy-module.ts): a process
 * that signs people in and never meets a SAML or OpenID Connect SSO provider, or draws no dashboard, never holds
 * them (the SAML stack alone is about 5 MiB of heap: issue 51's idle-memory target).
 */
describe('libraries of optional features', () => {
  let service: ServiceProcess | undefined;
  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });

  async function loadedPackages(running: ServiceProcess): Promise<string[]> {
    const asked = running.logs.length;
    running.child.kill('SIGUSR2');
    const line = await running.waitForLog((entry) => entry.msg === 'loaded packages' && running.logs.indexOf(entry) >= asked);
    return line.packages as string[];
  }

  it('when a service starts and signs a user in, then the SSO and chart libraries stay unloaded', async () => {
    const preload = path.join(__dirname, '..', 'support', 'report-loaded-packages.js');
    service = await startService({ NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${preload}`.trim() });
    const email = uniqueEmail('lazy');
    const registered = await fetch(`${service.baseUrl}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD, name: 'Lazy Loader' }),
    });
    assert.equal(registered.status, 201, await registered.clone().text());
    const { token } = (await registered.json()) as { token: string };
    const me = await fetch(`${service.baseUrl}/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(me.status, 200);

    const packages = await loadedPackages(service);
    // What every sign-in needs is there: the report reads the real cache.
    for (const needed of ['express', 'sequelize', 'zod']) assert.ok(packages.includes(needed), `${needed} not reported: ${packages.join(' ')}`);
    for (const optional of ['@node-saml/passport-saml', '@node-saml/node-saml', 'xml-crypto', '@xmldom/xmldom', 'xpath', 'openid-client', 'd3-scale', 'd3-shape']) {
      assert.ok(!packages.includes(optional), `${optional} was loaded without any use of its feature`);
    }
  });
});
