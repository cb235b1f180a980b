import assert from 'node:assert/strict';
import { safeRedirect } from '../../src/http/safe-redirect';

describe('safeRedirect', () => {
  it('when the value is a same-origin path, then it is kept with its query and fragment', () => {
    assert.equal(safeRedirect('/admin/content?page=2#top'), '/admin/content?page=2#top');
    assert.equal(safeRedirect('/a/../admin'), '/admin');
  });

  it('when the value leaves the origin, directly or once normalised, then it is refused', () => {
    const foreign = [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '/.//evil.example/x',
      '/..//evil.example/x',
      '/a/..//evil.example/x',
      '/%2e//evil.example/x',
      '/%2E%2E//evil.example/x',
      '/./\\evil.example',
      '/\u0000/x',
      'admin',
      '',
    ];
    for (const value of foreign) assert.equal(safeRedirect(value), null, JSON.stringify(value));
  });

  it('when the value is not a string or is too long, then it is refused', () => {
    assert.equal(safeRedirect(['/admin']), null);
    assert.equal(safeRedirect(undefined), null);
    assert.equal(safeRedirect(`/${'a'.repeat(2048)}`), null);
  });
});
