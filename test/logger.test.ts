import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

/** What the process logger writes to standard output for one line, in a process of its own (it owns stdout). */
function oneLine(format: 'json' | 'pretty'): string {
  const script = `require('./src/logger').createProcessLogger('info', '${format}').info({ route: '/health', password: 'hunter2' }, 'hello');`;
  return execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8' });
}

describe('the process logger (src/logger.ts)', () => {
  it('when LOG_FORMAT is json (the default), then lines are JSON with credentials redacted', () => {
    const line = JSON.parse(oneLine('json').trim()) as Record<string, unknown>;
    assert.equal(line.msg, 'hello');
    assert.equal(line.route, '/health');
    assert.equal(line.password, '[redacted]');
  });

  it('when LOG_FORMAT is pretty (npm run dev), then a line is readable text on one line, credentials still redacted', () => {
    const text = oneLine('pretty');
    assert.equal(text.trim().split('\n').length, 1);
    assert.match(text, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: hello /);
    assert.match(text, /"route":"\/health"/);
    assert.doesNotMatch(text, /hunter2/);
    assert.throws(() => JSON.parse(text));
  });
});
