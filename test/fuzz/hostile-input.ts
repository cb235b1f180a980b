import net from 'node:net';
import zlib from 'node:zlib';
import fc from 'fast-check';

/** A route as the fuzzer aims at it: method, Express path, and the body field names its schema knows. */
export interface RouteTarget {
  method: string;
  path: string;
  fields: string[];
}

/**
 * Credentials a case may carry: real ones reach the validation behind the guards. Cases hold the names
 * `@admin` and `@viewer`, replaced when sent, so a case that signed the admin out is followed by a fresh token.
 */
export interface FuzzCredentials {
  /** Tokens that must not work: forged, revoked, mangled. */
  badTokens: string[];
  /** Ids of real rows, so `:id` parameters sometimes hit something. */
  ids: string[];
}

/** The current working tokens by placeholder. */
export type LiveTokens = Record<'@admin' | '@viewer', string>;

/** One generated request, written byte for byte onto a socket. */
export interface FuzzCase {
  route: RouteTarget;
  method: string;
  target: string;
  headers: Array<[string, string | Buffer]>;
  body: Buffer;
}

export interface RawAnswer {
  status: number | null;
  /** Why there is no status: the socket closed or timed out first. */
  problem?: string;
}

const PERCENT_JUNK = ['%E0%A4%A', '%', '%%', '%zz', '%00', '%C0%AE%C0%AE', '%2e%2e%2f', '..', '%FF%FE', '%u0041', '%E2%80%AE', 'a%2Fb', '%25', '%ED%A0%80', '%F4%90%80%80'];
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__'];
const QUERY_KEYS = ['redirect', 'page', 'limit', 'q', 'role', 'action', 'userId', 'token', 'callbackURL', 'status', 'error', 'message', 'email', 'provider', 'state', 'code'];
const OTHER_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'get', 'FOO', 'M-SEARCH', 'PURGE'];
const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'application/json; charset="utf-16"',
  'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain', '', 'application/json; charset=koi8-r',
  'application/merge-patch+json', 'application/json;;;', 'APPLICATION/JSON', '*/*',
];
const ACCEPTS = ['application/json', 'text/html', '*/*', 'text/html;q=0.1, application/json', 'text/html, application/json;q=0.9', 'x/y;q=abc', ''];

/** Percent-encodes the UTF-8 bytes of any string (encodeURIComponent throws on a lone surrogate). */
function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => (/[A-Za-z0-9._~-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

/** Characters that would end the request line or a header line: the parser is fuzzed, not the framing. */
const noLineBreaks = (text: string) => text.replace(/[\r\n]/g, '');

const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '\uFEFF', '\uD800', 'x'.repeat(12_000), '<script>alert(1)</script>', "' OR 1=1 --", '../../etc/passwd', '${jndi:x}', '%E0%A4%A'),
  fc.constantFrom('admin', 'viewer', 'published', 'draft', 'github', 'google', 'email', 'otp-login', 'oauth-providers', '/admin', '//evil.test', 'https://evil.test'),
  fc.emailAddress(),
  fc.uuid(),
);

/** A JSON value a schema does not expect: wrong types, extremes, nesting, prototype keys. */
const hostileValue: fc.Arbitrary<string> = fc.oneof(
  hostileText.map((text) => JSON.stringify(text)),
  fc.constantFrom('1e999', '-1e999', '123456789012345678901234567890', '-0', '0.0000000000000000001', '9007199254740993', 'true', 'false', 'null', '[]', '{}', '[null]', '-1', '0', '2147483648'),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
  fc.constantFrom(...PROTOTYPE_KEYS).map((key) => `{"${key}":{"admin":true,"role":"admin"}}`),
  fc.integer({ min: 50, max: 3000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
);

/** An object body written by hand, so duplicate and prototype keys reach the parser as sent. */
function objectBody(fields: string[]): fc.Arbitrary<string> {
  const key = fc.oneof({ weight: 5, arbitrary: fields.length > 0 ? fc.constantFrom(...fields) : fc.string() }, fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 20 }));
  return fc
    .array(fc.tuple(key, hostileValue), { maxLength: 8 })
    .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);
}

