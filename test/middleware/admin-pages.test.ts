import assert from 'node:assert/strict';
import { ADMIN_NAV, navFor } from '../../src/middleware/admin-pages';

describe('admin menu', () => {
  it('when built per role, then it follows the permission matrix: a viewer sees Profile only', () => {
    const labels = (role: string) => navFor(role, '/admin').map((item) => item.label);
    assert.deepEqual(labels('admin'), ADMIN_NAV.map((item) => item.label));
    assert.deepEqual(labels('editor'), ['Content', 'Profile']);
    assert.deepEqual(labels('author'), ['Content', 'Profile']);
    assert.deepEqual(labels('viewer'), ['Profile']);
    assert.deepEqual(labels('nobody'), ['Profile']);
  });

  it('when on a page below a section, then that section is the current one', () => {
    const current = navFor('admin', '/admin/users/abc/edit').filter((item) => item.current).map((item) => item.label);
    assert.deepEqual(current, ['Users']);
  });
});
