import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { stopAppCore, type AppCore } from '../../src/app/core.js';
import { LogCapture } from '../helpers/log-capture.js';

/** An app core whose parts record, in order, what the stop did to them. */
function recordingCore(unfinished: number, withOpsServer: boolean): { core: AppCore; steps: string[] } {
  const steps: string[] = [];
  const core = {
    router: {
      drain: (timeoutMs: number) => {
        steps.push(`drain ${timeoutMs}`);
        return Promise.resolve({ unfinished });
      },
    },
    services: { close: () => (steps.push('services'), Promise.resolve()) },
    opsServer: withOpsServer ? { port: 1, url: 'http://127.0.0.1:1', close: () => (steps.push('ops server'), Promise.resolve()) } : undefined,
  } as unknown as AppCore;
  return { core, steps };
}

describe('stopAppCore', () => {
  it('drains within the time given, then releases the transport, closes the services, then the ops server', async () => {
    const { core, steps } = recordingCore(0, true);
    const logs = new LogCapture();
    await stopAppCore(core, pino(logs), 1_234, () => (steps.push('release'), Promise.resolve()));
    expect(steps).toEqual(['drain 1234', 'release', 'services', 'ops server']);
    expect(logs.entries().map((entry) => entry.msg)).toEqual(['stopped']);
  });

  it('says how many interactions were still in flight, and stops anyway without an ops server', async () => {
    const { core, steps } = recordingCore(2, false);
    const logs = new LogCapture();
    await stopAppCore(core, pino(logs), 10, () => Promise.resolve());
    expect(steps).toEqual(['drain 10', 'services']);
    expect(logs.entries().find((entry) => entry.msg === 'stopped with interactions still in flight')).toMatchObject({ unfinished: 2 });
  });
});