function formBody(fields: string[]): fc.Arbitrary<string> {
  const key = fc.oneof(fields.length > 0 ? fc.constantFrom(...fields) : fc.string(), fc.constantFrom('__proto__[admin]', 'constructor[prototype][x]', 'a[b][c]', '_csrf', 'redirect', 'role'));
  const value = fc.oneof(fc.constantFrom(...PERCENT_JUNK), hostileText.map((t) => percentEncode(t)));
  return fc.array(fc.tuple(key, value), { maxLength: 8 }).map((pairs) => pairs.map(([k, v]) => `${percentEncode(k)}=${v}`).join('&'));
}

function bodyFor(route: RouteTarget): fc.Arbitrary<Buffer> {
  return fc.oneof(
    { weight: 12, arbitrary: objectBody(route.fields).map((text) => Buffer.from(text)) },
    { weight: 2, arbitrary: formBody(route.fields).map((text) => Buffer.from(text)) },
    { weight: 2, arbitrary: hostileValue.map((text) => Buffer.from(text)) },
    fc.constantFrom(
      Buffer.from('{"email": '), Buffer.from('\u0000\u0000'), Buffer.from([0xff, 0xfe, 0x7b, 0x7d]), Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]),
      Buffer.from('{"a":1}{"b":2}'), Buffer.from(`{"x":"${'y'.repeat(120_000)}"}`), Buffer.alloc(0), Buffer.from(`${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`),
    ),
  );
}

function pathFor(route: RouteTarget, credentials: FuzzCredentials): fc.Arbitrary<string> {
  const params = route.path.match(/:[A-Za-z0-9_]+/g) ?? [];
  const segment = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...credentials.ids, 'schema', 'email', 'otp-login', 'oauth-providers', 'github', 'google', 'nope') },
    { weight: 2, arbitrary: fc.constantFrom(...PERCENT_JUNK) },
    fc.uuid(),
    fc.integer().map(String),
    fc.string({ unit: 'binary', maxLength: 20 }).map((text) => percentEncode(text)),
    fc.string({ maxLength: 20 }).map((text) => noLineBreaks(text).replace(/[ ?#]/g, '_')),
    fc.constant('x'.repeat(6000)),
  );
  const withParams = fc.tuple(...params.map(() => segment)).map((values) => {
    let path = route.path;
    params.forEach((param, i) => {
      path = path.replace(param, values[i] === '' ? '%20' : values[i]);
    });
    return path;
  });
  const mangled = fc.oneof(
    { weight: 20, arbitrary: withParams },
    withParams.map((path) => `${path}/`),
    withParams.map((path) => path.replace(/\//g, '//')),
    withParams.map((path) => `${path}/${PERCENT_JUNK[0]}`),
    withParams.map((path) => path.toUpperCase()),
    withParams.map((path) => `${path};jsessionid=x`),
  );
  const query = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 10 })), fc.oneof(fc.constantFrom(...PERCENT_JUNK), hostileText.map((t) => percentEncode(t)), fc.constantFrom('-1', '0', '1e309', 'NaN', '99999999999', '/admin', '//evil.test', 'a&b=c'))), { maxLength: 4 });
  return fc.tuple(mangled, query, fc.constantFrom('', '[]', '[x]')).map(([path, pairs, bracket]) => {
    if (pairs.length === 0) return path;
    return `${path}?${pairs.map(([k, v]) => `${percentEncode(k)}${bracket}=${v}`).join('&')}`;
  });
}

