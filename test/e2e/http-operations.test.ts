import { afterEach, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { commands } from '../../commands/index.js';
import { startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { startTestHttpBot, type TestHttpBot } from '../helpers/http-bot.js';
import { slowCommand } from '../helpers/probe-command.js';

describe('HTTP mode operations', () => {
  let bot: TestHttpBot | undefined;
  let ygoprodeck: FakeYgoprodeck | undefined;

  afterEach(async () => {
    await bot?.stop();
    await ygoprodeck?.close();
    bot = ygoprodeck = undefined;
  });

  it('is ready on /readyz only once the card database is loaded; /healthz and /metrics as in gateway mode', async () => {
    bot = await startTestHttpBot({ env: { METRICS_PORT: '0' } });
    const base = `http://127.0.0.1:${bot.app.opsServer!.port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    // No card database (YGOPRODeck unreachable, no snapshot): serving, but not ready.
    expect((await fetch(`${base}/readyz`)).status).toBe(503);
    await fetch(bot.url, { method: 'POST', body: '{}' });
    await (await bot.discord.chatInput({ name: 'status' })).callback();
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain('almanac_interaction_requests_total{status="401"} 1');
    expect(metrics).toMatch(/almanac_interactions_total\{command="status",kind="chat",outcome="ok"\} 1/);
    await bot.stop();

    ygoprodeck = await startFakeYgoprodeck();
    bot = await startTestHttpBot({
      // MESSAGE_SEARCH asks for what HTTP mode cannot have: it says so and serves interactions as ever.
      env: { METRICS_PORT: '0', YGOPRODECK_URL: ygoprodeck.url, MESSAGE_SEARCH: 'true' },
      cardSnapshot: { cards: ygoprodeck.cards, version: ygoprodeck.version },
    });
    expect(await (await fetch(`http://127.0.0.1:${bot.app.opsServer!.port}/readyz`)).text()).toBe('ready\n');
    expect(bot.logs.text).toContain('MESSAGE_SEARCH has no effect in HTTP mode');
  });

  it('on stop, answers the interactions in flight and refuses new ones with a plain sentence', async () => {
    bot = await startTestHttpBot({ commands: [...commands, slowCommand] });
    const inFlight = await bot.discord.chatInput({ name: 'slow' });
    await inFlight.callback();
    const stopping = bot.app.stop();
    expect(bot.app.isReady()).toBe(false);
    const late = await bot.discord.chatInput({ name: 'status' });
    expect((await late.final()).content).toBe(en.errors.shuttingDown);
    expect((await inFlight.waitForEdit()).message.content).toBe('done after all');
    await stopping;
  });
});
