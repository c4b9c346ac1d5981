import { describe, expect, it } from 'vitest';
import { selectedTasks, startCardExpiryFailingApprovals } from './background';
import { startDeliveryWorker } from './webhooks/delivery-worker';

describe('BACKGROUND_TASKS', () => {
  it('runs every loop when unset or empty, as production does', () => {
    expect(selectedTasks(undefined)).toHaveLength(17);
    expect(selectedTasks(' ')).toHaveLength(17);
  });

  it('runs only the loops it names, or none', () => {
    expect(selectedTasks('webhook-delivery, card-expiry')).toEqual([startDeliveryWorker, startCardExpiryFailingApprovals]);
    expect(selectedTasks('none')).toEqual([]);
  });

  it('refuses a name it does not know, so a typo cannot silently stop a loop a test waits on', () => {
    expect(() => selectedTasks('webhook-delivery,webhooks')).toThrow(/no loop called webhooks/);
  });
});