function headersFor(credentials: FuzzCredentials): fc.Arbitrary<Array<[string, string | Buffer]>> {
  const token = fc.oneof({ weight: 6, arbitrary: fc.constant('@admin') }, { weight: 2, arbitrary: fc.constant('@viewer') }, { weight: 3, arbitrary: fc.constantFrom(...credentials.badTokens) });
  const authorization = fc.oneof(
    token.map((t) => `Bearer ${t}`),
    fc.constantFrom('Bearer', 'Bearer ', 'Bearer  x', 'Basic Zm9vOmJhcg==', 'Bearer a.b.c', 'bearer x.y.z', 'Token abc', `Bearer ${'x'.repeat(8000)}`, 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.'),
    hostileText.map((t) => `Bearer ${noLineBreaks(t)}`),
  );
  const cookie = fc.oneof(
    token.map((t) => `auth_token=${t}`),
    token.map((t) => `auth_token=${t}; csrf_token=abc.def`),
    fc.constantFrom('=;;;=;', 'auth_token="unterminated', 'auth_token=%E0%A4%A', 'auth_token=a; auth_token=b', `auth_token=${'c'.repeat(7000)}`, 'csrf_token=x', 'auth_session=s%3Aabc.def', '; ; ;'),
    hostileText.map((t) => `auth_token=${noLineBreaks(t)}`),
  );
  type Group = Array<[string, string | Buffer]>;
  const none = fc.constant<Group>([]);
  /** A header group present in about `percent` % of the cases. */
  const sometimes = (percent: number, group: fc.Arbitrary<Group>) => fc.oneof({ weight: 100 - percent, arbitrary: none }, { weight: percent, arbitrary: group });
  const contentType = fc.oneof({ weight: 12, arbitrary: fc.constant('application/json') }, { weight: 3, arbitrary: fc.constant('application/x-www-form-urlencoded') }, fc.constantFrom(...CONTENT_TYPES));
  const groups: Array<fc.Arbitrary<Group>> = [
    contentType.map((v): Group => (v === '' ? [] : [['Content-Type', v]])),
    sometimes(60, fc.constantFrom(...ACCEPTS).map((v): Group => [['Accept', v]])),
    // Mostly a working token, so the cases get past the guards to the validation behind them.
    sometimes(70, fc.oneof({ weight: 4, arbitrary: token.map((t) => `Bearer ${t}`) }, authorization).map((v): Group => [['Authorization', v]])),
    sometimes(20, cookie.map((v): Group => [['Cookie', v]])),
    sometimes(8, fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'compress', 'gzip, gzip', 'x-junk').map((v): Group => [['Content-Encoding', v]])),
    sometimes(8, fc.constantFrom('127.0.0.1, 10.0.0.1', 'garbage', '::1', '999.999.999.999', '', '2001:db8::1').map((v): Group => [['X-Forwarded-For', v]])),
    sometimes(8, fc.string({ maxLength: 80 }).map((v): Group => [['X-Request-Id', noLineBreaks(v)]])),
    sometimes(10, fc.uint8Array({ minLength: 1, maxLength: 40 }).map((bytes): Group => [['User-Agent', Buffer.from(bytes.map((b) => (b === 10 || b === 13 ? 32 : b)))]])),
    sometimes(8, fc.constantFrom('Ünïcødé', 'ж', '日本語').map((v): Group => [['X-Note', Buffer.from(v, 'utf8')], ['Accept-Language', Buffer.from(v, 'utf8')]])),
    sometimes(3, fc.constant<Group>([['X-Big', 'a'.repeat(20_000)]])),
    sometimes(6, fc.tuple(fc.constantFrom(...CONTENT_TYPES), fc.constantFrom(...CONTENT_TYPES)).map(([a, b]): Group => [['Content-Type', a], ['Content-Type', b]])),
    sometimes(6, fc.tuple(authorization, authorization).map(([a, b]): Group => [['Authorization', a], ['Authorization', b]])),
    sometimes(5, fc.constantFrom('evil.test', '', 'a b', '[::1]:99999').map((v): Group => [['X-Forwarded-Host', v], ['Origin', `http://${v}`]])),
  ];
  return fc.tuple(...groups).map((chosen) => chosen.flat());
}

