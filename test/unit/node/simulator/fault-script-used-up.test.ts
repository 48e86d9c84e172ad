// When a fault script is used up (README.md, the simulator's fault script: once the list is used up
// every request gets `ok`): the Simulator badge stops warning then, so the cursor says so — after
// the last step, never for a step repeated for ever, and a model's own list counts too.
import { describe, expect, it } from 'vitest';
import { FaultScript } from '../../../../src/main/node/simulator/fault-script';

describe('FaultScript.isUsedUp', () => {
  it('is false until the last step was handed out, true after, and false again on reset', () => {
    const script = FaultScript.fromScript('503*2, ok');
    expect(script.isUsedUp).toBe(false);
    script.next();
    script.next();
    expect(script.isUsedUp).toBe(false);
    script.next();
    expect(script.isUsedUp).toBe(true);
    script.reset();
    expect(script.isUsedUp).toBe(false);
  });

  it("is never true for a step repeated for ever, and waits for a named model's own list", () => {
    const forever = FaultScript.fromScript('503*');
    for (let i = 0; i < 5; i++) forever.next();
    expect(forever.isUsedUp).toBe(false);
    const byModel = FaultScript.fromScript('503 @resolute-sim-3 429');
    byModel.next('resolute-sim-1');
    expect(byModel.isUsedUp).toBe(false);
    byModel.next('resolute-sim-3');
    expect(byModel.isUsedUp).toBe(true);
  });

  it('an empty script is used up from the start', () => {
    expect(FaultScript.fromScript('').isUsedUp).toBe(true);
  });
});
