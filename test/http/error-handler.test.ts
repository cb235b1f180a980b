import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import request from 'supertest';
import express from 'express';
import { DatabaseError } from 'sequelize';
import { ctx } from '../support/context';
import { errorHandler } from '../../src/http/error-handler';

/**
 * Sends raw bytes with the given Content-Encoding over a real socket (superagent would re-serialize a
 * Buffer under a JSON content type).
 */
async function postEncoded(path: string, encoding: string, body: Buffer): Promise<{ status: number; body: any }> {
  const server = http.createServer(ctx().app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': encoding, Accept: 'application/json' },
      // A Uint8Array view: @xmldom/xmldom (SAML) brings the DOM lib's fetch types in, whose BodyInit has no Buffer.
      body: new Uint8Array(body),
    });
    return { status: res.status, body: await res.json() };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

describe('error handler: malformed requests', () => {
  it('when a path parameter has undecodable percent-encoding, then 400 JSON, not 500', async () => {
    for (const path of ['/api/users/%E0%A4%A', '/api/content/%ZZ', '/api/user-profiles/%E0', '/api/plugins/%C3%28x%']) {
      const res = await request(ctx().app).get(path).set('Accept', 'application/json');
      assert.equal(res.status, 400, path);
      assert.deepEqual(res.body, { error: 'Malformed URL encoding' });
    }
  });

  it('when a browser asks for such a path, then a 400 HTML page', async () => {
    const res = await request(ctx().app).get('/api/users/%E0%A4%A').set('Accept', 'text/html');
    assert.equal(res.status, 400);
    assert.match(res.headers['content-type'], /text\/html/);
    assert.match(res.text, /Malformed URL encoding/);
  });

  it('when a gzip, deflate or br body does not inflate, then 400 with a clear message', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const res = await postEncoded('/auth/login', encoding, Buffer.from('{"email":"a@b.test","password":"x"}'));
      assert.equal(res.status, 400, encoding);
      assert.deepEqual(res.body, { error: 'Request body could not be read' });
    }
  });

  it('when the encoding is unknown, then 415 naming the problem', async () => {
    for (const encoding of ['compress', 'x-custom', 'gzip, identity']) {
      const res = await postEncoded('/auth/login', encoding, Buffer.from('{}'));
      assert.equal(res.status, 415, encoding);
      assert.deepEqual(res.body, { error: 'Unsupported request body encoding' });
    }
  });

  it('when a well-formed gzip body is sent, then it is read like a plain one', async () => {
    const res = await postEncoded('/auth/login', 'gzip', zlib.gzipSync('{"email":"not-an-email","password":"x"}'));
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'Validation failed');
    assert.ok(res.body.errors.email);
  });

  it('when a small gzip body inflates past 100 kB, then 413', async () => {
    const bomb = zlib.gzipSync(JSON.stringify({ email: 'a@b.test', password: 'x'.repeat(2_000_000) }));
    assert.ok(bomb.length < 10_000);
    const res = await postEncoded('/auth/login', 'gzip', bomb);
    assert.equal(res.status, 413);
  });
});

describe('error handler: contention', () => {
  it('when a transaction stays a deadlock victim through its retries, then 503 with Retry-After, not 500', async () => {
    const app = express();
    app.get('/busy', () => {
      throw new DatabaseError(Object.assign(new Error('Deadlock found when trying to get lock'), { errno: 1213, sql: 'DELETE …' }) as never);
    });
    app.use(errorHandler);

    const res = await request(app).get('/busy').set('Accept', 'application/json');

    assert.equal(res.status, 503);
    assert.equal(res.headers['retry-after'], '5');
    assert.deepEqual(res.body, { error: 'Service unavailable' });
  });
});