/** A case for any of the routes: its method or another, a mangled path and query, hostile headers and body. */
export function caseArbitrary(routes: RouteTarget[], credentials: FuzzCredentials): fc.Arbitrary<FuzzCase> {
  return fc.constantFrom(...routes).chain((route) =>
    fc
      .record({
        method: fc.oneof({ weight: 8, arbitrary: fc.constant(route.method) }, fc.constantFrom(...OTHER_METHODS)),
        target: pathFor(route, credentials),
        headers: headersFor(credentials),
        // Bodies mostly where the route reads one; a GET with a body is a case too.
        body: route.method === 'GET' ? fc.oneof({ weight: 5, arbitrary: fc.constant(Buffer.alloc(0)) }, bodyFor(route)) : fc.oneof({ weight: 6, arbitrary: bodyFor(route) }, fc.constant(Buffer.alloc(0))),
        compressed: fc.boolean(),
        chunked: fc.boolean(),
      })
      .map(({ method, target, headers, body, compressed, chunked }) => {
        const encoding = headers.find(([name]) => name === 'Content-Encoding')?.[1];
        // A body that claims gzip is compressed half the time, so the inflated content is fuzzed too.
        const payload = compressed && encoding === 'gzip' ? zlib.gzipSync(body) : body;
        const framing: Array<[string, string]> = chunked && payload.length > 0 ? [['Transfer-Encoding', 'chunked']] : [['Content-Length', String(payload.length)]];
        return { route, method, target, headers: [...headers, ...framing], body: chunked && payload.length > 0 ? chunk(payload) : payload };
      }),
  );
}

function chunk(payload: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${payload.length.toString(16)}\r\n`), payload, Buffer.from('\r\n0\r\n\r\n')]);
}

/** Writes the case onto a fresh connection and reads the status line of the answer (the server closes after it). */
export function sendRaw(port: number, fuzzCase: FuzzCase, live: LiveTokens, extraHeaders: Array<[string, string]>, timeoutMs = 15_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (answer: RawAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => finish({ status: null, problem: `no answer within ${timeoutMs} ms` }), timeoutMs);
    socket.on('data', (data: Buffer) => {
      received = Buffer.concat([received, data]);
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(received.subarray(0, 16).toString('latin1'));
      if (match) finish({ status: Number(match[1]) });
    });
    socket.on('error', (err: NodeJS.ErrnoException) => finish({ status: null, problem: err.code ?? err.message }));
    socket.on('close', () => finish({ status: null, problem: 'closed without an answer' }));
    const lines: Buffer[] = [Buffer.from(`${fuzzCase.method} ${fuzzCase.target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n`)];
    for (const [name, value] of [...extraHeaders, ...fuzzCase.headers]) {
      const text = Buffer.isBuffer(value) ? value : Buffer.from(value.replace(/@admin|@viewer/g, (name) => live[name as keyof LiveTokens]), 'latin1');
      lines.push(Buffer.from(`${name}: `), text, Buffer.from('\r\n'));
    }
    lines.push(Buffer.from('\r\n'), fuzzCase.body);
    // write, not end: Node's server treats a client's half-close as an abandoned request.
    socket.write(Buffer.concat(lines));
  });
}

/** A readable one-line description of a case for reports (long values cut). */
export function describeCase(fuzzCase: FuzzCase): string {
  const cut = (text: string) => (text.length > 120 ? `${text.slice(0, 120)}…(${text.length})` : text);
  const headers = fuzzCase.headers.map(([name, value]) => `${name}: ${cut(value.toString('latin1'))}`).join(' | ');
  return `${fuzzCase.method} ${cut(fuzzCase.target)} [${headers}] body=${cut(fuzzCase.body.toString('latin1'))}`;
}
