import assert from 'node:assert/strict';
import { AppError } from '../../src/http/app-error';

describe('AppError', () => {
  it('when one is made, then it carries its answer and no captured stack (a refusal under a flood pays for none)', () => {
    const err = AppError.tooManyRequests(3);
    assert.ok(err instanceof Error);
    assert.equal(err.status, 429);
    assert.equal(err.message, 'Too many requests. Please try again later.');
    assert.deepEqual(err.options.headers, { 'Retry-After': '3' });
    assert.equal(err.name, 'AppError');
    assert.ok(!/\n\s+at /.test(err.stack ?? ''), `a stack was captured: ${err.stack}`);
  });

  it('when one has been made, then other errors still capture their stacks', () => {
    new AppError(400, 'bad');
    const other = new Error('fault');
    assert.match(other.stack ?? '', /\n\s+at /);
  });
});
