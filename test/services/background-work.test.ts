import assert from 'node:assert/strict';
import { createBackgroundWork } from '../../src/services/operations/background-work';

describe('background work', () => {
  it('when work is started, then it begins only after the current turn (the answer is written first), and idle waits for it', async () => {
    const background = createBackgroundWork();
    const steps: string[] = [];

    background.start(async () => {
      steps.push('work began');
      await new Promise((resolve) => setTimeout(resolve, 20));
      steps.push('work done');
    });
    steps.push('answer written');
    await Promise.resolve();
    steps.push('after the microtasks');

    await background.idle();
    assert.deepEqual(steps, ['answer written', 'after the microtasks', 'work began', 'work done']);
  });
});
